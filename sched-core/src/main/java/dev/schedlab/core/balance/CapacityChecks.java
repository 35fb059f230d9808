package dev.schedlab.core.balance;

import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;

/**
 * The capacity comparisons of {@code kernel/sched/fair.c} that several steps of balancing share:
 * {@code capacity_greater()}, {@code fits_capacity()} and {@code check_cpu_capacity()}.
 */
final class CapacityChecks {

  private CapacityChecks() {}

  /** Equivalent of {@code capacity_greater(cap1, cap2)}: more than ~5% bigger. */
  static boolean capacityGreater(long a, long b) {
    return a * 1024 > b * 1078;
  }

  /** Equivalent of {@code fits_capacity(cap, max)}: at least ~20% headroom. */
  static boolean fitsCapacity(long util, long capacity) {
    return util * 1280 < capacity * 1024;
  }

  /**
   * Models {@code check_cpu_capacity(rq, sd)}: {@code capacity_of(cpu)} is reduced below the
   * original capacity by more than the domain's {@code imbalance_pct}.
   */
  static boolean checkCpuCapacity(CpuStateView state, Topology topology, int cpu, SchedDomain sd) {
    return state.capacityOf(cpu) * sd.imbalancePct() < (long) topology.capacity(cpu) * 100;
  }
}
