package dev.schedlab.topology;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Fluent builder of a {@link Topology}, shaped for importers (hwloc XML, sysfs, {@code lscpu -p})
 * that learn, per CPU, its package, die, last-level cache, cluster, core and node ids, capacity and
 * online state. Not thread-safe; {@link #build()} may be called more than once.
 *
 * <p>Either describe a CPU in one call, {@link #addCpu(int, int, int, int, int, int, int)}, or
 * piecewise through {@link #cpu(int)}, which returns the CPU's own builder:
 *
 * <pre>{@code
 * Topology t = Topology.builder(8).name("tiny")
 *     .cpu(0).packageId(0).llcId(0).coreId(0).node(0).done()
 *     .cpu(4).packageId(0).llcId(0).coreId(0).node(0).done()   // SMT sibling of CPU 0
 *     ...
 *     .build();
 * }</pre>
 *
 * <p><b>Ids.</b> The ids given may be anything non-negative (firmware ids, sysfs ids, hwloc os
 * indexes); the topology replaces them by dense indexes. They are scoped as sysfs scopes them: die
 * ids within their package, LLC ids within their package, cluster and core ids within their die; so
 * two packages may both have a core 0. {@link #UNKNOWN} (-1, what sysfs prints for an unknown
 * {@code die_id} or {@code cluster_id}) or an id never set means: package 0, die 0 of the package,
 * one LLC per die, each core its own cluster, each CPU its own core (no SMT), node 0.
 *
 * <p><b>Checks in {@link #build()}</b>, each failing with an {@link IllegalArgumentException} whose
 * one-line message names the CPU or node: at least one CPU and one online CPU; SMT siblings share
 * their cluster, LLC and node; a cluster's CPUs share their LLC and node; capacities in {@code [1,
 * 1024]}; {@link #capacity} and {@link #offline} only for added CPUs; the distance table square,
 * covering every CPU's node, {@code 10} on its diagonal and every entry in {@code [10, 256)};
 * housekeeping masks as wide as the machine. An LLC may span nodes (sub-NUMA clustering); the
 * sched-domain builder then cuts it at the node, as the kernel's topology code does.
 */
public final class TopologyBuilder {

  /** An id the importer does not know; the default of the class comment applies. */
  public static final int UNKNOWN = -1;

  private final int nrCpuIds;
  private String name = "custom";
  private final TreeMap<Integer, CpuBuilder> cpus = new TreeMap<>();
  private final Map<Integer, Integer> capacities = new LinkedHashMap<>();
  private final TreeSet<Integer> offline = new TreeSet<>();
  private int[] distanceNodeIds;
  private int[][] distanceMatrix;
  private Housekeeping housekeeping;

  TopologyBuilder(int nrCpuIds) {
    if (nrCpuIds < 1 || nrCpuIds > CpuMask.MAX_CPUS) {
      throw new IllegalArgumentException(
          "nrCpuIds " + nrCpuIds + " outside the allowed range 1-" + CpuMask.MAX_CPUS);
    }
    this.nrCpuIds = nrCpuIds;
  }

  /** The machine's human name (default {@code custom}). */
  public TopologyBuilder name(String newName) {
    Objects.requireNonNull(newName, "name");
    if (newName.isBlank()) {
      throw new IllegalArgumentException("topology name must not be blank");
    }
    this.name = newName;
    return this;
  }

  /**
   * Adds CPU {@code cpu} with all its ids at once; see the class comment for scoping and {@link
   * #UNKNOWN}.
   *
   * @throws IllegalArgumentException if the CPU is out of range, already added, or an id is below
   *     -1
   */
  public TopologyBuilder addCpu(
      int cpu, int packageId, int dieId, int llcId, int clusterId, int coreId, int node) {
    checkCpuNumber(cpu);
    if (cpus.containsKey(cpu)) {
      throw new IllegalArgumentException("CPU " + cpu + " added twice");
    }
    cpu(cpu)
        .packageId(packageId)
        .dieId(dieId)
        .llcId(llcId)
        .clusterId(clusterId)
        .coreId(coreId)
        .node(node);
    return this;
  }

  /**
   * The builder of CPU {@code cpu}, adding the CPU with default ids if it is new; calling it again
   * returns the same builder, so an importer may fill a CPU in several passes.
   */
  public CpuBuilder cpu(int cpu) {
    checkCpuNumber(cpu);
    return cpus.computeIfAbsent(cpu, CpuBuilder::new);
  }

  /** Sets the capacity of an added CPU ({@code arch_scale_cpu_capacity}), in {@code [1, 1024]}. */
  public TopologyBuilder capacity(int cpu, int capacity) {
    checkCpuNumber(cpu);
    capacities.put(cpu, capacity);
    return this;
  }

  /** Marks an added CPU offline: it exists ({@code cpu_possible}) but is not online. */
  public TopologyBuilder offline(int cpu) {
    checkCpuNumber(cpu);
    offline.add(cpu);
    return this;
  }

  /**
   * Sets the node distance table ({@code node_distance()}, the ACPI SLIT): {@code matrix[i][j]} is
   * the distance from node {@code nodeIds[i]} to node {@code nodeIds[j]}. The table may name
   * memory-only nodes. Without a table distances are 10 local and 20 remote. Checked in {@link
   * #build()}.
   */
  public TopologyBuilder distances(int[] nodeIds, int[][] matrix) {
    Objects.requireNonNull(nodeIds, "nodeIds");
    Objects.requireNonNull(matrix, "matrix");
    this.distanceNodeIds = nodeIds.clone();
    this.distanceMatrix = new int[matrix.length][];
    for (int i = 0; i < matrix.length; i++) {
      this.distanceMatrix[i] = Objects.requireNonNull(matrix[i], "matrix row " + i).clone();
    }
    return this;
  }

  /** {@link #distances(int[], int[][])} for nodes {@code 0..matrix.length-1}. */
  public TopologyBuilder distances(int[][] matrix) {
    int[] ids = new int[matrix.length];
    Arrays.setAll(ids, i -> i);
    return distances(ids, matrix);
  }

  /** Sets the housekeeping masks (default {@link Housekeeping#none}). */
  public TopologyBuilder housekeeping(Housekeeping newHousekeeping) {
    this.housekeeping = Objects.requireNonNull(newHousekeeping, "housekeeping");
    return this;
  }

  /** Sets the housekeeping masks from boot parameters, see {@link Housekeeping#parse}. */
  public TopologyBuilder housekeeping(String bootArgs) {
    return housekeeping(Housekeeping.parse(bootArgs, nrCpuIds));
  }

  /**
   * Checks everything (see the class comment) and builds the immutable topology.
   *
   * @throws IllegalArgumentException with a one-line message naming the CPU or node at fault
   */
  public Topology build() {
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException(
          "topology '" + name + "' has no CPUs; add some with cpu()");
    }
    int[] capacity = new int[nrCpuIds];
    int[] nodeOfCpu = new int[nrCpuIds];
    Arrays.fill(nodeOfCpu, -1);
    MutableCpuMask possible = CpuMasks.mutable(nrCpuIds);
    MutableCpuMask online = CpuMasks.mutable(nrCpuIds);
    for (CpuBuilder spec : cpus.values()) {
      possible.set(spec.cpu);
      capacity[spec.cpu] = Topology.SCHED_CAPACITY_SCALE;
      nodeOfCpu[spec.cpu] = spec.node == UNKNOWN ? 0 : spec.node;
      if (spec.online) {
        online.set(spec.cpu);
      }
    }
    applyCapacities(capacity);
    applyOffline(online);
    if (online.isEmpty()) {
      throw new IllegalArgumentException(
          "topology '" + name + "' has no online CPU; at least the boot CPU must be online");
    }

    GroupIndex[] index = new GroupIndex[Topology.GROUP_KINDS];
    for (int kind = 0; kind < Topology.GROUP_KINDS; kind++) {
      index[kind] = new GroupIndex(nrCpuIds);
    }
    for (CpuBuilder spec : cpus.values()) {
      index[Topology.PACKAGE].add(spec.cpu, spec.packageKey());
      index[Topology.DIE].add(spec.cpu, spec.dieKey());
      index[Topology.LLC].add(spec.cpu, spec.llcKey());
      index[Topology.CLUSTER].add(spec.cpu, spec.clusterKey());
      index[Topology.CORE].add(spec.cpu, spec.coreKey());
    }
    checkNesting(index[Topology.CORE], "SMT siblings", "core", nodeOfCpu, index);
    checkNesting(index[Topology.CLUSTER], "CPUs of a cluster", "cluster", nodeOfCpu, index);

    int[][] groupOfCpu = new int[Topology.GROUP_KINDS][];
    ImmutableCpuMask[][] groupMasks = new ImmutableCpuMask[Topology.GROUP_KINDS][];
    for (int kind = 0; kind < Topology.GROUP_KINDS; kind++) {
      groupOfCpu[kind] = index[kind].groupOfCpu;
      groupMasks[kind] = index[kind].masks();
    }

    TreeMap<Integer, MutableCpuMask> byNode = new TreeMap<>();
    for (CpuBuilder spec : cpus.values()) {
      byNode.computeIfAbsent(nodeOfCpu[spec.cpu], n -> CpuMasks.mutable(nrCpuIds)).set(spec.cpu);
    }
    int[] nodeIds = byNode.keySet().stream().mapToInt(Integer::intValue).toArray();
    ImmutableCpuMask[] nodeMasks =
        byNode.values().stream().map(CpuMask::toImmutable).toArray(ImmutableCpuMask[]::new);

    int[] sortedDistanceNodes = null;
    int[][] sortedDistances = null;
    if (distanceNodeIds != null) {
      int[] order = checkDistances(nodeIds);
      sortedDistanceNodes = new int[order.length];
      sortedDistances = new int[order.length][order.length];
      for (int i = 0; i < order.length; i++) {
        sortedDistanceNodes[i] = distanceNodeIds[order[i]];
        for (int j = 0; j < order.length; j++) {
          sortedDistances[i][j] = distanceMatrix[order[i]][order[j]];
        }
      }
    }

    Housekeeping hk = housekeeping != null ? housekeeping : Housekeeping.none(nrCpuIds);
    if (hk.nrCpuIds() != nrCpuIds) {
      throw new IllegalArgumentException(
          "housekeeping is "
              + hk.nrCpuIds()
              + " CPUs wide but topology '"
              + name
              + "' has nrCpuIds "
              + nrCpuIds);
    }
    return new Topology(
        name,
        nrCpuIds,
        possible.toImmutable(),
        online.toImmutable(),
        capacity,
        nodeOfCpu,
        groupOfCpu,
        groupMasks,
        nodeIds,
        nodeMasks,
        sortedDistanceNodes,
        sortedDistances,
        hk,
        SchedNodeDistance.SLIT);
  }

  private void applyCapacities(int[] capacity) {
    for (Map.Entry<Integer, Integer> entry : capacities.entrySet()) {
      int cpu = entry.getKey();
      if (!cpus.containsKey(cpu)) {
        throw new IllegalArgumentException(
            "capacity given for CPU " + cpu + ", which was never added");
      }
      capacity[cpu] = entry.getValue();
    }
    for (CpuBuilder spec : cpus.values()) {
      if (spec.capacity != 0) {
        capacity[spec.cpu] = spec.capacity;
      }
      if (capacity[spec.cpu] < 1 || capacity[spec.cpu] > Topology.SCHED_CAPACITY_SCALE) {
        throw new IllegalArgumentException(
            "CPU "
                + spec.cpu
                + " has capacity "
                + capacity[spec.cpu]
                + "; allowed [1, "
                + Topology.SCHED_CAPACITY_SCALE
                + "] (SCHED_CAPACITY_SCALE)");
      }
    }
  }

  private void applyOffline(MutableCpuMask online) {
    for (int cpu : offline) {
      if (!cpus.containsKey(cpu)) {
        throw new IllegalArgumentException("CPU " + cpu + " marked offline but never added");
      }
      online.clear(cpu);
    }
  }

  /** Every member of each group of {@code inner} must share the LLC, the cluster and the node. */
  private void checkNesting(
      GroupIndex inner, String members, String what, int[] nodeOfCpu, GroupIndex[] index) {
    for (int id = 0; id < inner.size(); id++) {
      CpuMask mask = inner.mutableMasks.get(id);
      int first = mask.first();
      for (int cpu = mask.next(first); cpu != CpuMask.NO_CPU; cpu = mask.next(cpu)) {
        String problem = null;
        if (index[Topology.LLC].groupOfCpu[cpu] != index[Topology.LLC].groupOfCpu[first]) {
          problem =
              "different LLCs (llc ids "
                  + cpus.get(cpu).llcId
                  + " and "
                  + cpus.get(first).llcId
                  + ")";
        } else if (what.equals("core")
            && index[Topology.CLUSTER].groupOfCpu[cpu]
                != index[Topology.CLUSTER].groupOfCpu[first]) {
          problem =
              "different clusters (cluster ids "
                  + cpus.get(cpu).clusterId
                  + " and "
                  + cpus.get(first).clusterId
                  + ")";
        } else if (nodeOfCpu[cpu] != nodeOfCpu[first]) {
          problem = "different NUMA nodes (" + nodeOfCpu[cpu] + " and " + nodeOfCpu[first] + ")";
        }
        if (problem != null) {
          throw new IllegalArgumentException(
              "CPU "
                  + cpu
                  + " and CPU "
                  + first
                  + " are "
                  + members
                  + " (same "
                  + what
                  + ") but are in "
                  + problem
                  + "; a "
                  + what
                  + " must lie within one "
                  + (what.equals("core") ? "cluster, " : "")
                  + "LLC and node");
        }
      }
    }
  }

  /** Validates the distance table; returns the permutation that sorts it by node id. */
  private int[] checkDistances(int[] cpuNodes) {
    int n = distanceNodeIds.length;
    if (n == 0) {
      throw new IllegalArgumentException("distance table names no nodes");
    }
    if (distanceMatrix.length != n) {
      throw new IllegalArgumentException(
          "distance table has "
              + distanceMatrix.length
              + " rows for "
              + n
              + " nodes; it must be square");
    }
    Map<Integer, Integer> position = new HashMap<>();
    for (int i = 0; i < n; i++) {
      int node = distanceNodeIds[i];
      if (node < 0 || node >= Topology.MAX_NUMNODES) {
        throw new IllegalArgumentException(
            "distance table names node "
                + node
                + "; node ids must lie in [0, "
                + Topology.MAX_NUMNODES
                + ")");
      }
      if (position.put(node, i) != null) {
        throw new IllegalArgumentException("distance table names node " + node + " twice");
      }
      if (distanceMatrix[i].length != n) {
        throw new IllegalArgumentException(
            "distance table row of node "
                + node
                + " has "
                + distanceMatrix[i].length
                + " entries for "
                + n
                + " nodes; it must be square");
      }
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        int d = distanceMatrix[i][j];
        String where =
            "distance from node " + distanceNodeIds[i] + " to node " + distanceNodeIds[j];
        if (i == j && d != Topology.LOCAL_DISTANCE) {
          throw new IllegalArgumentException(
              where
                  + " is "
                  + d
                  + "; a node's distance to itself must be "
                  + Topology.LOCAL_DISTANCE
                  + " (LOCAL_DISTANCE)");
        }
        if (d < Topology.LOCAL_DISTANCE || d >= Topology.MAX_DISTANCE_EXCLUSIVE) {
          throw new IllegalArgumentException(
              where
                  + " is "
                  + d
                  + "; allowed ["
                  + Topology.LOCAL_DISTANCE
                  + ", "
                  + Topology.MAX_DISTANCE_EXCLUSIVE
                  + ")");
        }
      }
    }
    for (int node : cpuNodes) {
      if (!position.containsKey(node)) {
        throw new IllegalArgumentException(
            "node "
                + node
                + " has CPUs but is missing from the distance table (nodes "
                + Arrays.toString(distanceNodeIds)
                + ")");
      }
    }
    Integer[] order = new Integer[n];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> Integer.compare(distanceNodeIds[a], distanceNodeIds[b]));
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  private void checkCpuNumber(int cpu) {
    if (cpu < 0 || cpu >= nrCpuIds) {
      throw new IllegalArgumentException(
          "CPU " + cpu + " outside [0, " + nrCpuIds + ") (nrCpuIds " + nrCpuIds + ")");
    }
  }

  /** Assigns dense ids to group keys in order of the first CPU seen, ascending CPU order. */
  private static final class GroupIndex {
    final int[] groupOfCpu;
    final Map<String, Integer> idOfKey = new HashMap<>();
    final List<MutableCpuMask> mutableMasks = new ArrayList<>();
    final int nrCpuIds;

    GroupIndex(int nrCpuIds) {
      this.nrCpuIds = nrCpuIds;
      this.groupOfCpu = new int[nrCpuIds];
      Arrays.fill(groupOfCpu, -1);
    }

    void add(int cpu, String key) {
      int id =
          idOfKey.computeIfAbsent(
              key,
              k -> {
                mutableMasks.add(CpuMasks.mutable(nrCpuIds));
                return mutableMasks.size() - 1;
              });
      groupOfCpu[cpu] = id;
      mutableMasks.get(id).set(cpu);
    }

    int size() {
      return mutableMasks.size();
    }

    ImmutableCpuMask[] masks() {
      return mutableMasks.stream().map(CpuMask::toImmutable).toArray(ImmutableCpuMask[]::new);
    }
  }

  /**
   * The ids of one CPU; every setter returns this builder, {@link #done()} the topology builder.
   */
  public final class CpuBuilder {
    private final int cpu;
    private int packageId = UNKNOWN;
    private int dieId = UNKNOWN;
    private int llcId = UNKNOWN;
    private int clusterId = UNKNOWN;
    private int coreId = UNKNOWN;
    private int node = UNKNOWN;
    private int capacity;
    private boolean online = true;

    private CpuBuilder(int cpu) {
      this.cpu = cpu;
    }

    /** Physical package (socket) id, e.g. sysfs {@code physical_package_id}. */
    public CpuBuilder packageId(int id) {
      this.packageId = checkId(id, "package");
      return this;
    }

    /** Die id within the package, e.g. sysfs {@code die_id}. */
    public CpuBuilder dieId(int id) {
      this.dieId = checkId(id, "die");
      return this;
    }

    /** Last-level cache id within the package, e.g. sysfs {@code cache/index3/id}. */
    public CpuBuilder llcId(int id) {
      this.llcId = checkId(id, "LLC");
      return this;
    }

    /** Cluster id within the die, e.g. sysfs {@code cluster_id}. */
    public CpuBuilder clusterId(int id) {
      this.clusterId = checkId(id, "cluster");
      return this;
    }

    /** Core id within the die, e.g. sysfs {@code core_id}; CPUs with equal ids are SMT siblings. */
    public CpuBuilder coreId(int id) {
      this.coreId = checkId(id, "core");
      return this;
    }

    /** NUMA node id, e.g. the sysfs {@code nodeN} link. */
    public CpuBuilder node(int id) {
      if (id != UNKNOWN && (id < 0 || id >= Topology.MAX_NUMNODES)) {
        throw new IllegalArgumentException(
            "CPU "
                + cpu
                + ": node "
                + id
                + " outside [0, "
                + Topology.MAX_NUMNODES
                + ") (or -1 for unknown)");
      }
      this.node = id;
      return this;
    }

    /** Capacity in {@code [1, 1024]} (checked by {@link TopologyBuilder#build()}). */
    public CpuBuilder capacity(int value) {
      this.capacity = value;
      if (value == 0) {
        throw new IllegalArgumentException(
            "CPU " + cpu + " has capacity 0; allowed [1, " + Topology.SCHED_CAPACITY_SCALE + "]");
      }
      return this;
    }

    /** Whether the CPU is online (default true). */
    public CpuBuilder online(boolean value) {
      this.online = value;
      return this;
    }

    /** Marks the CPU offline. */
    public CpuBuilder offline() {
      return online(false);
    }

    /** Back to the topology builder. */
    public TopologyBuilder done() {
      return TopologyBuilder.this;
    }

    /** Shortcut for {@code done().cpu(next)}. */
    public CpuBuilder cpu(int next) {
      return TopologyBuilder.this.cpu(next);
    }

    private int checkId(int id, String what) {
      if (id < UNKNOWN) {
        throw new IllegalArgumentException(
            "CPU "
                + cpu
                + ": "
                + what
                + " id "
                + id
                + " is negative; ids are >= 0, or -1 for"
                + " unknown");
      }
      return id;
    }

    private int pkg() {
      return packageId == UNKNOWN ? 0 : packageId;
    }

    private int die() {
      return dieId == UNKNOWN ? 0 : dieId;
    }

    String packageKey() {
      return "p" + pkg();
    }

    String dieKey() {
      return "p" + pkg() + ".d" + die();
    }

    String llcKey() {
      return llcId == UNKNOWN ? "die:" + dieKey() : "p" + pkg() + ".llc" + llcId;
    }

    String coreKey() {
      return coreId == UNKNOWN ? "cpu" + cpu : dieKey() + ".core" + coreId;
    }

    String clusterKey() {
      return clusterId == UNKNOWN ? "core:" + coreKey() : dieKey() + ".cluster" + clusterId;
    }
  }
}
