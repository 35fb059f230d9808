package dev.schedlab.hw.importer;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.w3c.dom.Element;

/**
 * One object of an hwloc XML file as {@link HwlocXmlImporter} builds its tree: CPU side (machine,
 * package, caches, cores, PUs) or memory side (NUMA nodes), with its parsed cpuset and os_index.
 */
final class HwlocObject {
  final Element element;
  final String type;
  final HwlocObject parent;
  final List<HwlocObject> children = new ArrayList<>();
  final List<HwlocObject> memoryChildren = new ArrayList<>();
  BitSet cpuset;
  int osIndex = -1;

  HwlocObject(Element element, String type, HwlocObject parent) {
    this.element = element;
    this.type = type;
    this.parent = parent;
  }

  String subtype() {
    return element.getAttribute("subtype");
  }

  boolean isDataCache() {
    if (type.equals("Cache")) {
      return !element.getAttribute("cache_type").equals("2");
    }
    return type.matches("L[1-5]Cache") && !element.getAttribute("cache_type").equals("2");
  }

  int cacheLevel() {
    if (type.equals("Cache")) {
      return Integer.parseInt(element.getAttribute("depth").trim());
    }
    return type.charAt(1) - '0';
  }

  String describe() {
    return type
        + (osIndex >= 0 ? " (os_index " + osIndex + ")" : "")
        + (element.hasAttribute("gp_index")
            ? " [gp_index " + element.getAttribute("gp_index") + "]"
            : "");
  }
}
