package dev.schedlab.spi;

import dev.schedlab.cpumask.DistributeCursor;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.CpuStateView;

/** What a {@link WakeupPolicy} may use while placing one task. */
public interface WakeupContext {

  /** Live CPU state, including {@code nohz.idle_cpus_mask}. */
  CpuStateView state();

  /** Actions the policy may request (e.g. resetting a CPU's balance period). */
  BalanceActions actions();

  /** The CPU running the wakeup ({@code smp_processor_id()}). */
  int wakingCpu();

  /** Whether this is a fork ({@code WF_FORK}) rather than a wakeup ({@code WF_TTWU}). */
  boolean isFork();

  /** The per-CPU rotating cursor used by {@code cpumask_any_distribute()} on {@code cpu}. */
  DistributeCursor distributeCursor(int cpu);
}
