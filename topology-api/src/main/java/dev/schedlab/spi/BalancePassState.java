package dev.schedlab.spi;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.IdleType;

/**
 * State of one balancing pass ({@code sched_balance_domains()} or {@code sched_balance_newidle()}
 * for one CPU), shared by every {@link BalancePass} in the run so that independent plugins can see
 * what earlier hooks did in the same pass. Reset by the engine at the start of every pass.
 */
public interface BalancePassState {

  /** The CPU being balanced ({@code dst_cpu}); for NOHZ passes, the idle CPU balanced for. */
  int cpu();

  /** The pass's idle type. */
  IdleType idleType();

  /** Whether any hook moved a task in this pass (e.g. an SMT buddy push). */
  boolean pushed();

  /** Destination CPUs of the pushes made in this pass (empty when none). */
  CpuMask pushDestinations();

  /** Records a push to {@code dstCpu} made by a hook in this pass. */
  void recordPush(int dstCpu);
}
