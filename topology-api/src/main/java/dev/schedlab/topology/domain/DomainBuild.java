package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.SdFlags.SD_ASYM_CPUCAPACITY;
import static dev.schedlab.topology.domain.SdFlags.SD_ASYM_CPUCAPACITY_FULL;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_EXEC;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_FORK;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_NEWIDLE;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_WAKE;
import static dev.schedlab.topology.domain.SdFlags.SD_CLUSTER;
import static dev.schedlab.topology.domain.SdFlags.SD_NUMA;
import static dev.schedlab.topology.domain.SdFlags.SD_PREFER_SIBLING;
import static dev.schedlab.topology.domain.SdFlags.SD_SERIALIZE;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_CPUCAPACITY;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_LLC;
import static dev.schedlab.topology.domain.SdFlags.SD_WAKE_AFFINE;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.topology.HousekeepingType;
import dev.schedlab.topology.Topology;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.TreeMap;

/**
 * One run of the sched-domain construction: models {@code sched_init_numa()}, {@code
 * asym_cpu_capacity_scan()}, {@code build_sched_domains()} (with {@code sd_init()}, {@code
 * build_sched_domain()}, {@code build_sched_groups()}, {@code build_overlap_sched_groups()}, {@code
 * init_sched_groups_capacity()} and the {@code imb_numa_nr} pass) and {@code cpu_attach_domain()}
 * in {@code kernel/sched/topology.c}. Used once by {@link SchedDomains}.
 */
final class DomainBuild {

  private static final int SD_INIT_FLAGS =
      SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_PREFER_SIBLING;

  /** A row of the topology table: {@code struct sched_domain_topology_level}. */
  record TopologyLevel(
      SchedDomainLevel kind,
      int topologyFlags,
      int numaLevel,
      int distance,
      boolean overlap,
      CpuMask[] maskOfCpu) {}

  /** A group as built, before its flags are known. */
  record GroupDraft(
      ImmutableCpuMask span, ImmutableCpuMask balanceMask, int sgcLevel, int sgcCpu) {}

  /** A domain under construction: the mutable {@code struct sched_domain} of one CPU and level. */
  static final class Draft {
    final int cpu;
    final int tl;
    final TopologyLevel level;
    ImmutableCpuMask span;
    int sdWeight;
    int flags;
    int buildLevel;
    int imbalancePct = 117;
    int cacheNiceTries;
    int imbNumaNr;
    Draft child;
    Draft parent;

    /** Non-overlapping levels: the shared groups sorted by first CPU; overlap: this CPU's order. */
    List<GroupDraft> groups;

    /** Non-overlapping levels only: the shared groups. */
    SharedGroups shared;

    Draft(int cpu, int tl, TopologyLevel level) {
      this.cpu = cpu;
      this.tl = tl;
      this.level = level;
    }
  }

  final Topology topology;
  final SchedDomainOptions options;
  final int nrCpuIds;
  final ImmutableCpuMask cpuMap;
  final int[] numaDistances;
  final List<TopologyLevel> levels = new ArrayList<>();

  /** {@code byLevel[cpu][tl]}: the CPU's domain at topology level {@code tl}, null if not built. */
  final Draft[][] byLevel;

  /** Each CPU's chain after {@code cpu_attach_domain()}, bottom-up; empty outside the cpu map. */
  final List<List<Draft>> attached = new ArrayList<>();

  boolean hasAsymCapacity;

  private final Map<ImmutableCpuMask, ImmutableCpuMask> interned = new HashMap<>();
  private final List<ImmutableCpuMask> capacitySpans = new ArrayList<>();
  private final Map<LevelSpan, SharedGroups> sharedGroups = new HashMap<>();
  private final Map<LevelSpan, ImmutableCpuMask> balanceMasks = new HashMap<>();

  private record LevelSpan(int tl, ImmutableCpuMask span) {}

  /**
   * The groups of a non-overlapping domain span, shared by every CPU of the span as the kernel
   * shares them: sorted by first CPU, with whether every CPU's wrap-around order is a rotation.
   */
  static final class SharedGroups {
    final List<GroupDraft> drafts;
    final int[] firsts;
    final boolean rotates;

    SharedGroups(List<GroupDraft> drafts) {
      this.drafts = drafts;
      this.firsts = drafts.stream().mapToInt(g -> g.span().first()).toArray();
      this.rotates = rotationMatchesWrap(drafts);
    }
  }

  DomainBuild(Topology topology, SchedDomainOptions options) {
    this.topology = topology;
    this.options = options;
    this.nrCpuIds = topology.nrCpuIds();
    MutableCpuMask map = CpuMasks.mutable(nrCpuIds);
    map.and(topology.onlineMask(), topology.housekeeping().mask(HousekeepingType.DOMAIN));
    this.cpuMap = map.toImmutable();
    this.byLevel = new Draft[nrCpuIds][];
    this.numaDistances = initNuma();
    scanCapacities();
  }

  void run() {
    checkSpansSane();
    for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
      buildDomains(cpu);
    }
    for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
      for (Draft sd : byLevel[cpu]) {
        if (sd != null && sd.level.overlap()) {
          sd.groups = buildOverlapGroups(sd);
        } else if (sd != null) {
          sd.shared = buildGroups(sd);
          sd.groups = sd.shared.drafts;
        }
      }
    }
    for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
      adjustNumaImbalance(cpu);
    }
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      attached.add(cpuMap.test(cpu) ? attach(cpu) : List.of());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The topology table

  /**
   * Builds the table: the default levels, then NODE and one NUMA level per further distance. Models
   * {@code default_topology[]} and {@code sched_init_numa()}; returns the sorted distinct distances
   * between nodes that have online CPUs ({@code N_CPU}).
   */
  private int[] initNuma() {
    CpuMask online = topology.onlineMask();
    TreeMap<Integer, ImmutableCpuMask> onlineOfNode = new TreeMap<>();
    for (int node : topology.nodes()) {
      MutableCpuMask cpus = CpuMasks.mutable(nrCpuIds);
      if (cpus.and(topology.nodeMask(node), online)) {
        onlineOfNode.put(node, cpus.toImmutable());
      }
    }
    int[] distances =
        onlineOfNode.keySet().stream()
            .flatMap(a -> onlineOfNode.keySet().stream().map(b -> topology.schedDistance(a, b)))
            .mapToInt(Integer::intValue)
            .distinct()
            .sorted()
            .toArray();

    if (topology.isSmt()) {
      levels.add(
          level(SchedDomainLevel.SMT, SD_SHARE_CPUCAPACITY | SD_SHARE_LLC, topology::smtSiblings));
    }
    levels.add(level(SchedDomainLevel.CLS, SD_CLUSTER | SD_SHARE_LLC, this::clusterGroupMask));
    levels.add(level(SchedDomainLevel.MC, SD_SHARE_LLC, this::coreGroupMask));
    levels.add(level(SchedDomainLevel.PKG, 0, cpu -> topology.nodeMask(topology.nodeOf(cpu))));
    for (int i = 0; i < distances.length; i++) {
      Map<Integer, ImmutableCpuMask> maskOfNode = new HashMap<>();
      for (int node : onlineOfNode.keySet()) {
        MutableCpuMask reach = CpuMasks.mutable(nrCpuIds);
        for (Map.Entry<Integer, ImmutableCpuMask> other : onlineOfNode.entrySet()) {
          if (topology.schedDistance(node, other.getKey()) <= distances[i]) {
            reach.orWith(other.getValue());
          }
        }
        maskOfNode.put(node, intern(reach));
      }
      CpuMask[] maskOfCpu = new CpuMask[nrCpuIds];
      for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
        maskOfCpu[cpu] = maskOfNode.get(topology.nodeOf(cpu));
      }
      levels.add(
          i == 0
              ? new TopologyLevel(SchedDomainLevel.NODE, 0, 0, distances[0], false, maskOfCpu)
              : new TopologyLevel(
                  SchedDomainLevel.NUMA, SD_NUMA, i, distances[i], true, maskOfCpu));
    }
    return distances;
  }

  private TopologyLevel level(
      SchedDomainLevel kind, int flags, java.util.function.IntFunction<CpuMask> mask) {
    CpuMask[] maskOfCpu = new CpuMask[nrCpuIds];
    for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
      maskOfCpu[cpu] = mask.apply(cpu);
    }
    return new TopologyLevel(kind, flags, -1, 0, false, maskOfCpu);
  }

  /**
   * {@code cpu_clustergroup_mask()}: the cluster, unless it covers the whole MC mask, in which case
   * the SMT siblings (as arm64 does, so that CLS never duplicates MC). Both masks are compared on
   * online CPUs only: the kernel adds a CPU to its siblings' masks when it comes online ({@code
   * set_cpu_sibling_map()}), so an offline CPU is in no online CPU's masks, while the topology's
   * masks cover possible CPUs (an importer places offline CPUs in package and LLC 0).
   */
  private CpuMask clusterGroupMask(int cpu) {
    ImmutableCpuMask cluster = topology.clusterMask(cpu);
    MutableCpuMask coreGroup = CpuMasks.mutable(nrCpuIds);
    coreGroup.and(coreGroupMask(cpu), topology.onlineMask());
    return coreGroup.isSubsetOf(cluster) ? topology.smtSiblings(cpu) : cluster;
  }

  /**
   * {@code cpu_coregroup_mask()}: the LLC, cut at the node when the LLC spans several nodes, as
   * both x86 (sub-NUMA clustering) and arm64 (the smaller of LLC and node) end up doing.
   */
  private CpuMask coreGroupMask(int cpu) {
    ImmutableCpuMask llc = topology.llcMask(cpu);
    ImmutableCpuMask node = topology.nodeMask(topology.nodeOf(cpu));
    if (llc.isSubsetOf(node)) {
      return llc;
    }
    MutableCpuMask cut = CpuMasks.mutable(nrCpuIds);
    cut.and(llc, node);
    return intern(cut);
  }

  /**
   * {@code topology_span_sane()}: on a non-overlapping level, the masks of two CPUs are equal or
   * disjoint. Only an odd distance table (two nodes at distance 10) can break this here.
   */
  private void checkSpansSane() {
    for (TopologyLevel tl : levels) {
      if (tl.overlap()) {
        continue;
      }
      CpuMask[] owner = new CpuMask[nrCpuIds];
      Map<CpuMask, Boolean> visited = new IdentityHashMap<>();
      for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
        CpuMask mask = tl.maskOfCpu()[cpu];
        if (visited.put(mask, Boolean.TRUE) != null) {
          continue;
        }
        for (int other = mask.first(); other != CpuMask.NO_CPU; other = mask.next(other)) {
          if (owner[other] == null) {
            owner[other] = mask;
          } else if (owner[other] != mask && !owner[other].contentEquals(mask)) {
            throw new IllegalArgumentException(
                "topology '"
                    + topology.name()
                    + "': "
                    + tl.kind()
                    + " masks "
                    + owner[other].toCpuList()
                    + " and "
                    + mask.toCpuList()
                    + " overlap without being equal; the kernel's topology_span_sane() refuses"
                    + " to build sched domains (check the node distances)");
          }
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Domains

  /** Models the per-CPU loop of {@code build_sched_domains()} over the topology table. */
  private void buildDomains(int cpu) {
    byLevel[cpu] = new Draft[levels.size()];
    Draft child = null;
    for (int t = 0; t < levels.size(); t++) {
      Draft sd = sdInit(levels.get(t), t, cpu, child);
      if (child != null) {
        sd.buildLevel = child.buildLevel + 1;
        child.parent = sd;
        if (!child.span.isSubsetOf(sd.span)) {
          // The kernel reports "arch topology borken" and widens the parent to hold the child.
          MutableCpuMask wider = sd.span.mutableCopy();
          wider.orWith(child.span);
          sd.span = intern(wider);
        }
      }
      if (options.relaxDomainLevel() >= 0 && sd.buildLevel >= options.relaxDomainLevel()) {
        sd.flags &= ~(SD_BALANCE_WAKE | SD_BALANCE_NEWIDLE);
      }
      hasAsymCapacity |= (sd.flags & SD_ASYM_CPUCAPACITY) != 0;
      byLevel[cpu][t] = sd;
      child = sd;
      if (sd.span.contentEquals(cpuMap)) {
        break;
      }
    }
  }

  /** Models {@code sd_init()}. */
  private Draft sdInit(TopologyLevel tl, int t, int cpu, Draft child) {
    Draft sd = new Draft(cpu, t, tl);
    MutableCpuMask span = CpuMasks.mutable(nrCpuIds);
    span.and(cpuMap, tl.maskOfCpu()[cpu]);
    sd.span = intern(span);
    sd.sdWeight = sd.span.weight();
    sd.child = child;
    int flags = SD_INIT_FLAGS | tl.topologyFlags() | asymCpuCapacityClassify(sd.span);

    if (options.clearChildPreferSiblingOnAsymCapacity()
        && (flags & SD_ASYM_CPUCAPACITY) != 0
        && child != null) {
      child.flags &= ~SD_PREFER_SIBLING;
    }
    if ((flags & SD_SHARE_CPUCAPACITY) != 0) {
      sd.imbalancePct = 110;
    } else if ((flags & SD_SHARE_LLC) != 0) {
      sd.imbalancePct = 117;
      sd.cacheNiceTries = 1;
    } else if ((flags & SD_NUMA) != 0) {
      sd.cacheNiceTries = 2;
      flags &= ~SD_PREFER_SIBLING;
      flags |= SD_SERIALIZE;
      if (tl.distance() > options.nodeReclaimDistance()) {
        flags &= ~(SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE);
      }
    } else {
      sd.cacheNiceTries = 1;
    }
    sd.flags = flags;
    return sd;
  }

  /**
   * Models {@code asym_cpu_capacity_scan()}: one CPU set per distinct capacity among the possible
   * housekeeping-domain CPUs; none on a symmetric machine.
   */
  private void scanCapacities() {
    CpuMask domainCpus = topology.housekeeping().mask(HousekeepingType.DOMAIN);
    TreeMap<Integer, MutableCpuMask> byCapacity = new TreeMap<>(Collections.reverseOrder());
    CpuMask possible = topology.possibleMask();
    for (int cpu = possible.first(); cpu != CpuMask.NO_CPU; cpu = possible.next(cpu)) {
      if (domainCpus.test(cpu)) {
        byCapacity
            .computeIfAbsent(topology.capacity(cpu), c -> CpuMasks.mutable(nrCpuIds))
            .set(cpu);
      }
    }
    if (byCapacity.size() > 1) {
      byCapacity.values().forEach(mask -> capacitySpans.add(mask.toImmutable()));
    }
  }

  /** Models {@code asym_cpu_capacity_classify()}. */
  private int asymCpuCapacityClassify(CpuMask span) {
    int count = 0;
    int miss = 0;
    for (ImmutableCpuMask cpusOfCapacity : capacitySpans) {
      if (span.intersects(cpusOfCapacity)) {
        count++;
      } else if (cpuMap.intersects(cpusOfCapacity)) {
        miss++;
      }
    }
    if (count < 2) {
      return 0;
    }
    return miss > 0 ? SD_ASYM_CPUCAPACITY : SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL;
  }

  // ---------------------------------------------------------------------------------------------
  // Groups

  /**
   * Models {@code build_sched_groups()} / {@code get_group()}: the groups are the child-domain
   * spans of the CPUs in the span (single CPUs at the bottom), shared by every CPU of the span.
   * Returned sorted by first CPU; {@link #orderedGroups} rotates them for one CPU.
   */
  private SharedGroups buildGroups(Draft sd) {
    LevelSpan key = new LevelSpan(sd.tl, sd.span);
    SharedGroups shared = sharedGroups.get(key);
    if (shared != null) {
      return shared;
    }
    List<GroupDraft> groups = new ArrayList<>();
    MutableCpuMask covered = CpuMasks.mutable(nrCpuIds);
    for (int i = sd.span.first(); i != CpuMask.NO_CPU; i = sd.span.next(i)) {
      if (covered.test(i)) {
        continue;
      }
      Draft sibling = byLevel[i][sd.tl];
      ImmutableCpuMask span =
          sibling != null && sibling.child != null
              ? sibling.child.span
              : intern(CpuMasks.of(nrCpuIds, i));
      covered.orWith(span);
      groups.add(new GroupDraft(span, span, sd.tl, span.first()));
    }
    SharedGroups result = new SharedGroups(List.copyOf(groups));
    sharedGroups.put(key, result);
    return result;
  }

  /**
   * Models {@code build_overlap_sched_groups()}: walking the span from the CPU with wrap-around,
   * each uncovered CPU contributes its own child domain's span (or that of a deeper descendant when
   * the child reaches outside the span), and each group gets a balance mask.
   */
  private List<GroupDraft> buildOverlapGroups(Draft sd) {
    List<GroupDraft> groups = new ArrayList<>();
    MutableCpuMask covered = CpuMasks.mutable(nrCpuIds);
    int cpu = sd.cpu;
    // for_each_cpu_wrap() from the CPU, stepping only onto CPUs no group covers yet.
    int i = cpu == 0 ? sd.span.firstAndNot(covered) : sd.span.nextAndNot(cpu - 1, covered);
    boolean wrapped = false;
    for (; ; i = sd.span.nextAndNot(i, covered)) {
      if (i == CpuMask.NO_CPU && !wrapped) {
        wrapped = true;
        i = sd.span.firstAndNot(covered);
      }
      if (i == CpuMask.NO_CPU || (wrapped && i >= cpu)) {
        break;
      }
      Draft sibling = byLevel[i][sd.tl];
      if (sibling == null || !sibling.span.test(i)) {
        continue;
      }
      if (sibling.child != null && !sibling.child.span.isSubsetOf(sd.span)) {
        sibling = findDescendedSibling(sd, sibling);
      }
      ImmutableCpuMask span = sibling.child != null ? sibling.child.span : sibling.span;
      covered.orWith(span);
      ImmutableCpuMask balance = buildBalanceMask(sibling, span);
      int balanceCpu = balance.isEmpty() ? span.first() : balance.first();
      groups.add(new GroupDraft(span, balance, sibling.tl, balanceCpu));
    }
    return List.copyOf(groups);
  }

  /** Models {@code find_descended_sibling()}. */
  private static Draft findDescendedSibling(Draft sd, Draft sibling) {
    while (sibling.child != null && !sibling.child.span.isSubsetOf(sd.span)) {
      sibling = sibling.child;
    }
    while (sibling.child != null && sibling.child.span.contentEquals(sibling.span)) {
      sibling = sibling.child;
    }
    return sibling;
  }

  /** Models {@code build_balance_mask()}: CPUs of the group whose own child domain is the group. */
  private ImmutableCpuMask buildBalanceMask(Draft sibling, ImmutableCpuMask groupSpan) {
    LevelSpan key = new LevelSpan(sibling.tl, groupSpan);
    ImmutableCpuMask known = balanceMasks.get(key);
    if (known != null) {
      return known;
    }
    ImmutableCpuMask built = buildBalanceMaskUncached(sibling.tl, groupSpan);
    balanceMasks.put(key, built);
    return built;
  }

  private ImmutableCpuMask buildBalanceMaskUncached(int tl, ImmutableCpuMask groupSpan) {
    MutableCpuMask mask = CpuMasks.mutable(nrCpuIds);
    for (int j = groupSpan.first(); j != CpuMask.NO_CPU; j = groupSpan.next(j)) {
      Draft other = byLevel[j] == null ? null : byLevel[j][tl];
      if (other != null && other.child != null && other.child.span.contentEquals(groupSpan)) {
        mask.set(j);
      }
    }
    return intern(mask);
  }

  /** The number of groups the domain has ({@code sd->groups != sd->groups->next} tests). */
  private static int nrGroups(Draft sd) {
    return sd.groups.size();
  }

  // ---------------------------------------------------------------------------------------------
  // imb_numa_nr

  /** Models the {@code imb_numa_nr} loop of {@code build_sched_domains()}. */
  private void adjustNumaImbalance(int cpu) {
    int imb = 0;
    int imbSpan = 1;
    for (Draft sd = byLevel[cpu][0]; sd != null; sd = sd.parent) {
      Draft child = sd.child;
      if ((sd.flags & SD_SHARE_LLC) == 0 && child != null && (child.flags & SD_SHARE_LLC) != 0) {
        int nrLlcs = sd.span.weight() / child.span.weight();
        imb = nrLlcs == 1 ? sd.span.weight() >> 3 : nrLlcs;
        imb = Math.max(1, imb);
        sd.imbNumaNr = imb;
        Draft top = sd.parent;
        while (top != null && (top.flags & SD_NUMA) == 0) {
          top = top.parent;
        }
        imbSpan = top != null ? top.span.weight() : sd.span.weight();
      } else {
        int factor = Math.max(1, sd.span.weight() / imbSpan);
        sd.imbNumaNr = imb * factor;
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Attaching

  /** Models the degenerate-domain removal of {@code cpu_attach_domain()}. */
  private List<Draft> attach(int cpu) {
    List<Draft> chain = new ArrayList<>();
    for (Draft sd = byLevel[cpu][0]; sd != null; sd = sd.parent) {
      chain.add(sd);
    }
    int t = 0;
    while (t + 1 < chain.size()) {
      Draft sd = chain.get(t);
      Draft parent = chain.get(t + 1);
      if (parentDegenerate(sd, parent)) {
        chain.remove(t + 1);
        // Spans match, so preferring siblings carries over to the surviving child.
        if ((parent.flags & SD_PREFER_SIBLING) != 0) {
          sd.flags |= SD_PREFER_SIBLING;
        }
      } else {
        t++;
      }
    }
    if (!chain.isEmpty() && degenerate(chain.get(0))) {
      chain.remove(0);
    }
    return List.copyOf(chain);
  }

  /** Models {@code sd_degenerate()}. */
  private static boolean degenerate(Draft sd) {
    if (sd.span.weight() == 1) {
      return true;
    }
    if ((sd.flags & SdFlags.SD_DEGENERATE_GROUPS_MASK) != 0 && nrGroups(sd) > 1) {
      return false;
    }
    return (sd.flags & SD_WAKE_AFFINE) == 0;
  }

  /** Models {@code sd_parent_degenerate()}. */
  private static boolean parentDegenerate(Draft sd, Draft parent) {
    if (degenerate(parent)) {
      return true;
    }
    if (!sd.span.contentEquals(parent.span)) {
      return false;
    }
    int parentFlags = parent.flags;
    if (nrGroups(parent) == 1) {
      parentFlags &= ~SdFlags.SD_DEGENERATE_GROUPS_MASK;
    }
    return (~sd.flags & parentFlags) == 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers for SchedDomains

  /**
   * The flags of a group: those of the surviving domain of the group's balance CPU that the group
   * stands for (the highest below {@code buildLevel} with the group's span), 0 when that domain was
   * removed. The kernel updates only the local group's {@code sg->flags} when it splices a
   * degenerate parent out; using the survivor for every group keeps all CPUs' views consistent.
   */
  int groupFlags(GroupDraft group, int buildLevel) {
    int flags = 0;
    for (Draft sd : attached.get(group.sgcCpu())) {
      if (sd.buildLevel < buildLevel && sd.span.contentEquals(group.span())) {
        flags = sd.flags;
      }
    }
    return flags;
  }

  /**
   * The groups of {@code sd} in the order of the kernel's circular list starting at the local
   * group: {@code for_each_cpu_wrap()} from the domain's CPU.
   */
  static <G> List<G> orderedGroups(Draft sd, G[] groups, int nrCpuIds) {
    if (sd.level.overlap()) {
      return Collections.unmodifiableList(Arrays.asList(groups));
    }
    int cpu = sd.cpu;
    List<GroupDraft> drafts = sd.shared.drafts;
    int n = drafts.size();
    if (sd.shared.rotates) {
      int localFirst = sd.child != null ? sd.child.span.first() : cpu;
      return new Rotated<>(groups, Arrays.binarySearch(sd.shared.firsts, localFirst));
    }
    Integer[] order = new Integer[n];
    long[] key = new long[n];
    for (int g = 0; g < n; g++) {
      order[g] = g;
      CpuMask span = drafts.get(g).span();
      int next = span.next(cpu - 1);
      key[g] = next != CpuMask.NO_CPU ? next : (long) span.first() + nrCpuIds;
    }
    Arrays.sort(order, (a, b) -> Long.compare(key[a], key[b]));
    @SuppressWarnings("unchecked")
    G[] ordered = (G[]) new Object[n];
    for (int g = 0; g < n; g++) {
      ordered[g] = groups[order[g]];
    }
    return Collections.unmodifiableList(Arrays.asList(ordered));
  }

  /**
   * Whether, for every CPU of the span, the wrap-around walk meets the groups (sorted by first CPU)
   * in rotated order: true when groups do not interleave, or when they are equally large and their
   * k-th members ascend group by group (as SMT siblings n and n+N do).
   */
  private static boolean rotationMatchesWrap(List<GroupDraft> drafts) {
    int n = drafts.size();
    boolean disjointRanges = true;
    for (int g = 0; g + 1 < n && disjointRanges; g++) {
      disjointRanges = drafts.get(g).span().last() < drafts.get(g + 1).span().first();
    }
    if (disjointRanges) {
      return true;
    }
    int size = drafts.get(0).span().weight();
    int[][] members = new int[n][];
    for (int g = 0; g < n; g++) {
      CpuMask span = drafts.get(g).span();
      if (span.weight() != size) {
        return false;
      }
      members[g] = new int[size];
      int k = 0;
      for (int c = span.first(); c != CpuMask.NO_CPU; c = span.next(c)) {
        members[g][k++] = c;
      }
    }
    int previous = -1;
    for (int k = 0; k < size; k++) {
      for (int g = 0; g < n; g++) {
        if (members[g][k] <= previous) {
          return false;
        }
        previous = members[g][k];
      }
    }
    return true;
  }

  /** Counts the SMT cores with a CPU in {@code span} ({@code sg->cores}). */
  int coresOf(CpuMask span) {
    MutableCpuMask left = span.mutableCopy();
    int cores = 0;
    for (int c = left.first(); c != CpuMask.NO_CPU; c = left.next(c)) {
      cores++;
      left.removeAll(topology.smtSiblings(c));
    }
    return cores;
  }

  ImmutableCpuMask intern(CpuMask mask) {
    ImmutableCpuMask frozen = mask.toImmutable();
    ImmutableCpuMask known = interned.putIfAbsent(frozen, frozen);
    return known != null ? known : frozen;
  }

  /** An unmodifiable rotation of a shared array: the local group first, then around the circle. */
  private static final class Rotated<G> extends AbstractList<G> implements RandomAccess {
    private final G[] elements;
    private final int start;

    Rotated(G[] elements, int start) {
      this.elements = elements;
      this.start = start;
    }

    @Override
    public G get(int index) {
      if (index < 0 || index >= elements.length) {
        throw new IndexOutOfBoundsException(index);
      }
      int i = start + index;
      return elements[i >= elements.length ? i - elements.length : i];
    }

    @Override
    public int size() {
      return elements.length;
    }
  }
}
