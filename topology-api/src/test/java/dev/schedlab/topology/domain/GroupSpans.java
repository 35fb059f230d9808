package dev.schedlab.topology.domain;

import java.util.List;

/** Test helper: group spans and balance masks as cpulists, in list order. */
final class GroupSpans {

  private GroupSpans() {}

  static List<String> spans(SchedDomain sd) {
    return sd.groups().stream().map(g -> g.span().toCpuList()).toList();
  }

  static List<String> balanceMasks(SchedDomain sd) {
    return sd.groups().stream().map(g -> g.balanceMask().toCpuList()).toList();
  }

  static List<String> names(List<SchedDomain> chain) {
    return chain.stream().map(SchedDomain::name).toList();
  }
}
