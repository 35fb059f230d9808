package dev.schedlab.hw.importer;

import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What an importer read about a machine, before it becomes a {@code Topology}: one {@link
 * CpuRecord} per known CPU, the NUMA nodes with their distance table, the data caches, and the
 * descriptive information the source carried (CPU model, kernel release). Immutable.
 */
public final class ImportedTopology {

  private final String source;
  private final String format;
  private final int nrCpuIds;
  private final List<CpuRecord> cpus;
  private final CpuRecord[] byCpu;
  private final int[] nodeIds;
  private final int[][] distances;
  private final List<CacheRecord> caches;
  private final Map<String, String> info;
  private final List<String> notes;

  ImportedTopology(
      String source,
      String format,
      int nrCpuIds,
      List<CpuRecord> cpus,
      int[] nodeIds,
      int[][] distances,
      List<CacheRecord> caches,
      Map<String, String> info,
      List<String> notes) {
    this.source = source;
    this.format = format;
    this.nrCpuIds = nrCpuIds;
    this.cpus = List.copyOf(cpus);
    this.byCpu = new CpuRecord[nrCpuIds];
    for (CpuRecord r : cpus) {
      byCpu[r.cpu()] = r;
    }
    this.nodeIds = nodeIds.clone();
    this.distances = distances == null ? null : deepCopy(distances);
    this.caches = List.copyOf(caches);
    this.info = Collections.unmodifiableMap(new LinkedHashMap<>(info));
    this.notes = List.copyOf(notes);
  }

  /** The file or directory read. */
  public String source() {
    return source;
  }

  /** Which importer read it: {@code hwloc-v1}, {@code hwloc-v2}, {@code sysfs}, {@code lscpu}. */
  public String format() {
    return format;
  }

  /** One more than the highest CPU number the source mentions (the kernel's nr_cpu_ids). */
  public int nrCpuIds() {
    return nrCpuIds;
  }

  /** Every known CPU, online or not, ascending by CPU number. */
  public List<CpuRecord> cpus() {
    return cpus;
  }

  /** The online CPUs, ascending. */
  public List<CpuRecord> onlineCpus() {
    List<CpuRecord> online = new ArrayList<>();
    for (CpuRecord r : cpus) {
      if (r.online()) {
        online.add(r);
      }
    }
    return online;
  }

  /** The record of {@code cpu}, or null when the source does not know that CPU. */
  public CpuRecord cpu(int cpu) {
    return cpu >= 0 && cpu < nrCpuIds ? byCpu[cpu] : null;
  }

  /** Number of online CPUs (hwloc PU objects). */
  public int onlineCount() {
    return (int) cpus.stream().filter(CpuRecord::online).count();
  }

  /** Number of packages with online CPUs. */
  public int packageCount() {
    return distinctOnline(0);
  }

  /** Number of dies with online CPUs. */
  public int dieCount() {
    return distinctOnline(1);
  }

  /** Number of last-level caches (as the MC level follows them). */
  public int llcCount() {
    return distinctOnline(2);
  }

  /** Number of clusters. */
  public int clusterCount() {
    return distinctOnline(3);
  }

  /** Number of SMT cores with online CPUs. */
  public int coreCount() {
    return distinctOnline(4);
  }

  /** The NUMA node numbers the source names (with or without CPUs), ascending; a copy. */
  public int[] nodes() {
    return nodeIds.clone();
  }

  /** Number of NUMA nodes the source names. */
  public int nodeCount() {
    return nodeIds.length;
  }

  /** Whether the source gave a node distance table. */
  public boolean hasDistances() {
    return distances != null;
  }

  /**
   * The distance from node {@code a} to node {@code b} in the source's table (SLIT units, 10 =
   * local).
   *
   * @throws IllegalStateException when the source had no table
   * @throws IllegalArgumentException for an unknown node
   */
  public int distance(int a, int b) {
    if (distances == null) {
      throw new IllegalStateException(source + " has no NUMA distance table");
    }
    return distances[nodeIndex(a)][nodeIndex(b)];
  }

  /** The data and unified caches, in source order. */
  public List<CacheRecord> caches() {
    return caches;
  }

  /** Number of data or unified caches of {@code level} (the README's "L3" column for 3). */
  public int cacheCount(int level) {
    return (int) caches.stream().filter(c -> c.level() == level).count();
  }

  /** The most online hardware threads any core has. */
  public int smtWidth() {
    return threadsPerCore().isEmpty() ? 0 : threadsPerCore().lastKey();
  }

  /** Online threads per core → number of cores with that many, ascending. */
  public SortedMap<Integer, Integer> threadsPerCore() {
    Map<Integer, Integer> threads = new TreeMap<>();
    for (CpuRecord r : cpus) {
      if (r.online()) {
        threads.merge(r.coreId(), 1, Integer::sum);
      }
    }
    SortedMap<Integer, Integer> histogram = new TreeMap<>();
    threads.values().forEach(t -> histogram.merge(t, 1, Integer::sum));
    return Collections.unmodifiableSortedMap(histogram);
  }

  /** Whether online CPUs have different capacities. */
  public boolean isAsymmetricCapacity() {
    return cpus.stream().filter(CpuRecord::online).mapToInt(CpuRecord::capacity).distinct().count()
        > 1;
  }

  /** Descriptive facts from the source (CPU model, OS release, ...), in source order. */
  public Map<String, String> info() {
    return info;
  }

  /** What the importer assumed or left out, one sentence each. */
  public List<String> notes() {
    return notes;
  }

  /**
   * The {@code Topology} of this machine, named after the source file. Group ids go over as they
   * are (dense and machine-wide, so they satisfy every scope the builder applies). Two cases need a
   * rule, because the builder gives every possible CPU a place:
   *
   * <ul>
   *   <li>an online CPU of no known node joins the lowest node that has CPUs: x86 Linux moves the
   *       CPUs of a memoryless or offline node to the nearest online node in the same way ({@code
   *       init_cpu_to_node()});
   *   <li>an offline CPU, whose place no source reports, joins package, die and LLC 0 as a core of
   *       its own, on the lowest node; the domain builder never sees it, since domains cover online
   *       CPUs only and it compares the cluster and LLC masks on online CPUs (in the kernel an
   *       offline CPU is in no online CPU's masks).
   * </ul>
   *
   * @throws TopologyImportException when the builder rejects the data (e.g. a distance outside
   *     10..255), naming the source
   */
  public Topology toTopology() {
    return TopologyMapping.toTopology(this);
  }

  /** The source's file name without directory and extension, as a topology name. */
  public String name() {
    String base = source.replace('\\', '/');
    base = base.substring(base.lastIndexOf('/') + 1);
    int dot = base.lastIndexOf('.');
    return dot > 0 ? base.substring(0, dot) : base.isEmpty() ? format : base;
  }

  private int distinctOnline(int kind) {
    BitSet seen = new BitSet();
    for (CpuRecord r : cpus) {
      if (r.online()) {
        seen.set(groupId(r, kind));
      }
    }
    return seen.cardinality();
  }

  static int groupId(CpuRecord r, int kind) {
    switch (kind) {
      case 0:
        return r.packageId();
      case 1:
        return r.dieId();
      case 2:
        return r.llcId();
      case 3:
        return r.clusterId();
      default:
        return r.coreId();
    }
  }

  private int nodeIndex(int node) {
    int index = Arrays.binarySearch(nodeIds, node);
    if (index < 0) {
      throw new IllegalArgumentException(
          source + " has no NUMA node " + node + " (nodes " + Arrays.toString(nodeIds) + ")");
    }
    return index;
  }

  private static int[][] deepCopy(int[][] m) {
    int[][] copy = new int[m.length][];
    for (int i = 0; i < m.length; i++) {
      copy[i] = m[i].clone();
    }
    return copy;
  }

  @Override
  public String toString() {
    return "ImportedTopology["
        + source
        + " ("
        + format
        + "): "
        + packageCount()
        + " packages, "
        + nodeCount()
        + " nodes, "
        + cacheCount(3)
        + " L3, "
        + coreCount()
        + " cores, "
        + onlineCount()
        + " PUs, SMT "
        + threadsPerCore()
        + "]";
  }
}
