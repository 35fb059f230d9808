package dev.schedlab.hw.importer;

import dev.schedlab.spi.FileProblems;
import dev.schedlab.text.InputText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Reads hwloc XML as written by {@code lstopo --of xml}: format v2 ({@code <topology
 * version="2.0">}, also accepted for 3.x) and v1 ({@code <topology>} without a version).
 *
 * <p>What is taken from the file:
 *
 * <ul>
 *   <li>CPUs: every {@code PU} object (its {@code os_index}); CPUs in the root's {@code
 *       complete_cpuset} without a PU object are offline; the root's {@code allowed_cpuset} decides
 *       {@link CpuRecord#allowed()}.
 *   <li>Cores: the nearest {@code Core} ancestor (the PU itself when there is none).
 *   <li>Packages: the nearest {@code Package} (v1 also {@code Socket}); the whole machine when
 *       there is none. Dies: the nearest {@code Die}.
 *   <li>LLC: the highest-level data or unified cache above the PU (v2 {@code L3Cache}, v1 {@code
 *       Cache depth="3"}; instruction caches are ignored).
 *   <li>Clusters: a {@code Group} with {@code subtype="Cluster"}, else the L2 cache above the PU (a
 *       cluster whose L2 is private is simply the core).
 *   <li>NUMA nodes: every {@code NUMANode} object (memory children in v2, parents in v1); a PU
 *       belongs to the node whose cpuset contains it (the lowest {@code os_index} when several do,
 *       as with MCDRAM next to DDR), or to none (node -1).
 *   <li>Distances: v2 {@code distances2} of type NUMANode (latency kind preferred), v1 {@code
 *       distances} (relative values × {@code latency_base}).
 *   <li>Capacity: v2 {@code cpukind} {@code LinuxCapacity}; else {@code FrequencyMaxMHz} relative
 *       to the fastest kind × 1024; else, for kinds known only by rank ({@code CoreType}, {@code
 *       forced_efficiency}), an assumed ratio per rank below the top (see {@link
 *       #DEFAULT_EFFICIENCY_KIND_CAPACITY}).
 * </ul>
 *
 * <p>Every object with CPUs must have a {@code cpuset}; a child's cpuset must lie inside its
 * parent's, and siblings' cpusets must not overlap. Any violation, malformed XML, a DOCTYPE with
 * entity declarations, or a wrong root element ends the import with one {@link
 * TopologyImportException} naming the file and the problem. I/O objects (PCI, OS devices, Misc) are
 * skipped.
 */
public final class HwlocXmlImporter {

  /**
   * Assumed capacity ratio between neighbouring cpukinds that hwloc ranks by efficiency only
   * ({@code CoreType} without {@code LinuxCapacity} or {@code FrequencyMaxMHz}, as in CPUID-only
   * exports). 0.75 is the ratio of the E-core to P-core maximum frequency of the i7-1370P (3.9 vs
   * 5.2 GHz, Intel ARK); an assumption for every other hybrid part.
   */
  public static final double DEFAULT_EFFICIENCY_KIND_CAPACITY = 0.75;

  private static final Set<String> IO_TYPES =
      Set.of("Bridge", "PCIDev", "OSDev", "Misc", "MemCache");
  private static final Set<String> CPU_TYPES =
      Set.of(
          "System",
          "Machine",
          "Package",
          "Socket",
          "Die",
          "Group",
          "Core",
          "PU",
          "Cache",
          "NUMANode",
          "L1Cache",
          "L2Cache",
          "L3Cache",
          "L4Cache",
          "L5Cache",
          "L1iCache",
          "L2iCache",
          "L3iCache");

  /** Nesting bound of hwloc objects, as the rt-app reader bounds JSON nesting. */
  static final int MAX_OBJECT_DEPTH = 256;

  private final double efficiencyKindCapacity;

  private HwlocXmlImporter(double efficiencyKindCapacity) {
    if (!(efficiencyKindCapacity > 0 && efficiencyKindCapacity <= 1)) {
      throw new IllegalArgumentException(
          "efficiency kind capacity ratio " + efficiencyKindCapacity + " not in (0, 1]");
    }
    this.efficiencyKindCapacity = efficiencyKindCapacity;
  }

  /** Reads {@code file} with the default assumptions. */
  public static ImportedTopology read(Path file) {
    return read(file, DEFAULT_EFFICIENCY_KIND_CAPACITY);
  }

  /**
   * Reads {@code file}; {@code efficiencyKindCapacity} is the assumed capacity ratio between
   * cpukinds known only by efficiency rank.
   */
  public static ImportedTopology read(Path file, double efficiencyKindCapacity) {
    String source = file.getFileName() == null ? file.toString() : file.getFileName().toString();
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in, source, efficiencyKindCapacity);
    } catch (IOException e) {
      throw new TopologyImportException(
          file.toString(), "cannot read: " + FileProblems.describe(e), e);
    }
  }

  /** Parses XML from {@code in}; {@code source} names it in messages. */
  public static ImportedTopology parse(InputStream in, String source) {
    return parse(in, source, DEFAULT_EFFICIENCY_KIND_CAPACITY);
  }

  /** Parses XML from {@code in} with an explicit efficiency-rank capacity ratio. */
  public static ImportedTopology parse(
      InputStream in, String source, double efficiencyKindCapacity) {
    Document document = SafeXml.parse(in, source);
    return new HwlocXmlImporter(efficiencyKindCapacity).read(document, source);
  }

  // ---------------------------------------------------------------------------------------------

  private String source;
  private boolean v2;
  private final List<HwlocObject> pus = new ArrayList<>();
  private final List<HwlocObject> numaNodes = new ArrayList<>();
  private final List<HwlocObject> dataCaches = new ArrayList<>();

  private ImportedTopology read(Document document, String sourceName) {
    this.source = sourceName;
    Element root = document.getDocumentElement();
    if (!root.getTagName().equals("topology")) {
      throw fail("root element is <" + root.getTagName() + ">, expected <topology>");
    }
    String version = root.getAttribute("version").trim();
    if (version.isEmpty()) {
      v2 = false;
    } else if (version.startsWith("2.") || version.startsWith("3.")) {
      v2 = true;
    } else {
      throw fail(
          "unsupported hwloc XML version "
              + InputText.quote(version)
              + " (expected 2.x, 3.x or none)");
    }
    Element top = null;
    for (Element e : childElements(root, "object")) {
      top = e;
      break;
    }
    if (top == null) {
      throw fail("<topology> has no <object> child");
    }
    HwlocObject machine = build(top, null, 1);
    if (machine == null || machine.cpuset == null) {
      throw fail("the top object is not a machine with a cpuset");
    }
    if (pus.isEmpty()) {
      throw fail("no PU objects");
    }
    return assemble(root, machine);
  }

  private HwlocObject build(Element element, HwlocObject parent, int depth) {
    if (depth > MAX_OBJECT_DEPTH) {
      throw fail(
          "objects nested deeper than "
              + MAX_OBJECT_DEPTH
              + " levels (under "
              + parent.describe()
              + "); hwloc exports nest about 10");
    }
    String type = element.getAttribute("type");
    if (IO_TYPES.contains(type)) {
      return null;
    }
    if (!CPU_TYPES.contains(type)) {
      throw fail(
          "object type \""
              + type
              + "\""
              + (parent == null ? "" : " under " + parent.describe())
              + " is not an hwloc object type");
    }
    HwlocObject obj = new HwlocObject(element, type, parent);
    if (element.hasAttribute("os_index")) {
      obj.osIndex = parseInt(element.getAttribute("os_index"), obj, "os_index");
      if (obj.osIndex < 0) {
        throw fail(
            type
                + " os_index \""
                + element.getAttribute("os_index")
                + "\" is negative;"
                + " allowed 0 and above (the kernel's CPU or node number)");
      }
    }
    if (!element.hasAttribute("cpuset")) {
      throw fail(
          "object "
              + obj.describe()
              + (parent == null ? "" : " under " + parent.describe())
              + " has no cpuset attribute");
    }
    obj.cpuset = bitmap(element.getAttribute("cpuset"), obj, "cpuset", false);
    switch (type) {
      case "PU":
        registerPu(obj);
        break;
      case "NUMANode":
        if (obj.osIndex < 0) {
          throw fail("NUMANode without os_index");
        }
        numaNodes.add(obj);
        break;
      default:
        if (obj.isDataCache()) {
          if (type.equals("Cache") && !element.getAttribute("depth").trim().matches("[1-9]")) {
            throw fail("cache " + obj.describe() + " has no valid depth attribute");
          }
          dataCaches.add(obj);
        }
    }
    BitSet normalUnion = new BitSet();
    List<HwlocObject> normalSeen = new ArrayList<>();
    for (Element child : childElements(element, "object")) {
      HwlocObject c = build(child, obj, depth + 1);
      if (c == null) {
        continue;
      }
      if (!isSubset(c.cpuset, obj.cpuset)) {
        throw fail(
            "cpuset of "
                + c.describe()
                + " ("
                + child.getAttribute("cpuset")
                + ") is not inside its parent "
                + obj.describe()
                + " ("
                + element.getAttribute("cpuset")
                + ")");
      }
      boolean memory = v2 && c.type.equals("NUMANode");
      if (memory) {
        for (HwlocObject other : obj.memoryChildren) {
          if (other.cpuset.intersects(c.cpuset) && !other.cpuset.equals(c.cpuset)) {
            throw overlap(other, c);
          }
        }
        obj.memoryChildren.add(c);
      } else {
        if (normalUnion.intersects(c.cpuset)) {
          for (HwlocObject other : normalSeen) {
            if (other.cpuset.intersects(c.cpuset)) {
              throw overlap(other, c);
            }
          }
        }
        normalUnion.or(c.cpuset);
        normalSeen.add(c);
        obj.children.add(c);
      }
    }
    return obj;
  }

  private void registerPu(HwlocObject pu) {
    if (pu.osIndex < 0) {
      throw fail(
          "PU without os_index" + (pu.parent == null ? "" : " under " + pu.parent.describe()));
    }
    BitSet self = new BitSet();
    self.set(pu.osIndex);
    if (!pu.cpuset.equals(self)) {
      throw fail(
          "PU os_index "
              + pu.osIndex
              + " has cpuset "
              + pu.element.getAttribute("cpuset")
              + ", expected exactly CPU "
              + pu.osIndex);
    }
    pus.add(pu);
  }

  private TopologyImportException overlap(HwlocObject a, HwlocObject b) {
    BitSet common = (BitSet) a.cpuset.clone();
    common.and(b.cpuset);
    return fail(
        "cpusets of "
            + a.describe()
            + " and "
            + b.describe()
            + " overlap (CPU "
            + common.nextSetBit(0)
            + ")");
  }

  private ImportedTopology assemble(Element root, HwlocObject machine) {
    BitSet puSet = new BitSet();
    for (HwlocObject pu : pus) {
      if (puSet.get(pu.osIndex)) {
        throw fail("PU os_index " + pu.osIndex + " appears twice");
      }
      puSet.set(pu.osIndex);
    }
    BitSet complete =
        machine.element.hasAttribute("complete_cpuset")
            ? bitmap(
                machine.element.getAttribute("complete_cpuset"), machine, "complete_cpuset", false)
            : (BitSet) puSet.clone();
    BitSet allowed = null;
    if (machine.element.hasAttribute("allowed_cpuset")) {
      HwlocBitmap parsed =
          parseBitmap(machine.element.getAttribute("allowed_cpuset"), machine, "allowed_cpuset");
      allowed = parsed.infinite() ? null : parsed.bits();
    }
    int maxCpu = Math.max(puSet.length(), complete.length());
    TopologyAssembler out = new TopologyAssembler(source, v2 ? "hwloc-v2" : "hwloc-v1", maxCpu);

    int[] nodeIds = numaNodes.stream().mapToInt(n -> n.osIndex).sorted().toArray();
    for (int i = 1; i < nodeIds.length; i++) {
      if (nodeIds[i] == nodeIds[i - 1]) {
        throw fail("NUMANode os_index " + nodeIds[i] + " appears twice");
      }
    }
    out.nodes(nodeIds, distances(root, machine, nodeIds));

    Map<Integer, Integer> capacity = capacities(root, puSet, out);
    HwlocObject machineKey = machine;
    for (HwlocObject pu : pus) {
      HwlocObject core = pu;
      HwlocObject pkg = null;
      HwlocObject die = null;
      HwlocObject cluster = null;
      HwlocObject l2 = null;
      HwlocObject llc = null;
      for (HwlocObject a = pu.parent; a != null; a = a.parent) {
        switch (a.type) {
          case "Core":
            if (core == pu) {
              core = a;
            }
            break;
          case "Package":
          case "Socket":
            if (pkg == null) {
              pkg = a;
            }
            break;
          case "Die":
            if (die == null) {
              die = a;
            }
            break;
          case "Group":
            if (cluster == null && a.subtype().equalsIgnoreCase("Cluster")) {
              cluster = a;
            }
            break;
          default:
            if (a.isDataCache()) {
              if (a.cacheLevel() == 2 && l2 == null) {
                l2 = a;
              }
              if (llc == null || a.cacheLevel() > llc.cacheLevel()) {
                llc = a;
              }
            }
        }
      }
      if (cluster == null) {
        cluster = l2;
      }
      out.online(
          pu.osIndex,
          pkg != null ? pkg : machineKey,
          die,
          llc,
          cluster,
          core,
          nodeOf(pu.osIndex),
          capacity.getOrDefault(pu.osIndex, 1024),
          allowed == null || allowed.get(pu.osIndex));
    }
    for (int cpu = complete.nextSetBit(0); cpu >= 0; cpu = complete.nextSetBit(cpu + 1)) {
      if (!puSet.get(cpu)) {
        out.offline(cpu, allowed == null || allowed.get(cpu));
      }
    }
    if (complete.cardinality() > puSet.cardinality()) {
      out.note(
          "CPUs in complete_cpuset without a PU object are offline (or were disallowed and"
              + " dropped at export; hwloc does not say which)");
    }
    for (HwlocObject cache : dataCaches) {
      BitSet cpus = (BitSet) cache.cpuset.clone();
      cpus.and(puSet);
      long size = 0;
      String sizeText = cache.element.getAttribute("cache_size").trim();
      if (!sizeText.isEmpty()) {
        size = parseLong(sizeText, cache, "cache_size");
      }
      out.cache(cache.cacheLevel(), size, cpus);
    }
    collectInfo(machine, out);
    return out.build();
  }

  private int nodeOf(int cpu) {
    int best = -1;
    for (HwlocObject node : numaNodes) {
      if (node.cpuset.get(cpu) && (best < 0 || node.osIndex < best)) {
        best = node.osIndex;
      }
    }
    return best;
  }

  // --- distances ---------------------------------------------------------------------------------

  private int[][] distances(Element root, HwlocObject machine, int[] nodeIds) {
    if (nodeIds.length == 0) {
      return null;
    }
    Map<Integer, Integer> byOs = new TreeMap<>();
    double[][] values = v2 ? distancesV2(root, byOs) : distancesV1(machine, byOs);
    if (values == null) {
      return null;
    }
    int n = nodeIds.length;
    if (byOs.size() != n || !byOs.keySet().containsAll(toList(nodeIds))) {
      throw fail(
          "the NUMA distance table covers nodes "
              + byOs.keySet()
              + " but the topology has nodes "
              + toList(nodeIds));
    }
    int[][] table = new int[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double v = values[byOs.get(nodeIds[i])][byOs.get(nodeIds[j])];
        long rounded = Math.round(v);
        if (!(v > 0) || Math.abs(v - rounded) > 1e-6 || rounded > Integer.MAX_VALUE) {
          throw fail(
              "NUMA distance "
                  + v
                  + " between nodes "
                  + nodeIds[i]
                  + " and "
                  + nodeIds[j]
                  + " is not a positive integer");
        }
        table[i][j] = (int) rounded;
      }
    }
    return table;
  }

  private double[][] distancesV2(Element root, Map<Integer, Integer> byOs) {
    Element chosen = null;
    for (Element d : childElements(root, "distances2")) {
      if (!d.getAttribute("type").equals("NUMANode")) {
        continue;
      }
      long kind =
          d.getAttribute("kind").trim().matches("\\d+")
              ? Long.parseLong(d.getAttribute("kind").trim())
              : 0;
      boolean latency = d.getAttribute("name").equals("NUMALatency") || (kind & 4) != 0;
      if (chosen == null || latency) {
        chosen = d;
        if (latency) {
          break;
        }
      }
    }
    if (chosen == null) {
      return null;
    }
    int n = parseInt(chosen.getAttribute("nbobjs"), null, "distances2 nbobjs");
    if (n < 1 || n > 4096) {
      throw fail("distances2 nbobjs=" + n + " is out of range");
    }
    List<String> indexes = tokens(chosen, "indexes");
    List<String> values = tokens(chosen, "u64values");
    if (indexes.size() != n) {
      throw fail("distances2 lists " + indexes.size() + " indexes for nbobjs=" + n);
    }
    if (values.size() != (long) n * n) {
      throw fail("distances2 has " + values.size() + " values, expected nbobjs² = " + n * n);
    }
    boolean gp = chosen.getAttribute("indexing").equals("gp");
    Map<Long, Integer> osOfGp = new HashMap<>();
    if (gp) {
      for (HwlocObject node : numaNodes) {
        if (node.element.hasAttribute("gp_index")) {
          osOfGp.put(
              parseLong(node.element.getAttribute("gp_index"), node, "gp_index"), node.osIndex);
        }
      }
    }
    for (int i = 0; i < n; i++) {
      long index = parseLong(indexes.get(i), null, "distances2 index");
      Integer os = gp ? osOfGp.get(index) : Integer.valueOf((int) index);
      if (os == null) {
        throw fail("distances2 names gp_index " + index + " which no NUMANode has");
      }
      if (byOs.put(os, i) != null) {
        throw fail("distances2 names node " + os + " twice");
      }
    }
    double[][] m = new double[n][n];
    for (int k = 0; k < n * n; k++) {
      m[k / n][k % n] = parseLong(values.get(k), null, "distances2 value");
    }
    return m;
  }

  private double[][] distancesV1(HwlocObject machine, Map<Integer, Integer> byOs) {
    Element chosen = null;
    HwlocObject holder = null;
    List<HwlocObject> stack = new ArrayList<>(List.of(machine));
    while (!stack.isEmpty() && chosen == null) {
      HwlocObject o = stack.remove(0);
      for (Element d : childElements(o.element, "distances")) {
        chosen = d;
        holder = o;
        break;
      }
      stack.addAll(o.children);
    }
    if (chosen == null) {
      return null;
    }
    int n = parseInt(chosen.getAttribute("nbobjs"), null, "distances nbobjs");
    double base = 1;
    if (chosen.hasAttribute("latency_base")) {
      try {
        base = Double.parseDouble(chosen.getAttribute("latency_base").trim());
      } catch (NumberFormatException e) {
        throw fail(
            "distances latency_base \""
                + chosen.getAttribute("latency_base")
                + "\" is not a number");
      }
    }
    List<HwlocObject> nodesInOrder = new ArrayList<>();
    collectNodes(holder, nodesInOrder);
    if (nodesInOrder.size() != n) {
      throw fail(
          "v1 distances has nbobjs="
              + n
              + " but "
              + nodesInOrder.size()
              + " NUMANode objects lie below "
              + holder.describe());
    }
    List<Element> latencies = childElements(chosen, "latency");
    if (latencies.size() != n * n) {
      throw fail("v1 distances has " + latencies.size() + " latency values, expected " + n * n);
    }
    for (int i = 0; i < n; i++) {
      byOs.put(nodesInOrder.get(i).osIndex, i);
    }
    double[][] m = new double[n][n];
    for (int k = 0; k < n * n; k++) {
      String text = latencies.get(k).getAttribute("value").trim();
      try {
        m[k / n][k % n] = Double.parseDouble(text) * base;
      } catch (NumberFormatException e) {
        throw fail("v1 latency value " + InputText.quote(text) + " is not a number");
      }
    }
    return m;
  }

  private static void collectNodes(HwlocObject o, List<HwlocObject> into) {
    if (o.type.equals("NUMANode")) {
      into.add(o);
    }
    for (HwlocObject m : o.memoryChildren) {
      collectNodes(m, into);
    }
    for (HwlocObject c : o.children) {
      collectNodes(c, into);
    }
  }

  // --- capacity ---------------------------------------------------------------------------------

  private Map<Integer, Integer> capacities(Element root, BitSet puSet, TopologyAssembler out) {
    record Kind(BitSet cpus, long efficiency, Map<String, String> info) {}
    List<Kind> kinds = new ArrayList<>();
    for (Element k : childElements(root, "cpukind")) {
      if (!k.hasAttribute("cpuset")) {
        throw fail("cpukind without cpuset");
      }
      BitSet cpus = bitmap(k.getAttribute("cpuset"), null, "cpukind cpuset", false);
      long efficiency =
          k.getAttribute("forced_efficiency").trim().matches("-?\\d+")
              ? Long.parseLong(k.getAttribute("forced_efficiency").trim())
              : kinds.size();
      Map<String, String> info = new LinkedHashMap<>();
      for (Element i : childElements(k, "info")) {
        info.put(i.getAttribute("name"), i.getAttribute("value").trim());
      }
      for (Kind other : kinds) {
        if (other.cpus().intersects(cpus)) {
          throw fail("cpukinds overlap");
        }
      }
      kinds.add(new Kind(cpus, efficiency, info));
    }
    Map<Integer, Integer> capacity = new HashMap<>();
    if (kinds.size() < 2 && kinds.stream().noneMatch(k -> k.info().containsKey("LinuxCapacity"))) {
      return capacity;
    }
    if (kinds.stream().allMatch(k -> k.info().containsKey("LinuxCapacity"))) {
      for (Kind k : kinds) {
        int c = parseInt(k.info().get("LinuxCapacity"), null, "cpukind LinuxCapacity");
        if (c < 1 || c > 1024) {
          throw fail("cpukind LinuxCapacity " + c + " is not in 1..1024");
        }
        fill(capacity, k.cpus(), c);
      }
      return capacity;
    }
    if (kinds.stream().allMatch(k -> k.info().containsKey("FrequencyMaxMHz"))) {
      double max = 0;
      for (Kind k : kinds) {
        max = Math.max(max, parseLong(k.info().get("FrequencyMaxMHz"), null, "FrequencyMaxMHz"));
      }
      for (Kind k : kinds) {
        double f = parseLong(k.info().get("FrequencyMaxMHz"), null, "FrequencyMaxMHz");
        fill(capacity, k.cpus(), (int) Math.max(1, Math.round(1024 * f / max)));
      }
      out.note("capacity from cpukind FrequencyMaxMHz relative to the fastest kind");
      return capacity;
    }
    List<Long> ranks = kinds.stream().map(Kind::efficiency).distinct().sorted().toList();
    for (Kind k : kinds) {
      int below = ranks.size() - 1 - ranks.indexOf(k.efficiency());
      fill(
          capacity,
          k.cpus(),
          (int) Math.max(1, Math.round(1024 * Math.pow(efficiencyKindCapacity, below))));
    }
    out.note(
        "capacity assumed: "
            + efficiencyKindCapacity
            + " per cpukind efficiency rank below the top (the file gives no capacity or frequency)");
    return capacity;
  }

  private static void fill(Map<Integer, Integer> capacity, BitSet cpus, int value) {
    for (int c = cpus.nextSetBit(0); c >= 0; c = cpus.nextSetBit(c + 1)) {
      capacity.put(c, value);
    }
  }

  // --- info -------------------------------------------------------------------------------------

  private void collectInfo(HwlocObject machine, TopologyAssembler out) {
    List<HwlocObject> queue = new ArrayList<>(List.of(machine));
    while (!queue.isEmpty()) {
      HwlocObject o = queue.remove(0);
      if (o.type.equals("Machine")
          || o.type.equals("System")
          || o.type.equals("Package")
          || o.type.equals("Socket")) {
        for (Element i : childElements(o.element, "info")) {
          String name = i.getAttribute("name");
          if (name.matches(
              "CPUModel|CPUVendor|CPUFamilyNumber|CPUModelNumber|OSName|OSRelease"
                  + "|HostName|Architecture|DMIProductName|DMISysVendor|Backend|hwlocVersion"
                  + "|CPUImplementer|CPUPart")) {
            out.info(name, i.getAttribute("value").trim());
          }
        }
        queue.addAll(o.children);
      }
    }
  }

  // --- helpers ----------------------------------------------------------------------------------

  private BitSet bitmap(String text, HwlocObject obj, String attribute, boolean allowInfinite) {
    HwlocBitmap parsed = parseBitmap(text, obj, attribute);
    if (parsed.infinite() && !allowInfinite) {
      throw fail(
          attribute
              + (obj == null ? "" : " of " + obj.describe())
              + " is infinite (0xf...f), which a CPU set cannot be");
    }
    return parsed.bits();
  }

  private HwlocBitmap parseBitmap(String text, HwlocObject obj, String attribute) {
    try {
      return HwlocBitmap.parse(text);
    } catch (IllegalArgumentException e) {
      throw fail(attribute + (obj == null ? "" : " of " + obj.describe()) + ": " + e.getMessage());
    }
  }

  private int parseInt(String text, HwlocObject obj, String what) {
    long v = parseLong(text, obj, what);
    if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
      throw fail(
          what
              + (obj == null ? "" : " of " + obj.describe())
              + " \""
              + text
              + "\" is out of range");
    }
    return (int) v;
  }

  private long parseLong(String text, HwlocObject obj, String what) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw fail(
          what
              + (obj == null ? "" : " of " + obj.describe())
              + " \""
              + text
              + "\" is not an integer");
    }
  }

  private List<String> tokens(Element parent, String tag) {
    List<String> out = new ArrayList<>();
    for (Element e : childElements(parent, tag)) {
      for (String t : e.getTextContent().trim().split("\\s+")) {
        if (!t.isEmpty()) {
          out.add(t);
        }
      }
    }
    return out;
  }

  private static List<Element> childElements(Element parent, String tag) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n.getNodeType() == Node.ELEMENT_NODE && ((Element) n).getTagName().equals(tag)) {
        out.add((Element) n);
      }
    }
    return out;
  }

  private static boolean isSubset(BitSet a, BitSet b) {
    BitSet rest = (BitSet) a.clone();
    rest.andNot(b);
    return rest.isEmpty();
  }

  private static List<Integer> toList(int[] values) {
    List<Integer> list = new ArrayList<>();
    for (int v : values) {
      list.add(v);
    }
    return list;
  }

  private TopologyImportException fail(String problem) {
    return new TopologyImportException(source, problem);
  }
}
