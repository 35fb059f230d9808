package dev.schedlab.topology;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import java.util.Arrays;
import java.util.Objects;

/**
 * A simulated machine: which CPUs exist and are online, their capacities, how they group into SMT
 * cores, clusters, last-level caches, dies, packages and NUMA nodes, the node distance table, and
 * the housekeeping masks. The equivalent of what the kernel's {@code topology_*()} accessors,
 * {@code cpu_smt_mask()}, {@code cpu_clustergroup_mask()}, {@code cpu_coregroup_mask()}, {@code
 * cpumask_of_node()}, {@code node_distance()} and {@code arch_scale_cpu_capacity()} report.
 *
 * <p>Immutable and thread-safe. Built by {@link #builder(int)}, by {@link Shape#toTopology}, or by
 * the importers in {@code hw-models}.
 *
 * <p>Masks ({@link #smtSiblings}, {@link #clusterMask}, {@link #llcMask}, {@link #dieMask}, {@link
 * #packageMask}, {@link #nodeMask}) cover the <em>possible</em> CPUs of the group, online or not;
 * the sched-domain builder intersects them with the online housekeeping CPUs. The ids {@link
 * #coreId}, {@link #clusterId}, {@link #llcId}, {@link #dieId} and {@link #packageId} are dense
 * machine-wide indexes assigned by the topology in order of each group's lowest CPU (so the group
 * holding CPU 0 has id 0); they are not the importer's ids. NUMA node ids are kept as given and may
 * be sparse (0 and 8).
 *
 * <p>Methods taking a CPU throw {@link IllegalArgumentException} for a CPU that is not possible.
 */
public final class Topology {

  /** {@code SCHED_CAPACITY_SCALE}: the capacity of the biggest CPU at its highest frequency. */
  public static final int SCHED_CAPACITY_SCALE = 1024;

  /** {@code LOCAL_DISTANCE}: a node's distance to itself. */
  public static final int LOCAL_DISTANCE = 10;

  /** {@code REMOTE_DISTANCE}: the distance between two nodes when no table is given. */
  public static final int REMOTE_DISTANCE = 20;

  /** Distances must stay below {@code 1 << DISTANCE_BITS} = 256 (see {@code sched_init_numa()}). */
  public static final int MAX_DISTANCE_EXCLUSIVE = 256;

  /** Node ids must stay below {@code MAX_NUMNODES} (x86-64 {@code NODES_SHIFT} = 10). */
  public static final int MAX_NUMNODES = 1024;

  static final int PACKAGE = 0;
  static final int DIE = 1;
  static final int LLC = 2;
  static final int CLUSTER = 3;
  static final int CORE = 4;
  static final int GROUP_KINDS = 5;

  private final String name;
  private final int nrCpuIds;
  private final ImmutableCpuMask possible;
  private final ImmutableCpuMask online;
  private final int[] capacity;
  private final int[] nodeOfCpu;

  /** {@code groupOfCpu[kind][cpu]}: dense group id, -1 for CPUs that are not possible. */
  private final int[][] groupOfCpu;

  /** {@code groupMasks[kind][id]}. */
  private final ImmutableCpuMask[][] groupMasks;

  private final int[] nodeIds;
  private final ImmutableCpuMask[] nodeMasks;

  /** Sorted node ids of the distance table, or null for the default 10/20 rule. */
  private final int[] distanceNodeIds;

  private final int[][] distances;
  private final int maxCapacity;
  private final boolean asymmetricCapacity;
  private final int smtWidth;
  private final Housekeeping housekeeping;
  private final SchedNodeDistance schedNodeDistance;

  Topology(
      String name,
      int nrCpuIds,
      ImmutableCpuMask possible,
      ImmutableCpuMask online,
      int[] capacity,
      int[] nodeOfCpu,
      int[][] groupOfCpu,
      ImmutableCpuMask[][] groupMasks,
      int[] nodeIds,
      ImmutableCpuMask[] nodeMasks,
      int[] distanceNodeIds,
      int[][] distances,
      Housekeeping housekeeping,
      SchedNodeDistance schedNodeDistance) {
    this.name = name;
    this.nrCpuIds = nrCpuIds;
    this.possible = possible;
    this.online = online;
    this.capacity = capacity;
    this.nodeOfCpu = nodeOfCpu;
    this.groupOfCpu = groupOfCpu;
    this.groupMasks = groupMasks;
    this.nodeIds = nodeIds;
    this.nodeMasks = nodeMasks;
    this.distanceNodeIds = distanceNodeIds;
    this.distances = distances;
    this.housekeeping = housekeeping;
    this.schedNodeDistance = schedNodeDistance;
    int max = 0;
    int min = Integer.MAX_VALUE;
    for (int cpu = possible.first(); cpu != CpuMask.NO_CPU; cpu = possible.next(cpu)) {
      max = Math.max(max, capacity[cpu]);
      min = Math.min(min, capacity[cpu]);
    }
    this.maxCapacity = max;
    this.asymmetricCapacity = min != max;
    int width = 0;
    for (ImmutableCpuMask core : groupMasks[CORE]) {
      width = Math.max(width, core.weight());
    }
    this.smtWidth = width;
  }

  /** Starts a fluent builder for a machine whose CPU numbers lie in {@code [0, nrCpuIds)}. */
  public static TopologyBuilder builder(int nrCpuIds) {
    return new TopologyBuilder(nrCpuIds);
  }

  /** A copy of this machine with other housekeeping masks (of the same width). */
  public Topology withHousekeeping(Housekeeping newHousekeeping) {
    Objects.requireNonNull(newHousekeeping, "housekeeping");
    if (newHousekeeping.nrCpuIds() != nrCpuIds) {
      throw new IllegalArgumentException(
          "housekeeping is "
              + newHousekeeping.nrCpuIds()
              + " CPUs wide but topology '"
              + name
              + "' has nrCpuIds "
              + nrCpuIds);
    }
    return new Topology(
        name,
        nrCpuIds,
        possible,
        online,
        capacity,
        nodeOfCpu,
        groupOfCpu,
        groupMasks,
        nodeIds,
        nodeMasks,
        distanceNodeIds,
        distances,
        newHousekeeping,
        schedNodeDistance);
  }

  /**
   * A copy of this machine whose sched domains see node distances through {@code rule} ({@code
   * arch_sched_node_distance()}), e.g. for a CPU model the kernel rewrites the SLIT for.
   */
  public Topology withSchedNodeDistance(SchedNodeDistance rule) {
    Objects.requireNonNull(rule, "rule");
    return new Topology(
        name,
        nrCpuIds,
        possible,
        online,
        capacity,
        nodeOfCpu,
        groupOfCpu,
        groupMasks,
        nodeIds,
        nodeMasks,
        distanceNodeIds,
        distances,
        housekeeping,
        rule);
  }

  /** The rule by which sched domains see node distances; {@link SchedNodeDistance#SLIT} mostly. */
  public SchedNodeDistance schedNodeDistance() {
    return schedNodeDistance;
  }

  /**
   * Equivalent of {@code arch_sched_node_distance(a, b)}: the distance {@code sched_init_numa()}
   * builds NUMA levels from, {@link #distance} unless {@link #schedNodeDistance()} rewrites it.
   */
  public int schedDistance(int nodeA, int nodeB) {
    return schedNodeDistance.distance(this, nodeA, nodeB);
  }

  /** A short human name, e.g. {@code vera} or {@code 2n1l88c2t/split}. */
  public String name() {
    return name;
  }

  /** The kernel's {@code nr_cpu_ids}: every mask of this machine is this wide. */
  public int nrCpuIds() {
    return nrCpuIds;
  }

  /** Equivalent of {@code cpu_possible_mask}: the CPUs that exist. */
  public ImmutableCpuMask possibleMask() {
    return possible;
  }

  /** Equivalent of {@code cpu_online_mask}. */
  public ImmutableCpuMask onlineMask() {
    return online;
  }

  /**
   * Equivalent of {@code cpu_possible(cpu)}; false for any number outside {@code [0, nrCpuIds)}.
   */
  public boolean isPossible(int cpu) {
    return cpu >= 0 && cpu < nrCpuIds && possible.test(cpu);
  }

  /** Equivalent of {@code cpu_online(cpu)}. */
  public boolean isOnline(int cpu) {
    checkCpu(cpu);
    return online.test(cpu);
  }

  /** Number of online CPUs: {@code num_online_cpus()}. */
  public int cpuCount() {
    return online.weight();
  }

  /**
   * Equivalent of {@code arch_scale_cpu_capacity(cpu)}: the CPU's capacity at its highest
   * frequency, in {@code [1, SCHED_CAPACITY_SCALE]}; 1024 unless the builder set it.
   */
  public int capacity(int cpu) {
    checkCpu(cpu);
    return capacity[cpu];
  }

  /** The largest {@link #capacity} of any possible CPU. */
  public int maxCapacity() {
    return maxCapacity;
  }

  /** Whether possible CPUs have different capacities (big.LITTLE, asymmetric firmware). */
  public boolean isAsymmetricCapacity() {
    return asymmetricCapacity;
  }

  /** Equivalent of {@code cpu_smt_mask(cpu)} / {@code topology_sibling_cpumask()}; includes cpu. */
  public ImmutableCpuMask smtSiblings(int cpu) {
    return groupMasks[CORE][groupOf(CORE, cpu)];
  }

  /**
   * Equivalent of {@code topology_cluster_cpumask()}; the CPU's core when no clusters are known.
   */
  public ImmutableCpuMask clusterMask(int cpu) {
    return groupMasks[CLUSTER][groupOf(CLUSTER, cpu)];
  }

  /** Equivalent of {@code cpu_llc_shared_mask()}: the CPUs sharing this CPU's last-level cache. */
  public ImmutableCpuMask llcMask(int cpu) {
    return groupMasks[LLC][groupOf(LLC, cpu)];
  }

  /** Equivalent of {@code topology_die_cpumask()}. */
  public ImmutableCpuMask dieMask(int cpu) {
    return groupMasks[DIE][groupOf(DIE, cpu)];
  }

  /** Equivalent of {@code topology_core_cpumask()}: the CPUs of this CPU's physical package. */
  public ImmutableCpuMask packageMask(int cpu) {
    return groupMasks[PACKAGE][groupOf(PACKAGE, cpu)];
  }

  /** Equivalent of {@code cpu_to_node(cpu)}. */
  public int nodeOf(int cpu) {
    checkCpu(cpu);
    return nodeOfCpu[cpu];
  }

  /**
   * Equivalent of {@code cpumask_of_node(node)}: the possible CPUs of a node; empty for a node of
   * the distance table that has no CPUs (a memory-only node).
   *
   * @throws IllegalArgumentException for a node this machine does not have
   */
  public ImmutableCpuMask nodeMask(int node) {
    int index = Arrays.binarySearch(nodeIds, node);
    if (index >= 0) {
      return nodeMasks[index];
    }
    if (distanceNodeIds != null && Arrays.binarySearch(distanceNodeIds, node) >= 0) {
      return CpuMasks.empty(nrCpuIds);
    }
    throw new IllegalArgumentException(
        "topology '"
            + name
            + "' has no node "
            + node
            + " (nodes "
            + Arrays.toString(nodeIds)
            + ")");
  }

  /** The ids of the nodes that have CPUs, ascending; a fresh copy. */
  public int[] nodes() {
    return nodeIds.clone();
  }

  /** Number of nodes that have CPUs. */
  public int nodeCount() {
    return nodeIds.length;
  }

  /**
   * The node ids of the distance table, ascending (it may name memory-only nodes); the ids of
   * {@link #nodes()} when no table was given. A fresh copy.
   */
  public int[] distanceNodes() {
    return distanceNodeIds == null ? nodeIds.clone() : distanceNodeIds.clone();
  }

  /**
   * Equivalent of {@code node_distance(a, b)}: from the distance table when one was given,
   * otherwise {@link #LOCAL_DISTANCE} for {@code a == b} and {@link #REMOTE_DISTANCE} otherwise.
   *
   * @throws IllegalArgumentException for a node this machine does not have
   */
  public int distance(int nodeA, int nodeB) {
    if (distanceNodeIds == null) {
      checkNode(nodeA);
      checkNode(nodeB);
      return nodeA == nodeB ? LOCAL_DISTANCE : REMOTE_DISTANCE;
    }
    return distances[distanceIndex(nodeA)][distanceIndex(nodeB)];
  }

  /** Dense index of the CPU's SMT core (the group of {@link #smtSiblings}). */
  public int coreId(int cpu) {
    return groupOf(CORE, cpu);
  }

  /** Dense index of the CPU's cluster. */
  public int clusterId(int cpu) {
    return groupOf(CLUSTER, cpu);
  }

  /** Dense index of the CPU's last-level cache. */
  public int llcId(int cpu) {
    return groupOf(LLC, cpu);
  }

  /** Dense index of the CPU's die (machine-wide, unlike sysfs {@code die_id}). */
  public int dieId(int cpu) {
    return groupOf(DIE, cpu);
  }

  /** Dense index of the CPU's package. */
  public int packageId(int cpu) {
    return groupOf(PACKAGE, cpu);
  }

  /** Number of packages (sockets). */
  public int packageCount() {
    return groupMasks[PACKAGE].length;
  }

  /** Number of dies, machine-wide. */
  public int dieCount() {
    return groupMasks[DIE].length;
  }

  /** Number of last-level caches. */
  public int llcCount() {
    return groupMasks[LLC].length;
  }

  /** Number of clusters (equal to {@link #coreCount()} when the machine has no clusters). */
  public int clusterCount() {
    return groupMasks[CLUSTER].length;
  }

  /** Number of SMT cores. */
  public int coreCount() {
    return groupMasks[CORE].length;
  }

  /** The most hardware threads any core has: 1 without SMT. */
  public int smtWidth() {
    return smtWidth;
  }

  /** Whether some core has more than one hardware thread. */
  public boolean isSmt() {
    return smtWidth > 1;
  }

  /** The {@code nohz_full=} / {@code isolcpus=} masks of this machine. */
  public Housekeeping housekeeping() {
    return housekeeping;
  }

  private int groupOf(int kind, int cpu) {
    checkCpu(cpu);
    return groupOfCpu[kind][cpu];
  }

  private void checkCpu(int cpu) {
    if (!isPossible(cpu)) {
      throw new IllegalArgumentException(
          "CPU "
              + cpu
              + " is not a possible CPU of topology '"
              + name
              + "' (possible: "
              + possible.toCpuList()
              + ")");
    }
  }

  private void checkNode(int node) {
    if (Arrays.binarySearch(nodeIds, node) < 0) {
      throw new IllegalArgumentException(
          "topology '"
              + name
              + "' has no node "
              + node
              + " (nodes "
              + Arrays.toString(nodeIds)
              + ")");
    }
  }

  private int distanceIndex(int node) {
    int index = Arrays.binarySearch(distanceNodeIds, node);
    if (index < 0) {
      throw new IllegalArgumentException(
          "topology '"
              + name
              + "' has no node "
              + node
              + " in its distance table (nodes "
              + Arrays.toString(distanceNodeIds)
              + ")");
    }
    return index;
  }

  @Override
  public String toString() {
    return "Topology["
        + name
        + ": "
        + possible.weight()
        + " CPUs ("
        + cpuCount()
        + " online), "
        + packageCount()
        + " packages, "
        + nodeCount()
        + " nodes, "
        + llcCount()
        + " LLCs, "
        + coreCount()
        + " cores, SMT"
        + smtWidth
        + (asymmetricCapacity ? ", asymmetric capacity" : "")
        + (housekeeping.toBootArgs().isEmpty() ? "" : ", " + housekeeping.toBootArgs())
        + "]";
  }
}
