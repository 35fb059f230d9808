package dev.schedlab.spi;

/**
 * How fast a thread makes progress on a CPU right now. The engine asks again whenever the state it
 * reports changes, and at the instant {@link #nextSpeedChangeNs} names. Implementations are pure
 * functions of the reported state and allocate nothing.
 */
public interface PerformanceModel {

  /**
   * Work units per nanosecond for task {@code taskId} running on {@code cpu}: 1.0 is a thread
   * running alone on a 1024-capacity CPU; SMT co-running, cache-cold restarts after migration and
   * memory-bandwidth sharing lower it; capacity scales it.
   */
  double speed(int cpu, int taskId, PerfStateView state);

  /**
   * The next instant after {@code state.nowNs()} at which {@link #speed} would change with no other
   * state change (e.g. a sibling's idle qualification interval ending, cache warming up), or {@link
   * Long#MAX_VALUE}.
   */
  long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state);
}
