package dev.schedlab.oracle.kernel;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * One sched domain of one CPU as both sides of the comparison describe it, in common names: the
 * level's name, its span, its flags by name, its groups in the order the domain's group list visits
 * them, and the tunables {@code sd_init()} sets.
 *
 * @param cpu the CPU
 * @param index the domain's place in the CPU's chain after degenerate levels are removed (the
 *     {@code domainN} of debugfs and {@code /proc/schedstat})
 * @param name the level name ({@code SMT}, {@code MC}, {@code PKG}, {@code NODE}, {@code NUMA})
 * @param span the span as a CPU list
 * @param flags the flag names
 * @param groups the groups, starting with the CPU's own
 * @param tunables {@code min_interval}, {@code max_interval}, {@code busy_factor}, {@code
 *     imbalance_pct}, {@code cache_nice_tries} where known
 */
public record DomainView(
    int cpu,
    int index,
    String name,
    String span,
    SortedSet<String> flags,
    List<GroupView> groups,
    Map<String, Integer> tunables) {

  /**
   * A sched group: its span and, for overlapping NUMA groups, its balance mask (the CPUs that
   * balance on its behalf, {@code group_balance_mask()}).
   *
   * @param span the group's CPUs
   * @param balanceMask the balance mask, equal to the span outside overlapping levels
   */
  public record GroupView(String span, String balanceMask) {

    @Override
    public String toString() {
      return balanceMask.equals(span)
          ? "{" + span + "}"
          : "{" + span + " mask=" + balanceMask + "}";
    }
  }
}
