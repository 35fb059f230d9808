package dev.schedlab.topology.domain;

/**
 * Choices that change how {@link SchedDomains#build(dev.schedlab.topology.Topology,
 * SchedDomainOptions)} builds the domains.
 *
 * @param clearChildPreferSiblingOnAsymCapacity the 7.1.5 rule in {@code sd_init()}: a domain with
 *     {@code SD_ASYM_CPUCAPACITY} clears {@code SD_PREFER_SIBLING} in its child. Mainline removed
 *     it in 2026-08 (topology.c f2c2ba72, "Restore SD_PREFER_SIBLING in domains with asymmetric
 *     capacity"), so the default is false
 * @param relaxDomainLevel the {@code relax_domain_level=} boot option ({@code
 *     set_domain_attribute()}): domains whose build level is at least this lose {@code
 *     SD_BALANCE_WAKE} and {@code SD_BALANCE_NEWIDLE}; -1 (default) changes nothing
 * @param nodeReclaimDistance {@code node_reclaim_distance} (default {@code RECLAIM_DISTANCE} = 30):
 *     NUMA levels farther than this lose {@code SD_BALANCE_EXEC}, {@code SD_BALANCE_FORK} and
 *     {@code SD_WAKE_AFFINE}
 */
public record SchedDomainOptions(
    boolean clearChildPreferSiblingOnAsymCapacity, int relaxDomainLevel, int nodeReclaimDistance) {

  /** {@code RECLAIM_DISTANCE}. */
  public static final int RECLAIM_DISTANCE = 30;

  /** Mainline as of 2026-08 (the default). */
  public static final SchedDomainOptions MAINLINE = new SchedDomainOptions(false, -1, 30);

  /** Linux 7.1.5: {@link #MAINLINE} plus the child {@code SD_PREFER_SIBLING} clearing. */
  public static final SchedDomainOptions LINUX_7_1_5 = new SchedDomainOptions(true, -1, 30);

  /**
   * Validates the values.
   *
   * @throws IllegalArgumentException if {@code relaxDomainLevel < -1} or {@code nodeReclaimDistance
   *     < 10}
   */
  public SchedDomainOptions {
    if (relaxDomainLevel < -1) {
      throw new IllegalArgumentException(
          "relaxDomainLevel " + relaxDomainLevel + " must be -1 (off) or a level >= 0");
    }
    if (nodeReclaimDistance < 10) {
      throw new IllegalArgumentException(
          "nodeReclaimDistance " + nodeReclaimDistance + " must be at least 10 (LOCAL_DISTANCE)");
    }
  }

  /** {@link #MAINLINE}. */
  public static SchedDomainOptions defaults() {
    return MAINLINE;
  }

  /** A copy with another {@code relaxDomainLevel}. */
  public SchedDomainOptions withRelaxDomainLevel(int level) {
    return new SchedDomainOptions(
        clearChildPreferSiblingOnAsymCapacity, level, nodeReclaimDistance);
  }

  /** A copy with another {@code nodeReclaimDistance}. */
  public SchedDomainOptions withNodeReclaimDistance(int distance) {
    return new SchedDomainOptions(
        clearChildPreferSiblingOnAsymCapacity, relaxDomainLevel, distance);
  }

  /** A copy with the 7.1.5 child {@code SD_PREFER_SIBLING} rule on or off. */
  public SchedDomainOptions withClearChildPreferSiblingOnAsymCapacity(boolean clear) {
    return new SchedDomainOptions(clear, relaxDomainLevel, nodeReclaimDistance);
  }
}
