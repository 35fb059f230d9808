package dev.schedlab.policies.fair.ilb;

import java.util.Locale;

/**
 * Which SMT-sibling pruning the idle-core ILB walk does, by revision of the series "sched/fair:
 * Prefer fully idle cores for NOHZ balancing" (seeds-digest §1, review history). Pruning removes
 * CPUs that cannot be chosen (their core is not fully idle and a fallback already exists), so every
 * revision chooses the same CPU; later revisions only examine fewer CPUs.
 */
public enum IlbPruning {

  /**
   * Prune the siblings of an idle CPU whose core is partially busy; keep the explicit {@code cpu ==
   * this_cpu} skip.
   */
  V2(false, true),

  /** As {@link #V2}, and also prune a busy CPU's siblings once a fallback exists. */
  V3(true, true),

  /**
   * As {@link #V3} without the explicit kicker skip (the kicker is busy, so the idle test rejects
   * it); the revision merged into tip/sched/core as 293f9611ae73 for Linux 7.3.
   */
  V4(true, false);

  private final boolean prunesBusyCpuSiblings;
  private final boolean skipsKicker;

  IlbPruning(boolean prunesBusyCpuSiblings, boolean skipsKicker) {
    this.prunesBusyCpuSiblings = prunesBusyCpuSiblings;
    this.skipsKicker = skipsKicker;
  }

  /** Whether a busy CPU's SMT siblings leave the candidates once a fallback exists. */
  public boolean prunesBusyCpuSiblings() {
    return prunesBusyCpuSiblings;
  }

  /** Whether the walk skips the kicking CPU by number before testing it. */
  public boolean skipsKicker() {
    return skipsKicker;
  }

  /** The parameter word: {@code v2}, {@code v3} or {@code v4}. */
  public String parameterValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The revision named by a parameter word.
   *
   * @throws IllegalArgumentException naming the allowed words
   */
  public static IlbPruning fromParameter(String value) {
    for (IlbPruning pruning : values()) {
      if (pruning.parameterValue().equals(value)) {
        return pruning;
      }
    }
    throw new IllegalArgumentException("pruning=" + value + " is not valid: allowed v2|v3|v4");
  }
}
