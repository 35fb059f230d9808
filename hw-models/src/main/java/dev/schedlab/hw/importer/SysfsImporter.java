package dev.schedlab.hw.importer;

import dev.schedlab.spi.FileProblems;
import dev.schedlab.text.InputText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads a Linux sysfs tree: {@code devices/system/cpu/cpuN/topology/*}, {@code cpuN/cache/index*},
 * {@code cpuN/cpu_capacity}, {@code cpuN/cpufreq/cpuinfo_max_freq}, the {@code online} files and
 * {@code devices/system/node/nodeN/{cpulist,cpumap,distance}}.
 *
 * <p>The root is the directory holding {@code devices/}: {@code /sys} for the live machine (the
 * default), or an unpacked {@code hwloc-gather-topology} dump, in which case the directory holding
 * {@code sys/} is accepted too.
 *
 * <p>Groups are built from the kernel's masks, not its id numbers, so that packages without a
 * usable {@code physical_package_id} (POWER LPARs report -1) still separate: core = {@code
 * thread_siblings_list} (or {@code core_cpus_list}), package = {@code package_cpus_list} (or {@code
 * core_siblings_list}), die = {@code die_cpus_list} when {@code die_id} is not -1, cluster = {@code
 * cluster_cpus_list}, else the CPUs sharing the L2; LLC = the CPUs sharing the highest-level data
 * or unified cache. Every mask is restricted to online CPUs and must be symmetric: each CPU it
 * lists must list the same set, otherwise the import stops with one {@link TopologyImportException}
 * naming both files.
 *
 * <p>Capacity comes from {@code cpu_capacity} (arm64, RISC-V); without it, when {@code
 * cpuinfo_max_freq} differs between CPUs (x86 hybrid), from the maximum frequency relative to the
 * fastest CPU × 1024, as hwloc derives cpukinds; otherwise 1024.
 */
public final class SysfsImporter {

  /** The live machine's sysfs. */
  public static final Path DEFAULT_ROOT = Path.of("/sys");

  private static final Pattern CPU_DIR = Pattern.compile("cpu(\\d+)");
  private static final Pattern NODE_DIR = Pattern.compile("node(\\d+)");

  private final Path root;
  private final Path cpuDir;
  private final String source;

  private SysfsImporter(Path root) {
    this.root = root;
    this.source = root.toString();
    Path direct = root.resolve("devices/system/cpu");
    Path nested = root.resolve("sys/devices/system/cpu");
    if (Files.isDirectory(direct)) {
      cpuDir = direct;
    } else if (Files.isDirectory(nested)) {
      cpuDir = nested;
    } else {
      throw new TopologyImportException(
          source, "no devices/system/cpu directory (expected a sysfs root such as /sys)");
    }
  }

  /** Reads the sysfs tree under {@code root}. */
  public static ImportedTopology read(Path root) {
    return new SysfsImporter(root).read();
  }

  private ImportedTopology read() {
    TreeMap<Integer, Path> cpuDirs = listNumbered(cpuDir, CPU_DIR);
    if (cpuDirs.isEmpty()) {
      throw fail("devices/system/cpu has no cpuN directories");
    }
    int nrCpuIds = cpuDirs.lastKey() + 1;
    String possible = readOptional(cpuDir.resolve("possible"));
    if (possible != null && !possible.isBlank()) {
      nrCpuIds = Math.max(nrCpuIds, cpuList(possible, "cpu/possible").length());
    }
    BitSet online = onlineCpus(cpuDirs);
    if (online.isEmpty()) {
      throw fail("no online CPU");
    }
    TopologyAssembler out = new TopologyAssembler(source, "sysfs", nrCpuIds);

    Map<Integer, BitSet> core = new TreeMap<>();
    Map<Integer, BitSet> pkg = new TreeMap<>();
    Map<Integer, BitSet> die = new TreeMap<>();
    Map<Integer, BitSet> cluster = new TreeMap<>();
    Map<Integer, Map<Integer, BitSet>> cacheByLevel = new TreeMap<>();
    Map<Integer, Long> cacheSize = new HashMap<>();
    for (int cpu = online.nextSetBit(0); cpu >= 0; cpu = online.nextSetBit(cpu + 1)) {
      Path dir = cpuDirs.get(cpu);
      if (dir == null) {
        throw fail("CPU " + cpu + " is online but has no cpu" + cpu + " directory");
      }
      Path topo = dir.resolve("topology");
      core.put(cpu, mask(cpu, online, topo, true, "thread_siblings", "core_cpus"));
      pkg.put(cpu, mask(cpu, online, topo, true, "package_cpus", "core_siblings"));
      String dieId = readOptional(topo.resolve("die_id"));
      if (dieId != null && !dieId.trim().equals("-1")) {
        BitSet d = mask(cpu, online, topo, false, "die_cpus");
        if (d != null) {
          die.put(cpu, d);
        }
      }
      BitSet c = mask(cpu, online, topo, false, "cluster_cpus");
      if (c != null) {
        cluster.put(cpu, c);
      }
      readCaches(cpu, dir, online, cacheByLevel, cacheSize);
    }
    requireSymmetric(core, "topology/thread_siblings_list");
    requireSymmetric(pkg, "topology/package_cpus_list");
    requireSymmetric(die, "topology/die_cpus_list");
    requireSymmetric(cluster, "topology/cluster_cpus_list");
    for (Map.Entry<Integer, Map<Integer, BitSet>> level : cacheByLevel.entrySet()) {
      requireSymmetric(level.getValue(), "cache level " + level.getKey() + " shared_cpu_list");
    }
    if (die.size() != online.cardinality()) {
      die.clear();
    }

    int[] nodeIds = nodes(online, out);
    Map<Integer, Integer> nodeOf = nodeOfCpu(online, nodeIds, cpuDirs);
    Map<Integer, Integer> capacity = capacities(online, cpuDirs, out);

    for (int cpu = online.nextSetBit(0); cpu >= 0; cpu = online.nextSetBit(cpu + 1)) {
      BitSet llc = null;
      BitSet l2 = null;
      for (Map.Entry<Integer, Map<Integer, BitSet>> level : cacheByLevel.entrySet()) {
        BitSet m = level.getValue().get(cpu);
        if (m != null) {
          llc = m;
          if (level.getKey() == 2) {
            l2 = m;
          }
        }
      }
      BitSet clusterMask = cluster.containsKey(cpu) ? cluster.get(cpu) : l2;
      out.online(
          cpu,
          pkg.get(cpu),
          die.get(cpu),
          llc == null ? null : List.of("llc", llc),
          clusterMask == null ? null : List.of("cluster", clusterMask),
          core.get(cpu),
          nodeOf.getOrDefault(cpu, -1),
          capacity.getOrDefault(cpu, 1024),
          true);
    }
    for (int cpu : cpuDirs.keySet()) {
      if (!online.get(cpu)) {
        out.offline(cpu, true);
      }
    }
    for (Map.Entry<Integer, Map<Integer, BitSet>> level : cacheByLevel.entrySet()) {
      TreeSet<BitSet> distinct = new TreeSet<>(SysfsImporter::compareSets);
      distinct.addAll(level.getValue().values());
      long size = cacheSize.getOrDefault(level.getKey(), 0L);
      distinct.forEach(m -> out.cache(level.getKey(), size, m));
    }
    out.info("Backend", "sysfs");
    return out.build();
  }

  // --- online ------------------------------------------------------------------------------------

  private BitSet onlineCpus(TreeMap<Integer, Path> cpuDirs) {
    String list = readOptional(cpuDir.resolve("online"));
    if (list != null && !list.isBlank()) {
      return cpuList(list, "cpu/online");
    }
    BitSet online = new BitSet();
    for (Map.Entry<Integer, Path> e : cpuDirs.entrySet()) {
      String flag = readOptional(e.getValue().resolve("online"));
      boolean on =
          flag != null
              ? flag.trim().equals("1")
              : Files.isDirectory(e.getValue().resolve("topology"));
      if (on) {
        online.set(e.getKey());
      }
    }
    return online;
  }

  // --- topology masks ----------------------------------------------------------------------------

  /**
   * Reads {@code <name>_list} (or the hex {@code <name>} map) of the first name that exists,
   * restricted to online CPUs; null when none exists and {@code required} is false.
   */
  private BitSet mask(int cpu, BitSet online, Path dir, boolean required, String... names) {
    for (String name : names) {
      String prefix = "cpu" + cpu + "/" + dir.getFileName() + "/";
      String list = readOptional(dir.resolve(name + "_list"));
      String map = list == null ? readOptional(dir.resolve(name)) : null;
      if (list != null || map != null) {
        String relative = prefix + (list != null ? name + "_list" : name);
        BitSet m = list != null ? cpuList(list, relative) : hexMask(map, relative);
        m.and(online);
        if (!m.get(cpu)) {
          throw fail(
              relative
                  + " ("
                  + SysfsText.toCpuList(m)
                  + " online) does not contain"
                  + " CPU "
                  + cpu
                  + " itself");
        }
        return m;
      }
    }
    if (required) {
      throw fail(
          "cpu"
              + cpu
              + "/"
              + dir.getFileName()
              + "/"
              + names[0]
              + "_list is missing (and so is every alternative: "
              + String.join(", ", names)
              + ")");
    }
    return null;
  }

  private void requireSymmetric(Map<Integer, BitSet> masks, String file) {
    for (Map.Entry<Integer, BitSet> e : masks.entrySet()) {
      BitSet m = e.getValue();
      for (int other = m.nextSetBit(0); other >= 0; other = m.nextSetBit(other + 1)) {
        BitSet theirs = masks.get(other);
        if (theirs == null || !theirs.equals(m)) {
          throw fail(
              "asymmetric sibling lists: cpu"
                  + e.getKey()
                  + " "
                  + file
                  + " gives "
                  + SysfsText.toCpuList(m)
                  + " but cpu"
                  + other
                  + " "
                  + file
                  + " gives "
                  + (theirs == null ? "nothing" : SysfsText.toCpuList(theirs)));
        }
      }
    }
  }

  // --- caches ------------------------------------------------------------------------------------

  private void readCaches(
      int cpu,
      Path dir,
      BitSet online,
      Map<Integer, Map<Integer, BitSet>> byLevel,
      Map<Integer, Long> sizes) {
    Path cacheDir = dir.resolve("cache");
    if (!Files.isDirectory(cacheDir)) {
      return;
    }
    for (Path index : listNumbered(cacheDir, Pattern.compile("index(\\d+)")).values()) {
      String relative = "cpu" + cpu + "/cache/" + index.getFileName();
      String type = readOptional(index.resolve("type"));
      String levelText = readOptional(index.resolve("level"));
      if (type == null || levelText == null || type.trim().equals("Instruction")) {
        continue;
      }
      int level;
      try {
        level = Integer.parseInt(levelText.trim());
      } catch (NumberFormatException e) {
        throw fail(relative + "/level " + InputText.quote(levelText.trim()) + " is not a number");
      }
      if (level < 1 || level > 9) {
        throw fail(relative + "/level " + level + " is out of range");
      }
      BitSet shared;
      String list = readOptional(index.resolve("shared_cpu_list"));
      if (list != null) {
        shared = cpuList(list, relative + "/shared_cpu_list");
      } else {
        String map = readOptional(index.resolve("shared_cpu_map"));
        if (map == null) {
          continue;
        }
        shared = hexMask(map, relative + "/shared_cpu_map");
      }
      shared.and(online);
      if (!shared.get(cpu)) {
        throw fail(relative + "/shared_cpu_list does not contain CPU " + cpu + " itself");
      }
      byLevel.computeIfAbsent(level, l -> new TreeMap<>()).put(cpu, shared);
      String size = readOptional(index.resolve("size"));
      if (size != null && !size.isBlank()) {
        try {
          sizes.putIfAbsent(level, SysfsText.parseSize(size));
        } catch (IllegalArgumentException e) {
          throw fail(relative + "/size: " + e.getMessage());
        }
      }
    }
  }

  // --- NUMA --------------------------------------------------------------------------------------

  private Path nodeDir() {
    return cpuDir.getParent().resolve("node");
  }

  private int[] nodes(BitSet online, TopologyAssembler out) {
    TreeMap<Integer, Path> dirs = listNumbered(nodeDir(), NODE_DIR);
    if (dirs.isEmpty()) {
      out.note("no devices/system/node directories: one node 0 assumed");
      out.nodes(new int[] {0}, null);
      return new int[] {0};
    }
    int[] ids = dirs.keySet().stream().mapToInt(Integer::intValue).toArray();
    int[][] table = new int[ids.length][];
    for (int i = 0; i < ids.length; i++) {
      String relative = "node/node" + ids[i] + "/distance";
      String row = readOptional(dirs.get(ids[i]).resolve("distance"));
      if (row == null) {
        out.note("node" + ids[i] + "/distance is missing: the default 10/20 distances apply");
        table = null;
        break;
      }
      table[i] = distanceRow(row, relative, ids);
    }
    out.nodes(ids, table);
    return ids;
  }

  /** The row restricted to {@code ids}, working out which nodes its columns stand for. */
  private int[] distanceRow(String row, String relative, int[] ids) {
    String[] fields = row.trim().split("\\s+");
    int[] values = new int[fields.length];
    for (int j = 0; j < fields.length; j++) {
      try {
        values[j] = Integer.parseInt(fields[j]);
      } catch (NumberFormatException e) {
        throw fail(relative + ": " + InputText.quote(fields[j]) + " is not a number");
      }
      if (values[j] < 1) {
        throw fail(relative + ": distance " + values[j] + " is not positive");
      }
    }
    int[] columns = null;
    if (fields.length == ids.length) {
      columns = ids;
    } else {
      for (String list : new String[] {"possible", "online", "has_cpu"}) {
        String text = readOptional(nodeDir().resolve(list));
        if (text != null && !text.isBlank()) {
          BitSet set = cpuList(text, "node/" + list);
          if (set.cardinality() == fields.length) {
            columns = set.stream().toArray();
            break;
          }
        }
      }
    }
    if (columns == null) {
      throw fail(
          relative
              + " has "
              + fields.length
              + " entries but there are "
              + ids.length
              + " node directories and no node list of that length");
    }
    int[] out = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      int column = Arrays.binarySearch(columns, ids[i]);
      if (column < 0) {
        throw fail(relative + " has no column for node " + ids[i]);
      }
      out[i] = values[column];
    }
    return out;
  }

  private Map<Integer, Integer> nodeOfCpu(
      BitSet online, int[] nodeIds, TreeMap<Integer, Path> cpuDirs) {
    Map<Integer, Integer> nodeOf = new HashMap<>();
    TreeMap<Integer, Path> dirs = listNumbered(nodeDir(), NODE_DIR);
    if (dirs.isEmpty()) {
      online.stream().forEach(cpu -> nodeOf.put(cpu, 0));
      return nodeOf;
    }
    for (Map.Entry<Integer, Path> e : dirs.entrySet()) {
      String relative = "node/node" + e.getKey() + "/cpulist";
      String list = readOptional(e.getValue().resolve("cpulist"));
      BitSet cpus;
      if (list != null) {
        cpus = cpuList(list, relative);
      } else {
        String map = readOptional(e.getValue().resolve("cpumap"));
        if (map == null) {
          continue;
        }
        cpus = hexMask(map, "node/node" + e.getKey() + "/cpumap");
      }
      cpus.and(online);
      for (int cpu = cpus.nextSetBit(0); cpu >= 0; cpu = cpus.nextSetBit(cpu + 1)) {
        Integer previous = nodeOf.put(cpu, e.getKey());
        if (previous != null) {
          throw fail("CPU " + cpu + " is listed by node" + previous + " and node" + e.getKey());
        }
      }
    }
    for (int cpu = online.nextSetBit(0); cpu >= 0; cpu = online.nextSetBit(cpu + 1)) {
      if (!nodeOf.containsKey(cpu)) {
        TreeMap<Integer, Path> links = listNumbered(cpuDirs.get(cpu), NODE_DIR);
        if (!links.isEmpty() && Arrays.binarySearch(nodeIds, links.firstKey()) >= 0) {
          nodeOf.put(cpu, links.firstKey());
        }
      }
    }
    return nodeOf;
  }

  // --- capacity ----------------------------------------------------------------------------------

  private Map<Integer, Integer> capacities(
      BitSet online, TreeMap<Integer, Path> cpuDirs, TopologyAssembler out) {
    Map<Integer, Integer> capacity = new HashMap<>();
    Map<Integer, Long> maxFreq = new HashMap<>();
    for (int cpu = online.nextSetBit(0); cpu >= 0; cpu = online.nextSetBit(cpu + 1)) {
      Path dir = cpuDirs.get(cpu);
      String c = readOptional(dir.resolve("cpu_capacity"));
      if (c != null) {
        int value;
        try {
          value = Integer.parseInt(c.trim());
        } catch (NumberFormatException e) {
          throw fail(
              "cpu" + cpu + "/cpu_capacity " + InputText.quote(c.trim()) + " is not a number");
        }
        if (value < 1 || value > 1024) {
          throw fail("cpu" + cpu + "/cpu_capacity " + value + " is not in 1..1024");
        }
        capacity.put(cpu, value);
      }
      String f = readOptional(dir.resolve("cpufreq/cpuinfo_max_freq"));
      if (f != null && f.trim().matches("\\d+")) {
        maxFreq.put(cpu, Long.parseLong(f.trim()));
      }
    }
    if (!capacity.isEmpty()) {
      if (capacity.size() != online.cardinality()) {
        throw fail(
            "cpu_capacity exists for "
                + capacity.size()
                + " of "
                + online.cardinality()
                + " online CPUs");
      }
      return capacity;
    }
    if (maxFreq.size() == online.cardinality()
        && maxFreq.values().stream().distinct().count() > 1) {
      long fastest = maxFreq.values().stream().mapToLong(Long::longValue).max().orElse(1);
      maxFreq.forEach(
          (cpu, f) -> capacity.put(cpu, (int) Math.max(1, Math.round(1024.0 * f / fastest))));
      out.note("capacity from cpufreq/cpuinfo_max_freq relative to the fastest CPU");
    }
    return capacity;
  }

  // --- helpers -----------------------------------------------------------------------------------

  private BitSet cpuList(String text, String relative) {
    try {
      return SysfsText.parseCpuList(text);
    } catch (IllegalArgumentException e) {
      throw fail(relative + ": " + e.getMessage());
    }
  }

  private BitSet hexMask(String text, String relative) {
    try {
      return SysfsText.parseHexMask(text);
    } catch (IllegalArgumentException e) {
      throw fail(relative + ": " + e.getMessage());
    }
  }

  private TreeMap<Integer, Path> listNumbered(Path dir, Pattern pattern) {
    TreeMap<Integer, Path> out = new TreeMap<>();
    if (dir == null || !Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      entries.forEach(
          p -> {
            Matcher m = pattern.matcher(p.getFileName().toString());
            if (m.matches() && m.group(1).length() < 6) {
              out.put(Integer.parseInt(m.group(1)), p);
            }
          });
    } catch (IOException e) {
      throw fail("cannot list " + root.relativize(dir) + ": " + FileProblems.describe(e));
    }
    return out;
  }

  /** The file's text with NUL bytes dropped, or null when it does not exist. */
  private String readOptional(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).replace("\0", "");
    } catch (IOException e) {
      throw fail("cannot read " + root.relativize(file) + ": " + FileProblems.describe(e));
    }
  }

  private static int compareSets(BitSet a, BitSet b) {
    return Integer.compare(a.nextSetBit(0), b.nextSetBit(0)) != 0
        ? Integer.compare(a.nextSetBit(0), b.nextSetBit(0))
        : a.toString().compareTo(b.toString());
  }

  private TopologyImportException fail(String problem) {
    return new TopologyImportException(source, problem);
  }
}
