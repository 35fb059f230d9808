package dev.schedlab.topology.domain;

import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The sched domains of every CPU of a machine, with the per-CPU shortcuts the fair class uses
 * ({@code sd_llc}, {@code sd_llc_size}, {@code sd_llc_id}, {@code sd_share_id}, {@code sd_numa},
 * {@code sd_asym_cpucapacity}). Immutable and thread-safe.
 *
 * <p>Built as {@code build_sched_domains()} in {@code kernel/sched/topology.c} builds them for the
 * CPUs that are online and in the {@code HK_TYPE_DOMAIN} housekeeping mask (the "cpu map"; CPUs of
 * {@code isolcpus=domain} and offline CPUs get no domains), from this topology table, bottom-up:
 *
 * <ul>
 *   <li>{@code SMT} (only when some core has several threads, as on x86): the SMT siblings, flags
 *       {@code SD_SHARE_CPUCAPACITY|SD_SHARE_LLC};
 *   <li>{@code CLS}: the cluster (a core of its own when the machine has no clusters), flags {@code
 *       SD_CLUSTER|SD_SHARE_LLC};
 *   <li>{@code MC}: the LLC, cut at the node, flags {@code SD_SHARE_LLC};
 *   <li>{@code PKG}: the CPU's NUMA node (7.1's {@code cpu_node_mask()}), no flags;
 *   <li>{@code NODE}, then one {@code NUMA} level per further distinct distance between nodes with
 *       online CPUs ({@code sched_init_numa()}): the CPUs of all nodes within that distance; NUMA
 *       levels have flags {@code SD_NUMA} and overlapping groups.
 * </ul>
 *
 * A CPU's chain stops at the first level spanning the whole cpu map; then {@code
 * cpu_attach_domain()} removes degenerate levels, so e.g. a machine without SMT keeps no SMT or CLS
 * domain, and an LLC that fills its node makes PKG and NODE vanish.
 */
public final class SchedDomains {

  /**
   * {@link #llcId(int)} of a CPU that has no {@code sd_llc} (isolated, offline, or no LLC level).
   */
  public static final int NO_LLC = -1;

  private final Topology topology;
  private final SchedDomainOptions options;
  private final ImmutableCpuMask cpuMap;
  private final List<List<SchedDomain>> domains;
  private final SchedDomain[] sdLlc;
  private final SchedDomain[] sdNuma;
  private final SchedDomain[] sdAsymCpuCapacity;
  private final int[] llcId;
  private final int[] shareId;
  private final int llcCount;
  private final int[] numaDistances;
  private final List<String> levelNames;
  private final int capacitySlotCount;
  private final boolean asymCpuCapacity;
  private final boolean clusterActive;

  private record GroupKey(int tl, ImmutableCpuMask span, ImmutableCpuMask balance, int flags) {}

  private record SlotKey(int tl, int cpu) {}

  private SchedDomains(DomainBuild build) {
    this.topology = build.topology;
    this.options = build.options;
    this.cpuMap = build.cpuMap;
    this.numaDistances = build.numaDistances;
    this.asymCpuCapacity = build.hasAsymCapacity;
    int nr = build.nrCpuIds;

    Map<GroupKey, SchedGroup> groupObjects = new HashMap<>();
    Map<SlotKey, Integer> slots = new HashMap<>();
    Map<List<DomainBuild.GroupDraft>, SchedGroup[]> sharedArrays = new IdentityHashMap<>();
    Map<List<SchedGroup>, List<SchedGroup>> sharedLists = new HashMap<>();
    List<List<SchedDomain>> all = new ArrayList<>(nr);
    for (int cpu = 0; cpu < nr; cpu++) {
      List<DomainBuild.Draft> chain = build.attached.get(cpu);
      SchedDomain[] domainsOfCpu = new SchedDomain[chain.size()];
      for (int index = 0; index < chain.size(); index++) {
        DomainBuild.Draft sd = chain.get(index);
        List<SchedGroup> groups;
        if (sd.level.overlap()) {
          SchedGroup[] objects = new SchedGroup[sd.groups.size()];
          for (int g = 0; g < objects.length; g++) {
            objects[g] = group(build, sd.groups.get(g), sd.tl, groupObjects, slots);
          }
          List<SchedGroup> list = List.of(objects);
          groups = sharedLists.computeIfAbsent(list, l -> l);
        } else {
          SchedGroup[] objects =
              sharedArrays.computeIfAbsent(
                  sd.groups,
                  drafts ->
                      drafts.stream()
                          .map(d -> group(build, d, sd.tl, groupObjects, slots))
                          .toArray(SchedGroup[]::new));
          groups = DomainBuild.orderedGroups(sd, objects, nr);
        }
        domainsOfCpu[index] =
            new SchedDomain(
                cpu,
                index,
                sd.buildLevel,
                sd.level.kind(),
                sd.span,
                sd.flags,
                sd.imbalancePct,
                sd.sdWeight,
                sd.cacheNiceTries,
                sd.level.numaLevel(),
                sd.level.distance(),
                sd.imbNumaNr,
                sd.level.overlap(),
                groups,
                domainsOfCpu);
      }
      all.add(List.of(domainsOfCpu));
    }
    this.domains = List.copyOf(all);
    this.capacitySlotCount = slots.size();

    this.sdLlc = new SchedDomain[nr];
    this.sdNuma = new SchedDomain[nr];
    this.sdAsymCpuCapacity = new SchedDomain[nr];
    this.llcId = new int[nr];
    this.shareId = new int[nr];
    Map<Integer, Integer> llcOfFirstCpu = new HashMap<>();
    boolean cluster = false;
    int deepest = -1;
    for (int cpu = 0; cpu < nr; cpu++) {
      sdLlc[cpu] = highestFlagDomain(cpu, SdFlags.SD_SHARE_LLC);
      sdNuma[cpu] = lowestFlagDomain(cpu, SdFlags.SD_NUMA);
      sdAsymCpuCapacity[cpu] = lowestFlagDomain(cpu, SdFlags.SD_ASYM_CPUCAPACITY_FULL);
      llcId[cpu] =
          sdLlc[cpu] == null
              ? NO_LLC
              : llcOfFirstCpu.computeIfAbsent(
                  sdLlc[cpu].span().first(), first -> llcOfFirstCpu.size());
      SchedDomain clusterDomain = lowestFlagDomain(cpu, SdFlags.SD_CLUSTER);
      cluster |= clusterDomain != null;
      shareId[cpu] =
          clusterDomain != null
              ? clusterDomain.span().first()
              : sdLlc[cpu] != null ? sdLlc[cpu].span().first() : cpu;
      if (deepest < 0 || domains.get(cpu).size() > domains.get(deepest).size()) {
        deepest = cpu;
      }
    }
    this.llcCount = llcOfFirstCpu.size();
    this.clusterActive = cluster;
    this.levelNames =
        deepest < 0 ? List.of() : domains.get(deepest).stream().map(SchedDomain::name).toList();
  }

  private static SchedGroup group(
      DomainBuild build,
      DomainBuild.GroupDraft draft,
      int tl,
      Map<GroupKey, SchedGroup> groupObjects,
      Map<SlotKey, Integer> slots) {
    int flags = build.groupFlags(draft, tl);
    return groupObjects.computeIfAbsent(
        new GroupKey(tl, draft.span(), draft.balanceMask(), flags),
        key -> {
          int slot =
              slots.computeIfAbsent(
                  new SlotKey(draft.sgcLevel(), draft.sgcCpu()), k -> slots.size());
          return new SchedGroup(
              draft.span(), draft.balanceMask(), flags, build.coresOf(draft.span()), slot);
        });
  }

  /** Builds the mainline (2026-08) domains of {@code topology}. */
  public static SchedDomains build(Topology topology) {
    return build(topology, SchedDomainOptions.defaults());
  }

  /**
   * Builds the domains of {@code topology} with the given options.
   *
   * @throws IllegalArgumentException if a non-overlapping level's masks overlap partially (the
   *     kernel's {@code topology_span_sane()} would refuse to build)
   */
  public static SchedDomains build(Topology topology, SchedDomainOptions options) {
    Objects.requireNonNull(topology, "topology");
    Objects.requireNonNull(options, "options");
    DomainBuild build = new DomainBuild(topology, options);
    build.run();
    return new SchedDomains(build);
  }

  /** The machine these domains were built for. */
  public Topology topology() {
    return topology;
  }

  /** The options used. */
  public SchedDomainOptions options() {
    return options;
  }

  /** The CPUs that have domains: online and in the {@code HK_TYPE_DOMAIN} housekeeping mask. */
  public ImmutableCpuMask cpuMap() {
    return cpuMap;
  }

  /**
   * The CPU's domains bottom-up ({@code for_each_domain(cpu, sd)}); empty for a CPU without domains
   * (isolated, offline or not possible). Unmodifiable.
   *
   * @throws IllegalArgumentException for a CPU outside {@code [0, nrCpuIds)}
   */
  public List<SchedDomain> domains(int cpu) {
    checkCpu(cpu);
    return domains.get(cpu);
  }

  /** {@code rq->sd}: the CPU's lowest domain, or null. */
  public SchedDomain baseDomain(int cpu) {
    List<SchedDomain> chain = domains(cpu);
    return chain.isEmpty() ? null : chain.get(0);
  }

  /**
   * Equivalent of {@code lowest_flag_domain(cpu, flag)}: the lowest domain having any bit of {@code
   * flag}, or null.
   */
  public SchedDomain lowestFlagDomain(int cpu, int flag) {
    for (SchedDomain sd : domains(cpu)) {
      if ((sd.flags() & flag) != 0) {
        return sd;
      }
    }
    return null;
  }

  /**
   * Equivalent of {@code highest_flag_domain(cpu, flag)}: the highest domain having {@code flag};
   * for a flag that children share ({@code SDF_SHARED_CHILD}) the walk stops at the first domain
   * without it. Null if none.
   */
  public SchedDomain highestFlagDomain(int cpu, int flag) {
    SchedDomain highest = null;
    for (SchedDomain sd : domains(cpu)) {
      if ((sd.flags() & flag) != 0) {
        highest = sd;
      } else if ((flag & SdFlags.SD_SHARED_CHILD_MASK) != 0) {
        break;
      }
    }
    return highest;
  }

  /** {@code sd_llc}: the highest {@code SD_SHARE_LLC} domain of the CPU, or null. */
  public SchedDomain sdLlc(int cpu) {
    checkCpu(cpu);
    return sdLlc[cpu];
  }

  /** {@code sd_llc_size}: the weight of {@link #sdLlc}, 1 without one. */
  public int llcSize(int cpu) {
    SchedDomain llc = sdLlc(cpu);
    return llc == null ? 1 : llc.spanWeight();
  }

  /**
   * The [ML] logical {@code sd_llc_id}: a dense index, in order of each LLC's lowest CPU, equal for
   * CPUs with the same {@code sd_llc} span; the slot of the LLC's {@code struct
   * sched_domain_shared} ({@code nr_busy_cpus}, {@code has_idle_cores}, {@code nr_idle_scan}).
   * {@link #NO_LLC} for a CPU without {@code sd_llc}.
   */
  public int llcId(int cpu) {
    checkCpu(cpu);
    return llcId[cpu];
  }

  /** Number of distinct {@link #llcId} values (per-LLC shared-state slots). */
  public int llcCount() {
    return llcCount;
  }

  /** Equivalent of {@code cpus_share_cache(a, b)}: the same CPU, or the same {@code sd_llc_id}. */
  public boolean cpusShareCache(int cpuA, int cpuB) {
    return cpuA == cpuB || (llcId(cpuA) != NO_LLC && llcId(cpuA) == llcId(cpuB));
  }

  /**
   * {@code sd_share_id}: first CPU of the lowest {@code SD_CLUSTER} domain, else of {@code sd_llc},
   * else the CPU itself.
   */
  public int shareId(int cpu) {
    checkCpu(cpu);
    return shareId[cpu];
  }

  /**
   * Equivalent of {@code cpus_share_resources(a, b)}: the same CPU or the same {@link #shareId}.
   */
  public boolean cpusShareResources(int cpuA, int cpuB) {
    return cpuA == cpuB || shareId(cpuA) == shareId(cpuB);
  }

  /** {@code sd_numa}: the lowest {@code SD_NUMA} domain of the CPU, or null. */
  public SchedDomain sdNuma(int cpu) {
    checkCpu(cpu);
    return sdNuma[cpu];
  }

  /** {@code sd_asym_cpucapacity}: the lowest {@code SD_ASYM_CPUCAPACITY_FULL} domain, or null. */
  public SchedDomain sdAsymCpuCapacity(int cpu) {
    checkCpu(cpu);
    return sdAsymCpuCapacity[cpu];
  }

  /** The {@code sched_asym_cpucapacity} static key: some domain has {@code SD_ASYM_CPUCAPACITY}. */
  public boolean hasAsymCpuCapacity() {
    return asymCpuCapacity;
  }

  /** The {@code sched_cluster_active} static key: some CPU has an {@code SD_CLUSTER} domain. */
  public boolean hasClusterDomains() {
    return clusterActive;
  }

  /**
   * The sorted distinct distances between nodes with online CPUs ({@code
   * sched_domains_numa_distance}); index {@code i} is NUMA level {@code i}. A fresh copy.
   */
  public int[] numaDistances() {
    return numaDistances.clone();
  }

  /** The level names of the CPU with the most domains (the lowest such CPU), bottom-up. */
  public List<String> levelNames() {
    return levelNames;
  }

  /** The largest number of domains any CPU has. */
  public int maxLevels() {
    return levelNames.size();
  }

  /** Number of distinct {@link SchedGroup#capacitySlot()} values. */
  public int capacitySlotCount() {
    return capacitySlotCount;
  }

  /**
   * A summary for people: per domain index, each distinct kind of domain with its flags and
   * defaults, and the distinct spans (abridged) with their group counts.
   */
  public String describe() {
    StringBuilder out = new StringBuilder();
    out.append("sched domains of ")
        .append(topology.name())
        .append(": cpu_map ")
        .append(cpuMap.toCpuList())
        .append(" (")
        .append(cpuMap.weight())
        .append(" CPUs), levels ")
        .append(String.join(" ", levelNames))
        .append('\n');
    for (int index = 0; index < maxLevels(); index++) {
      Map<String, Map<String, String>> spansBySignature = new LinkedHashMap<>();
      for (List<SchedDomain> chain : domains) {
        if (chain.size() > index) {
          SchedDomain sd = chain.get(index);
          String signature =
              "domain"
                  + index
                  + " "
                  + sd.name()
                  + (sd.numaLevel() >= 0 ? " (distance " + sd.distance() + ")" : "")
                  + " flags="
                  + SdFlags.describe(sd.flags())
                  + " imbalance_pct="
                  + sd.imbalancePct()
                  + " cache_nice_tries="
                  + sd.cacheNiceTries()
                  + " busy_factor="
                  + sd.busyFactor()
                  + " interval="
                  + sd.minIntervalMs()
                  + ".."
                  + sd.maxIntervalMs()
                  + "ms"
                  + (sd.imbNumaNr() > 0 ? " imb_numa_nr=" + sd.imbNumaNr() : "");
          spansBySignature
              .computeIfAbsent(signature, s -> new LinkedHashMap<>())
              .putIfAbsent(sd.span().toCpuList(), sd.nrGroups() + " groups");
        }
      }
      for (Map.Entry<String, Map<String, String>> entry : spansBySignature.entrySet()) {
        out.append(entry.getKey()).append('\n');
        int shown = 0;
        for (Map.Entry<String, String> span : entry.getValue().entrySet()) {
          if (shown++ == 8) {
            out.append("  ... ").append(entry.getValue().size() - 8).append(" more spans\n");
            break;
          }
          out.append("  span ")
              .append(span.getKey())
              .append(": ")
              .append(span.getValue())
              .append('\n');
        }
      }
    }
    return out.toString();
  }

  /**
   * One CPU's domains and groups in detail, in the spirit of the kernel's {@code
   * sched_domain_debug()} output.
   */
  public String describe(int cpu) {
    StringBuilder out = new StringBuilder();
    List<SchedDomain> chain = domains(cpu);
    if (chain.isEmpty()) {
      return "CPU " + cpu + ": no sched domains\n";
    }
    out.append("CPU ").append(cpu).append(":\n");
    for (SchedDomain sd : chain) {
      out.append("  domain")
          .append(sd.level())
          .append(' ')
          .append(sd.name())
          .append(" span=")
          .append(sd.span().toCpuList())
          .append(" flags=")
          .append(SdFlags.describe(sd.flags()))
          .append(" imbalance_pct=")
          .append(sd.imbalancePct())
          .append(" interval=")
          .append(sd.minIntervalMs())
          .append("..")
          .append(sd.maxIntervalMs())
          .append("ms\n    groups:");
      for (SchedGroup group : sd.groups()) {
        out.append(' ').append(group);
      }
      out.append('\n');
    }
    return out.toString();
  }

  private void checkCpu(int cpu) {
    if (cpu < 0 || cpu >= domains.size()) {
      throw new IllegalArgumentException(
          "CPU "
              + cpu
              + " outside [0, "
              + domains.size()
              + ") of topology '"
              + topology.name()
              + "'");
    }
  }

  @Override
  public String toString() {
    return "SchedDomains["
        + topology.name()
        + ": "
        + String.join(" ", levelNames)
        + ", cpu_map "
        + cpuMap.toCpuList()
        + "]";
  }
}
