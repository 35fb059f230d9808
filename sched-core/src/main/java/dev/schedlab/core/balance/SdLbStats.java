package dev.schedlab.core.balance;

import dev.schedlab.topology.domain.SchedGroup;

/**
 * Equivalent of {@code struct sd_lb_stats} in {@code kernel/sched/fair.c}: what {@code
 * update_sd_lb_stats()} learned about a whole domain, the busiest and the local group with their
 * {@link SgLbStats}, the totals, and {@code prefer_sibling}. {@link FindSrcGroup} fills it and
 * decides from it; it keeps the last domain's statistics until the next search. Preallocated and
 * reused.
 */
final class SdLbStats {
  /** {@code sds->busiest}: the busiest group other than the local one, or null. */
  SchedGroup busiest;

  /** {@code sds->local}: the group holding the balancing CPU. */
  SchedGroup local;

  /** {@code sds->total_load}. */
  long totalLoad;

  /** {@code sds->total_capacity}. */
  long totalCapacity;

  /** {@code sds->avg_load}: computed only where a decision needs it, 0 until then. */
  long avgLoad;

  /** {@code sds->prefer_sibling}: the busiest group's child domain has SD_PREFER_SIBLING. */
  boolean preferSibling;

  /** {@code sds->busiest_stat}. */
  final SgLbStats busiestStat = new SgLbStats();

  /** {@code sds->local_stat}. */
  final SgLbStats localStat = new SgLbStats();

  /** Equivalent of {@code init_sd_lb_stats()}. */
  void init() {
    busiest = null;
    local = null;
    totalLoad = 0;
    totalCapacity = 0;
    avgLoad = 0;
    preferSibling = false;
    busiestStat.resetAsInitialBusiest();
    localStat.reset();
  }
}
