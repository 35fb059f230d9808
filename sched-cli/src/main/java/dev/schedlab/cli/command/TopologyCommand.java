package dev.schedlab.cli.command;

import dev.schedlab.cli.args.TopologySource;
import dev.schedlab.cli.report.Json;
import dev.schedlab.cli.report.TextTable;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.topology.HousekeepingType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code schedlab topology}: a machine's counts and its sched domains, level by level, the way
 * {@code lstopo} and the kernel's {@code sched_domain_debug()} show them. Each level is shown for
 * one CPU (CPU 0, or the first CPU having that level) with its flags, {@code imbalance_pct},
 * intervals and groups, followed by the distinct spans of that level over all CPUs.
 */
@Command(
    name = "topology",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Show a machine's counts and sched domains (spans, flags, groups).")
public final class TopologyCommand implements Callable<Integer> {

  /** Spans and groups listed in text before the rest is abridged. */
  private static final int SHOWN = 8;

  private final Cli cli;

  @Mixin TopologySource source;

  @Option(
      names = "--format",
      paramLabel = "text|json",
      description = "output format (default text)")
  TextOrJson format = TextOrJson.text;

  public TopologyCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    Topology topology = source.topology(cli::registry);
    SchedDomains domains = SchedDomains.build(topology);
    List<Level> levels = levels(domains);
    if (format == TextOrJson.json) {
      cli.out().print(Json.pretty(json(source.label(), topology, domains, levels)));
    } else {
      text(cli.out(), source.label(), topology, domains, levels);
    }
    return 0;
  }

  /**
   * One topology level as built for every CPU: the kernel's {@code sd->level} before degenerate
   * levels were removed, so a level keeps its identity on CPUs whose chains differ (hybrid parts).
   *
   * @param shown the domain described in detail
   * @param cpus the CPUs that have this level
   * @param spans the distinct spans of the level, in order of first CPU
   */
  record Level(SchedDomain shown, ImmutableCpuMask cpus, List<ImmutableCpuMask> spans) {}

  /**
   * What the machine has online, as {@code lstopo} counts it: packages, NUMA nodes, LLCs and cores
   * that hold at least one online CPU, and the most online threads of any core. {@link Topology}'s
   * own counts also cover possible-but-offline CPUs (the kernel allocates their structures too:
   * POWER9 {@code coral-lassen} has 16 disallowed PUs, which would otherwise read as 16 extra
   * one-thread cores).
   */
  record OnlineCounts(int packages, int nodes, int llcs, int cores, int cpus, int smt) {

    static OnlineCounts of(Topology t) {
      Set<Integer> packages = new HashSet<>();
      Set<Integer> nodes = new HashSet<>();
      Set<Integer> llcs = new HashSet<>();
      Map<Integer, Integer> threads = new HashMap<>();
      CpuMask online = t.onlineMask();
      for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
        packages.add(t.packageId(cpu));
        nodes.add(t.nodeOf(cpu));
        llcs.add(t.llcId(cpu));
        threads.merge(t.coreId(cpu), 1, Integer::sum);
      }
      int smt = threads.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      return new OnlineCounts(
          packages.size(), nodes.size(), llcs.size(), threads.size(), t.cpuCount(), smt);
    }
  }

  static List<Level> levels(SchedDomains domains) {
    Topology topology = domains.topology();
    Map<Integer, List<SchedDomain>> byBuildLevel = new TreeMap<>();
    CpuMask cpuMap = domains.cpuMap();
    for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
      for (SchedDomain sd : domains.domains(cpu)) {
        byBuildLevel.computeIfAbsent(sd.buildLevel(), k -> new ArrayList<>()).add(sd);
      }
    }
    List<Level> levels = new ArrayList<>();
    for (List<SchedDomain> sds : byBuildLevel.values()) {
      var cpus = dev.schedlab.cpumask.CpuMasks.mutable(topology.nrCpuIds());
      Set<ImmutableCpuMask> spans = new LinkedHashSet<>();
      for (SchedDomain sd : sds) {
        cpus.set(sd.cpu());
        spans.add(sd.span());
      }
      // CPU 0 when it has the level: the CPU people compare with /proc/schedstat first.
      levels.add(new Level(sds.get(0), cpus.toImmutable(), List.copyOf(spans)));
    }
    return levels;
  }

  /** {@code 1 package}, {@code 2 packages}. */
  static String count(int n, String noun) {
    return TextTable.count(n, noun);
  }

  private static void text(
      PrintStream out, String label, Topology t, SchedDomains domains, List<Level> levels) {
    out.println("topology " + t.name() + (label.equals(t.name()) ? "" : " (" + label + ")"));
    OnlineCounts n = OnlineCounts.of(t);
    out.printf(
        Locale.ROOT,
        "  %s, %s, %s, %s, %s, SMT%d%s%n",
        count(n.packages(), "package"),
        count(n.nodes(), "NUMA node"),
        count(n.llcs(), "LLC"),
        count(n.cores(), "core"),
        count(n.cpus(), "CPU"),
        n.smt(),
        t.isAsymmetricCapacity() ? ", asymmetric capacity" : "");
    out.println("  CPUs " + t.onlineMask().toCpuList() + " online of nr_cpu_ids " + t.nrCpuIds());
    for (int node : t.nodes()) {
      out.println("  node " + node + ": CPUs " + t.nodeMask(node).toCpuList());
    }
    String boot = t.housekeeping().toBootArgs();
    out.println(
        "  isolation: "
            + (boot.isEmpty()
                ? "none"
                : boot
                    + "; ILB/tick housekeeping "
                    + t.housekeeping().mask(HousekeepingType.KERNEL_NOISE).toCpuList()));
    out.println();
    out.println(
        "sched domains: cpu_map "
            + domains.cpuMap().toCpuList()
            + ", levels "
            + String.join(" ", domains.levelNames()));
    for (Level level : levels) {
      SchedDomain sd = level.shown();
      out.printf(
          Locale.ROOT,
          "%n%-4s (CPU %d: domain%d) span %s (%s)%n",
          sd.name(),
          sd.cpu(),
          sd.level(),
          sd.span().toCpuList(),
          count(sd.spanWeight(), "CPU"));
      out.println("     flags " + SdFlags.describe(sd.flags()));
      out.printf(
          Locale.ROOT,
          "     imbalance_pct %d, interval %d..%d ms, busy_factor %d, cache_nice_tries %d%s%n",
          sd.imbalancePct(),
          sd.minIntervalMs(),
          sd.maxIntervalMs(),
          sd.busyFactor(),
          sd.cacheNiceTries(),
          sd.numaLevel() >= 0 ? ", distance " + sd.distance() : "");
      List<String> groups = new ArrayList<>();
      for (SchedGroup g : sd.groups()) {
        groups.add(g.toString());
      }
      out.println("     groups (" + groups.size() + "): " + abridge(groups));
      List<String> spans = new ArrayList<>();
      for (ImmutableCpuMask span : level.spans()) {
        spans.add(span.toCpuList());
      }
      String on =
          level.cpus().contentEquals(domains.cpuMap())
              ? ""
              : " on CPUs " + level.cpus().toCpuList();
      out.println(
          "     "
              + spans.size()
              + " distinct span"
              + (spans.size() == 1 ? "" : "s")
              + on
              + ": "
              + abridge(spans));
    }
  }

  private static String abridge(List<String> items) {
    if (items.size() <= SHOWN) {
      return String.join(" | ", items);
    }
    return String.join(" | ", items.subList(0, SHOWN))
        + " | ... "
        + (items.size() - SHOWN)
        + " more";
  }

  private static Map<String, Object> json(
      String label, Topology t, SchedDomains domains, List<Level> levels) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("name", t.name());
    root.put("source", label);
    OnlineCounts n = OnlineCounts.of(t);
    root.put("packages", n.packages());
    root.put("numa_nodes", n.nodes());
    root.put("llcs", n.llcs());
    root.put("cores", n.cores());
    root.put("cpus", n.cpus());
    root.put("smt", n.smt());
    root.put("nr_cpu_ids", t.nrCpuIds());
    root.put("online", t.onlineMask().toCpuList());
    root.put("asymmetric_capacity", t.isAsymmetricCapacity());
    Map<String, Object> nodes = new LinkedHashMap<>();
    for (int node : t.nodes()) {
      nodes.put(Integer.toString(node), t.nodeMask(node).toCpuList());
    }
    root.put("nodes", nodes);
    root.put("isolation", t.housekeeping().toBootArgs());
    root.put("housekeeping", t.housekeeping().mask(HousekeepingType.KERNEL_NOISE).toCpuList());
    root.put("cpu_map", domains.cpuMap().toCpuList());
    List<Object> list = new ArrayList<>();
    for (Level level : levels) {
      SchedDomain sd = level.shown();
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("name", sd.name());
      item.put("cpu", sd.cpu());
      item.put("level", sd.level());
      item.put("span", sd.span().toCpuList());
      item.put("span_weight", sd.spanWeight());
      item.put("flags", SdFlags.describe(sd.flags()));
      item.put("imbalance_pct", sd.imbalancePct());
      item.put("min_interval_ms", sd.minIntervalMs());
      item.put("max_interval_ms", sd.maxIntervalMs());
      item.put("busy_factor", sd.busyFactor());
      item.put("cache_nice_tries", sd.cacheNiceTries());
      if (sd.numaLevel() >= 0) {
        item.put("distance", sd.distance());
      }
      List<String> groups = new ArrayList<>();
      for (SchedGroup g : sd.groups()) {
        groups.add(g.span().toCpuList());
      }
      item.put("groups", groups);
      item.put("cpus", level.cpus().toCpuList());
      List<String> spans = new ArrayList<>();
      for (ImmutableCpuMask span : level.spans()) {
        spans.add(span.toCpuList());
      }
      item.put("spans", spans);
      list.add(item);
    }
    root.put("domains", list);
    return root;
  }
}
