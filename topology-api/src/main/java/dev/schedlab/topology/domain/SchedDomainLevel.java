package dev.schedlab.topology.domain;

/**
 * The kinds of sched-domain topology level, bottom-up, named as {@code SDTL_INIT()} names them and
 * as {@code /proc/schedstat} and {@code /sys/kernel/debug/sched/domains} print them.
 */
public enum SchedDomainLevel {

  /** SMT siblings of a core: {@code cpu_smt_mask()}, flags {@code cpu_smt_flags()}. */
  SMT,

  /** CPUs of a cluster (shared L2 or cluster tag): {@code cpu_clustergroup_mask()}. */
  CLS,

  /**
   * CPUs sharing the last-level cache: {@code cpu_coregroup_mask()}, flags {@code SD_SHARE_LLC}.
   */
  MC,

  /** Every CPU of the node (in 7.1, {@code cpu_node_mask()}, despite the name); no flags. */
  PKG,

  /** The NUMA identity level: nodes at the smallest distance (normally the node itself). */
  NODE,

  /** One level per larger node distance, flags {@code SD_NUMA}; groups may overlap. */
  NUMA
}
