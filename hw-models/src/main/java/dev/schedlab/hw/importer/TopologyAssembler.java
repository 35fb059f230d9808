package dev.schedlab.hw.importer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects what an importer found per CPU, as opaque group keys, and turns it into an {@link
 * ImportedTopology}: assigns dense group ids in order of each group's lowest CPU, fills the
 * documented defaults (die = package, LLC = die, cluster = core) and rejects groups that do not
 * nest (core ⊆ cluster ⊆ LLC ⊆ package, die ⊆ package).
 */
final class TopologyAssembler {

  private static final String[] KIND_NAMES = {"package", "die", "LLC", "cluster", "core"};

  private record Entry(Object[] keys, int node, int capacity, boolean allowed) {}

  private final String source;
  private final String format;
  private final int nrCpuIds;
  private final TreeMap<Integer, Entry> online = new TreeMap<>();
  private final TreeMap<Integer, Boolean> offline = new TreeMap<>();
  private final List<CacheRecord> caches = new ArrayList<>();
  private final Map<String, String> info = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  private int[] nodeIds = new int[0];
  private int[][] distances;

  TopologyAssembler(String source, String format, int nrCpuIds) {
    if (nrCpuIds < 1 || nrCpuIds > 8192) {
      throw new TopologyImportException(
          source, "CPU numbers reach " + (nrCpuIds - 1) + "; supported are 0..8191");
    }
    this.source = source;
    this.format = format;
    this.nrCpuIds = nrCpuIds;
  }

  /**
   * Records an online CPU. A null key takes the default: die → package, LLC → die, cluster → core.
   * Keys are compared with {@code equals} within one kind only.
   */
  void online(
      int cpu,
      Object packageKey,
      Object dieKey,
      Object llcKey,
      Object clusterKey,
      Object coreKey,
      int node,
      int capacity,
      boolean allowed) {
    checkNew(cpu);
    if (packageKey == null || coreKey == null) {
      throw new IllegalArgumentException("package and core keys are required");
    }
    Object die = dieKey != null ? dieKey : packageKey;
    Object llc = llcKey != null ? llcKey : die;
    Object cluster = clusterKey != null ? clusterKey : coreKey;
    online.put(
        cpu,
        new Entry(new Object[] {packageKey, die, llc, cluster, coreKey}, node, capacity, allowed));
  }

  /** Records a CPU that exists but is offline. */
  void offline(int cpu, boolean allowed) {
    checkNew(cpu);
    offline.put(cpu, allowed);
  }

  /** The NUMA nodes (ascending, unique) and their distance table (null when unknown). */
  void nodes(int[] ids, int[][] table) {
    for (int i = 1; i < ids.length; i++) {
      if (ids[i] <= ids[i - 1]) {
        throw new IllegalArgumentException("node ids must ascend");
      }
    }
    this.nodeIds = ids.clone();
    this.distances = table;
  }

  void cache(int level, long sizeBytes, BitSet cpus) {
    caches.add(new CacheRecord(level, sizeBytes, cpus));
  }

  void info(String key, String value) {
    info.putIfAbsent(key, value);
  }

  void note(String note) {
    if (!notes.contains(note)) {
      notes.add(note);
    }
  }

  ImportedTopology build() {
    if (online.isEmpty()) {
      throw new TopologyImportException(source, "no online CPU found");
    }
    int kinds = KIND_NAMES.length;
    List<Map<Object, Integer>> dense = new ArrayList<>();
    for (int k = 0; k < kinds; k++) {
      dense.add(new HashMap<>());
    }
    Map<Integer, int[]> ids = new TreeMap<>();
    online.forEach(
        (cpu, e) -> {
          int[] id = new int[kinds];
          for (int k = 0; k < kinds; k++) {
            Map<Object, Integer> m = dense.get(k);
            id[k] = m.computeIfAbsent(e.keys()[k], key -> m.size());
          }
          ids.put(cpu, id);
        });
    // core ⊆ cluster ⊆ LLC ⊆ package, die ⊆ package
    requireNesting(ids, 4, 3);
    requireNesting(ids, 3, 2);
    requireNesting(ids, 2, 0);
    requireNesting(ids, 1, 0);
    if (findSplit(ids, 2, 1) != null) {
      note("an LLC spans several dies, so dies are ignored (die = package)");
      ids.values().forEach(id -> id[1] = id[0]);
    }
    for (Map.Entry<Integer, Entry> e : online.entrySet()) {
      int node = e.getValue().node();
      if (node >= 0 && Arrays.binarySearch(nodeIds, node) < 0) {
        throw new TopologyImportException(
            source,
            "CPU "
                + e.getKey()
                + " is on NUMA node "
                + node
                + " which the node list does not name");
      }
    }
    List<CpuRecord> records = new ArrayList<>();
    TreeMap<Integer, CpuRecord> all = new TreeMap<>();
    online.forEach(
        (cpu, e) -> {
          int[] id = ids.get(cpu);
          all.put(
              cpu,
              new CpuRecord(
                  cpu,
                  id[0],
                  id[1],
                  id[2],
                  id[3],
                  id[4],
                  e.node(),
                  e.capacity(),
                  true,
                  e.allowed()));
        });
    offline.forEach((cpu, allowed) -> all.put(cpu, CpuRecord.offline(cpu, allowed)));
    records.addAll(all.values());
    return new ImportedTopology(
        source, format, nrCpuIds, renumber(records), nodeIds, distances, caches, info, notes);
  }

  /** Dense ids in order of each group's lowest CPU (ids above were in CPU order too). */
  private static List<CpuRecord> renumber(List<CpuRecord> records) {
    int kinds = KIND_NAMES.length;
    List<Map<Integer, Integer>> maps = new ArrayList<>();
    for (int k = 0; k < kinds; k++) {
      maps.add(new HashMap<>());
    }
    List<CpuRecord> out = new ArrayList<>();
    for (CpuRecord r : records) {
      if (!r.online()) {
        out.add(r);
        continue;
      }
      int[] id = new int[kinds];
      for (int k = 0; k < kinds; k++) {
        Map<Integer, Integer> m = maps.get(k);
        id[k] = m.computeIfAbsent(ImportedTopology.groupId(r, k), x -> m.size());
      }
      out.add(
          new CpuRecord(
              r.cpu(),
              id[0],
              id[1],
              id[2],
              id[3],
              id[4],
              r.node(),
              r.capacity(),
              true,
              r.allowed()));
    }
    return out;
  }

  private void requireNesting(Map<Integer, int[]> ids, int child, int parent) {
    int[] split = findSplit(ids, child, parent);
    if (split != null) {
      throw new TopologyImportException(
          source,
          "CPUs "
              + split[0]
              + " and "
              + split[1]
              + " share a "
              + KIND_NAMES[child]
              + " but not a "
              + KIND_NAMES[parent]
              + " (groups do not nest)");
    }
  }

  /** Two CPUs in one {@code child} group but different {@code parent} groups, or null. */
  private static int[] findSplit(Map<Integer, int[]> ids, int child, int parent) {
    Map<Integer, int[]> firstOf = new HashMap<>();
    for (Map.Entry<Integer, int[]> e : ids.entrySet()) {
      int[] id = e.getValue();
      int[] seen = firstOf.putIfAbsent(id[child], new int[] {e.getKey(), id[parent]});
      if (seen != null && seen[1] != id[parent]) {
        return new int[] {seen[0], e.getKey()};
      }
    }
    return null;
  }

  private void checkNew(int cpu) {
    if (cpu < 0 || cpu >= nrCpuIds) {
      throw new TopologyImportException(source, "CPU " + cpu + " is outside 0.." + (nrCpuIds - 1));
    }
    if (online.containsKey(cpu) || offline.containsKey(cpu)) {
      throw new TopologyImportException(source, "CPU " + cpu + " is described twice");
    }
  }
}
