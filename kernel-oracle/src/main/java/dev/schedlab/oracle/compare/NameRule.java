package dev.schedlab.oracle.compare;

/**
 * A documented difference in how the guest kernel (Linux 6.1) and the simulator (Linux 7.1.5 plus
 * mainline deltas) name the same sched-domain fact; the comparison applies every rule before it
 * compares, and the report lists them.
 */
public enum NameRule {
  /** 6.1's package level is {@code DIE}; renamed {@code PKG} in 6.7. */
  DIE_IS_PKG(
      "level DIE is PKG", "f577cd57bfaa sched/topology: Rename 'DIE' domain to 'PKG' (v6.7)"),
  /** 6.1's LLC flag is {@code SD_SHARE_PKG_RESOURCES}; renamed {@code SD_SHARE_LLC} in 6.10. */
  SHARE_PKG_RESOURCES_IS_SHARE_LLC(
      "flag SD_SHARE_PKG_RESOURCES is SD_SHARE_LLC",
      "54de44274703 sched/topology: Rename SD_SHARE_PKG_RESOURCES to SD_SHARE_LLC (v6.10)"),
  /**
   * 6.1 has no {@code SD_CLUSTER} (added in 6.7); the simulator's CLS level carries it. x86 guests
   * under QEMU have one core per L2, so their CLS level is always degenerate.
   */
  NO_SD_CLUSTER(
      "flag SD_CLUSTER does not exist in 6.1",
      "b95303e0aeaf sched: Add cpus_share_resources API (v6.7) added SD_CLUSTER"),
  /**
   * 6.1 marks every NUMA level (all but NODE) with {@code SD_OVERLAP}, from the topology level's
   * {@code SDTL_OVERLAP}, whether or not its groups overlap; current kernels have no such flag and
   * decide by the level. The simulator's counterpart is {@code hasOverlappingGroups()}, shown as
   * {@code SD_OVERLAP} on the simulator side.
   */
  OVERLAP_IS_LEVEL_PROPERTY(
      "flag SD_OVERLAP is the level's overlapping groups",
      "sd_flags.h of 6.1 has SD_OVERLAP; the 7.1.5 sd_flags.h has none (groups overlap on every"
          + " NUMA level above NODE, build_overlap_sched_groups())");

  private final String rule;
  private final String kernelReference;

  NameRule(String rule, String kernelReference) {
    this.rule = rule;
    this.kernelReference = kernelReference;
  }

  /** The rule in a few words. */
  public String rule() {
    return rule;
  }

  /** The kernel commit or source fact behind it. */
  public String kernelReference() {
    return kernelReference;
  }
}
