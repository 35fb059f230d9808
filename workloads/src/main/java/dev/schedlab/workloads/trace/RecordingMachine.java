package dev.schedlab.workloads.trace;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;

/**
 * The machine a trace was recorded on, as far as the import needs it: how much work a task did per
 * nanosecond on each CPU given which CPUs were busy. A CPU burst becomes work (ns of a task running
 * alone on a 1024-capacity CPU, {@link dev.schedlab.spi.TaskControl#run}'s unit), so that a replay
 * on a faster, slower or SMT-shared CPU runs longer or shorter than the recording did.
 */
public interface RecordingMachine {

  /** What the busy state of the recording's CPUs was at an instant, as the import followed it. */
  interface BusyState {

    /** The trace's time, ns. */
    long nowNs();

    /** Whether {@code cpu} ran a task (any but the idle task). */
    boolean isBusy(int cpu);

    /** When {@code cpu} last became busy. */
    long busySinceNs(int cpu);

    /** When {@code cpu} last became idle ({@code Long.MIN_VALUE}: never busy). */
    long idleSinceNs(int cpu);
  }

  /** How the report names the machine. */
  String name();

  /** CPUs the machine has ({@code nr_cpu_ids}); 0 when any CPU number is allowed. */
  int cpuCount();

  /** The CPUs whose busy state changes {@code cpu}'s speed (its SMT siblings), itself left out. */
  int[] neighbours(int cpu);

  /** Work units per ns of a task on {@code cpu}. */
  double speed(int cpu, BusyState state);

  /**
   * A machine of which nothing is known: every CPU is taken as a 1024-capacity CPU running its task
   * alone (work = CPU time).
   *
   * @param name how the report names it, e.g. from the trace's header
   */
  static RecordingMachine unknown(String name) {
    return new RecordingMachine() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public int cpuCount() {
        return 0;
      }

      @Override
      public int[] neighbours(int cpu) {
        return new int[0];
      }

      @Override
      public double speed(int cpu, BusyState state) {
        return 1.0;
      }
    };
  }

  /**
   * A modelled machine: each CPU's capacity and SMT co-running as its {@link PerformanceModel} says
   * for a compute-bound task that has not just migrated.
   *
   * @param name how the report names it ({@code hw.vera})
   */
  static RecordingMachine of(String name, HardwareModel model) {
    Topology topology = model.topology();
    PerformanceModel performance = model.performanceModel();
    int[][] neighbours = new int[topology.nrCpuIds()][];
    for (int cpu = 0; cpu < neighbours.length; cpu++) {
      CpuMask siblings = topology.smtSiblings(cpu);
      int[] others = new int[Math.max(0, siblings.weight() - 1)];
      int k = 0;
      for (int s = siblings.first(); s != CpuMask.NO_CPU; s = siblings.next(s)) {
        if (s != cpu && k < others.length) {
          others[k++] = s;
        }
      }
      neighbours[cpu] = others;
    }
    return new RecordingMachine() {
      private BusyState state;
      private final PerfStateView view =
          new PerfStateView() {
            @Override
            public long nowNs() {
              return state.nowNs();
            }

            @Override
            public boolean isBusy(int cpu) {
              return state.isBusy(cpu);
            }

            @Override
            public long busySinceNs(int cpu) {
              return state.busySinceNs(cpu);
            }

            @Override
            public long idleSinceNs(int cpu) {
              return state.idleSinceNs(cpu);
            }

            @Override
            public int lastMigrationDistance(int taskId) {
              return 0;
            }

            @Override
            public long runTimeSinceMigrationNs(int taskId) {
              return Long.MAX_VALUE / 4;
            }

            @Override
            public WorkClass workClass(int taskId) {
              return WorkClass.COMPUTE;
            }

            @Override
            public int memoryBoundRunning(int node) {
              return 0;
            }
          };

      @Override
      public String name() {
        return name;
      }

      @Override
      public int cpuCount() {
        return topology.nrCpuIds();
      }

      @Override
      public int[] neighbours(int cpu) {
        return neighbours[cpu];
      }

      @Override
      public double speed(int cpu, BusyState busy) {
        state = busy;
        return performance.speed(cpu, 0, view);
      }
    };
  }
}
