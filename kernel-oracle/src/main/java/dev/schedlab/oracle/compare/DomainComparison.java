package dev.schedlab.oracle.compare;

import dev.schedlab.oracle.kernel.DomainView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Every CPU's sched domains, guest kernel against simulator, field by field: the chain's length,
 * then per level its name, span, flags, groups (in list order, with balance masks) and the {@code
 * sd_init()} tunables. The guest's names are mapped by {@link SimulatorDomains#renameKernel} first.
 * A difference that a known rule of Linux 6.1 explains carries that rule and does not count against
 * {@link #matches()}.
 *
 * @param cpus CPUs compared (those either side knows)
 * @param domains domain levels compared, summed over CPUs
 * @param differences every field that differs
 */
public record DomainComparison(int cpus, int domains, List<Difference> differences) {

  /**
   * One field that differs.
   *
   * @param cpu the CPU
   * @param index its domain's index ({@code -1}: the chain as a whole)
   * @param field {@code levels}, {@code name}, {@code span}, {@code flags}, {@code groups} or a
   *     tunable's name
   * @param kernel the guest kernel's value
   * @param simulator the simulator's value
   * @param explanation the kernel rule that explains it, null when none does
   */
  public record Difference(
      int cpu, int index, String field, String kernel, String simulator, String explanation) {

    /** Whether a known kernel rule explains the difference. */
    public boolean explained() {
      return explanation != null;
    }

    @Override
    public String toString() {
      return "cpu"
          + cpu
          + (index >= 0 ? " domain" + index : "")
          + " "
          + field
          + ": kernel "
          + kernel
          + ", simulator "
          + simulator
          + (explanation != null ? " (explained: " + explanation + ")" : "");
    }
  }

  /**
   * Linux 6.1's {@code sd_init()} takes {@code sd_weight} (and so {@code min_interval} and {@code
   * max_interval}) from the whole topology level's mask; since 8e8e23dea43e it is the weight of the
   * span within the cpu map, which is what the simulator does. They differ only where isolated CPUs
   * ({@code isolcpus=domain}) leave the cpu map.
   */
  public static final String SD_WEIGHT_RULE =
      "6.1 sizes intervals by the whole topology level,"
          + " isolated CPUs included; 8e8e23dea43e sched/topology: Compute sd_weight considering"
          + " cpuset partitions (2026)";

  /** Compares the guest's renamed views with the simulator's, on a machine without isolation. */
  public static DomainComparison compare(
      Map<Integer, List<DomainView>> kernel, Map<Integer, List<DomainView>> simulator) {
    return compare(kernel, simulator, false);
  }

  /**
   * Compares the guest's renamed views with the simulator's.
   *
   * @param partialCpuMap whether isolated CPUs leave the cpu map ({@code isolcpus=domain})
   */
  public static DomainComparison compare(
      Map<Integer, List<DomainView>> kernel,
      Map<Integer, List<DomainView>> simulator,
      boolean partialCpuMap) {
    Set<Integer> cpus = new TreeSet<>(kernel.keySet());
    cpus.addAll(simulator.keySet());
    List<Difference> out = new ArrayList<>();
    int domains = 0;
    for (int cpu : cpus) {
      List<DomainView> k = kernel.getOrDefault(cpu, List.of());
      List<DomainView> s = simulator.getOrDefault(cpu, List.of());
      if (k.size() != s.size()) {
        out.add(new Difference(cpu, -1, "levels", names(k), names(s), null));
      }
      for (int i = 0; i < Math.min(k.size(), s.size()); i++) {
        domains++;
        compareOne(k.get(i), s.get(i), partialCpuMap, out);
      }
    }
    return new DomainComparison(cpus.size(), domains, List.copyOf(out));
  }

  private static void compareOne(
      DomainView k, DomainView s, boolean partialCpuMap, List<Difference> out) {
    field(k, "name", k.name(), s.name(), null, out);
    field(k, "span", k.span(), s.span(), null, out);
    if (!k.flags().equals(s.flags())) {
      SortedSet<String> onlyKernel = new TreeSet<>(k.flags());
      onlyKernel.removeAll(s.flags());
      SortedSet<String> onlySim = new TreeSet<>(s.flags());
      onlySim.removeAll(k.flags());
      out.add(
          new Difference(
              k.cpu(),
              k.index(),
              "flags",
              "+" + String.join("|", onlyKernel),
              "+" + String.join("|", onlySim),
              null));
    }
    if (!k.groups().isEmpty() || !s.groups().isEmpty()) {
      field(k, "groups", k.groups().toString(), s.groups().toString(), null, out);
    }
    Map<String, Integer> tunables = new LinkedHashMap<>(k.tunables());
    for (Map.Entry<String, Integer> t : tunables.entrySet()) {
      Integer theirs = s.tunables().get(t.getKey());
      if (theirs != null) {
        boolean interval = t.getKey().endsWith("_interval");
        String why = interval && partialCpuMap && t.getValue() > theirs ? SD_WEIGHT_RULE : null;
        field(k, t.getKey(), t.getValue().toString(), theirs.toString(), why, out);
      }
    }
  }

  private static void field(
      DomainView k,
      String field,
      String kernel,
      String simulator,
      String explanation,
      List<Difference> out) {
    if (!kernel.equals(simulator)) {
      out.add(new Difference(k.cpu(), k.index(), field, kernel, simulator, explanation));
    }
  }

  private static String names(List<DomainView> chain) {
    return chain.isEmpty()
        ? "(none)"
        : String.join(",", chain.stream().map(DomainView::name).toList());
  }

  /** Whether every field agrees or differs only as a known 6.1 rule explains. */
  public boolean matches() {
    return differences.stream().allMatch(Difference::explained);
  }

  /** The differences no known rule explains. */
  public List<Difference> unexplained() {
    return differences.stream().filter(d -> !d.explained()).toList();
  }

  /** The differences grouped by field, each with its count and first example. */
  public Map<String, List<Difference>> byField() {
    Map<String, List<Difference>> out = new LinkedHashMap<>();
    for (Difference d : differences) {
      out.computeIfAbsent(d.field(), f -> new ArrayList<>()).add(d);
    }
    return out;
  }
}
