package dev.schedlab.oracle.compare;

import dev.schedlab.oracle.kernel.CpuList;
import dev.schedlab.oracle.kernel.DomainView;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The simulator's sched domains ({@link SchedDomains}, which models {@code build_sched_domains()})
 * as {@link DomainView}s in the guest kernel's terms after the {@link NameRule}s, and the guest's
 * views renamed the same way, so that the two compare field by field.
 */
public final class SimulatorDomains {

  private SimulatorDomains() {}

  /** Every CPU's chain, CPUs without domains mapping to an empty list. */
  public static Map<Integer, List<DomainView>> views(SchedDomains domains) {
    Map<Integer, List<DomainView>> out = new TreeMap<>();
    int nr = domains.topology().nrCpuIds();
    for (int cpu = 0; cpu < nr; cpu++) {
      if (!domains.topology().onlineMask().test(cpu)) {
        continue;
      }
      List<DomainView> chain = new ArrayList<>();
      for (SchedDomain sd : domains.domains(cpu)) {
        chain.add(view(sd));
      }
      out.put(cpu, List.copyOf(chain));
    }
    return Collections.unmodifiableMap(out);
  }

  private static DomainView view(SchedDomain sd) {
    SortedSet<String> flags = new TreeSet<>();
    for (int bit = 0; bit < SdFlags.FLAG_COUNT; bit++) {
      if ((sd.flags() & (1 << bit)) != 0) {
        flags.add(SdFlags.name(1 << bit));
      }
    }
    flags.remove("SD_CLUSTER");
    if (sd.hasOverlappingGroups()) {
      flags.add("SD_OVERLAP");
    }
    List<DomainView.GroupView> groups = new ArrayList<>();
    for (SchedGroup g : sd.groups()) {
      groups.add(
          new DomainView.GroupView(list(g.span().toCpuList()), list(g.balanceMask().toCpuList())));
    }
    Map<String, Integer> tunables = new TreeMap<>();
    tunables.put("min_interval", sd.minIntervalMs());
    tunables.put("max_interval", sd.maxIntervalMs());
    tunables.put("busy_factor", sd.busyFactor());
    tunables.put("imbalance_pct", sd.imbalancePct());
    tunables.put("cache_nice_tries", sd.cacheNiceTries());
    return new DomainView(
        sd.cpu(),
        sd.level(),
        sd.name(),
        list(sd.span().toCpuList()),
        Collections.unmodifiableSortedSet(flags),
        List.copyOf(groups),
        Collections.unmodifiableMap(tunables));
  }

  /** The guest's views with the 6.1 names mapped to the simulator's. */
  public static Map<Integer, List<DomainView>> renameKernel(Map<Integer, List<DomainView>> kernel) {
    Map<Integer, List<DomainView>> out = new TreeMap<>();
    kernel.forEach(
        (cpu, chain) -> {
          List<DomainView> renamed = new ArrayList<>();
          for (DomainView d : chain) {
            SortedSet<String> flags = new TreeSet<>();
            for (String f : d.flags()) {
              flags.add(f.equals("SD_SHARE_PKG_RESOURCES") ? "SD_SHARE_LLC" : f);
            }
            renamed.add(
                new DomainView(
                    d.cpu(),
                    d.index(),
                    d.name().equals("DIE") ? "PKG" : d.name(),
                    d.span(),
                    Collections.unmodifiableSortedSet(flags),
                    d.groups(),
                    d.tunables()));
          }
          out.put(cpu, List.copyOf(renamed));
        });
    return Collections.unmodifiableMap(out);
  }

  private static String list(String cpuList) {
    BitSet set = CpuList.parse(cpuList);
    return CpuList.format(set);
  }
}
