package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.args.TopologySource;
import dev.schedlab.cli.report.Json;
import dev.schedlab.cli.report.TextTable;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.HousekeepingType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code schedlab explain-ilb}: runs each ILB selector ({@code find_new_ilb()}) once on a state the
 * user describes (which CPUs are idle, which are in {@code nohz.idle_cpus_mask}, which do
 * housekeeping, who kicks) and shows the CPU it picks, how many CPUs it examined, and why, in the
 * words of the 7.3 patch: a CPU on a fully idle core, a fallback next to a busy sibling, or none.
 */
@Command(
    name = "explain-ilb",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Show which CPU each ILB selector picks for a given idle state, and why.")
public final class ExplainIlbCommand implements Callable<Integer> {

  private final Cli cli;

  @Mixin TopologySource source;

  @Option(
      names = "--idle",
      required = true,
      paramLabel = "LIST",
      description = "the idle CPUs (idle_cpu() true); all other online CPUs run a task")
  String idle;

  @Option(
      names = "--nohz-idle",
      paramLabel = "LIST",
      description = "nohz.idle_cpus_mask (default: the idle CPUs)")
  String nohzIdle;

  @Option(
      names = "--housekeeping",
      paramLabel = "LIST",
      description =
          "HK_TYPE_KERNEL_NOISE housekeeping CPUs (default: the machine's, after"
              + " --nohz-full/--isolcpus)")
  String housekeeping;

  @Option(
      names = "--selector",
      paramLabel = "ID[:k=v;...]",
      description = "an ILB selector, repeatable (default: every selector)")
  List<String> selectors = new ArrayList<>();

  @Option(
      names = "--this-cpu",
      paramLabel = "N",
      description = "the busy CPU whose tick kicks (default: the lowest busy CPU)")
  Integer thisCpu;

  @Option(
      names = "--format",
      paramLabel = "text|json",
      description = "output format (default text)")
  TextOrJson format = TextOrJson.text;

  public ExplainIlbCommand(Cli cli) {
    this.cli = cli;
  }

  /** One selector's answer. */
  record Selection(String selector, int cpu, int examined, String reason) {}

  @Override
  public Integer call() {
    Topology topology = source.topology(cli::registry);
    int nr = topology.nrCpuIds();
    ImmutableCpuMask idleMask = TopologySource.cpuList("--idle", idle, nr);
    if (!idleMask.isSubsetOf(topology.onlineMask())) {
      MutableCpuMask offline = idleMask.mutableCopy();
      offline.andNotWith(topology.onlineMask());
      throw new BadInputException(
          "--idle "
              + idle
              + ": CPUs "
              + offline.toCpuList()
              + " are not online; online CPUs: "
              + topology.onlineMask().toCpuList());
    }
    ImmutableCpuMask nohzMask =
        nohzIdle == null ? idleMask : TopologySource.cpuList("--nohz-idle", nohzIdle, nr);
    ImmutableCpuMask housekeepingMask =
        housekeeping == null
            ? topology.housekeeping().mask(HousekeepingType.KERNEL_NOISE)
            : TopologySource.cpuList("--housekeeping", housekeeping, nr);
    int kicker = kicker(topology, idleMask);
    ArrayCpuState state = frozenState(topology, idleMask, nohzMask);
    SchedDomains domains = SchedDomains.build(topology);
    MutableCpuMask candidates = CpuMasks.mutable(nr);
    candidates.and(nohzMask, housekeepingMask);

    List<Selection> selections = new ArrayList<>();
    for (PluginRef ref : selectorRefs()) {
      IlbSelectorProvider provider =
          PluginArguments.require(cli.registry(), ref.id(), IlbSelectorProvider.class);
      IlbSelector selector =
          provider.create(
              new CliPolicyContext(
                  topology, domains, provider.descriptor().resolve(ref.overrides()), state));
      int cpu = selector.findNewIlb(kicker, nohzMask, housekeepingMask, state);
      selections.add(
          new Selection(
              PluginArguments.format(ref),
              cpu,
              selector.lastExamined(),
              reason(topology, state, candidates, kicker, cpu)));
    }

    if (format == TextOrJson.json) {
      Map<String, Object> root = new LinkedHashMap<>();
      root.put("machine", source.label());
      root.put("this_cpu", kicker);
      root.put("idle", idleMask.toCpuList());
      root.put("nohz_idle", nohzMask.toCpuList());
      root.put("housekeeping", housekeepingMask.toCpuList());
      root.put("candidates", candidates.toCpuList());
      List<Object> list = new ArrayList<>();
      for (Selection s : selections) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("selector", s.selector());
        item.put("cpu", s.cpu() == CpuMask.NO_CPU ? null : s.cpu());
        item.put("examined", s.examined());
        item.put("reason", s.reason());
        list.add(item);
      }
      root.put("selections", list);
      cli.out().print(Json.pretty(root));
    } else {
      text(
          cli.out(),
          topology,
          state,
          idleMask,
          nohzMask,
          housekeepingMask,
          candidates,
          kicker,
          selections);
    }
    return 0;
  }

  private List<PluginRef> selectorRefs() {
    List<PluginRef> refs = new ArrayList<>();
    if (selectors.isEmpty()) {
      for (IlbSelectorProvider p : cli.registry().list(IlbSelectorProvider.class)) {
        refs.add(PluginRef.of(p.id()));
      }
      if (refs.isEmpty()) {
        throw new BadInputException("no ILB selector plugins on the class path");
      }
    } else {
      for (String text : selectors) {
        refs.add(PluginArguments.parseRef("--selector", text));
      }
    }
    return refs;
  }

  private int kicker(Topology topology, CpuMask idleMask) {
    if (thisCpu != null) {
      if (!topology.isPossible(thisCpu) || !topology.isOnline(thisCpu)) {
        throw new BadInputException(
            "--this-cpu "
                + thisCpu
                + ": not an online CPU; online CPUs: "
                + topology.onlineMask().toCpuList());
      }
      return thisCpu;
    }
    int busy = topology.onlineMask().firstAndNot(idleMask);
    // Every CPU idle: no tick would kick, but CPU 0 still shows what the walk does.
    return busy == CpuMask.NO_CPU ? topology.onlineMask().first() : busy;
  }

  /** Why {@code cpu} was chosen, in the terms of the 7.3 patch's walk. */
  static String reason(
      Topology topology, CpuStateView state, CpuMask candidates, int kicker, int cpu) {
    int firstIdle = CpuMask.NO_CPU;
    int firstOnIdleCore = CpuMask.NO_CPU;
    for (int c = candidates.first(); c != CpuMask.NO_CPU; c = candidates.next(c)) {
      if (c == kicker || !state.isIdle(c)) {
        continue;
      }
      firstIdle = firstIdle == CpuMask.NO_CPU ? c : firstIdle;
      if (state.isCoreIdle(c)) {
        firstOnIdleCore = c;
        break;
      }
    }
    if (cpu == CpuMask.NO_CPU) {
      return candidates.isEmpty()
          ? "no CPU in nohz.idle_cpus_mask ∩ housekeeping"
          : "no idle housekeeping CPU";
    }
    // Selectors that rotate or draw (ext.ilb.round-robin, the example's random one) need not
    // choose the first candidate; say so rather than describe the walk's choice.
    if (!state.smtActive()) {
      return cpu == firstIdle
          ? "first idle housekeeping CPU (no SMT)"
          : "idle housekeeping CPU, not the first (CPU " + firstIdle + " is; no SMT)";
    }
    if (state.isCoreIdle(cpu)) {
      if (cpu != firstOnIdleCore) {
        return "idle CPU on a fully idle core, not the first (CPU " + firstOnIdleCore + " is)";
      }
      return cpu == firstIdle
          ? "first idle CPU on a fully idle core"
          : "first idle CPU on a fully idle core (CPU "
              + firstIdle
              + " is idle but has a busy"
              + " sibling)";
    }
    String busy = busySiblings(topology, state, cpu);
    if (cpu != firstIdle) {
      return "idle CPU next to busy sibling "
          + busy
          + ", not the first idle CPU (CPU "
          + firstIdle
          + " is)";
    }
    if (firstOnIdleCore != CpuMask.NO_CPU) {
      return "first idle CPU, next to busy sibling "
          + busy
          + " (CPU "
          + firstOnIdleCore
          + " is on a fully idle core)";
    }
    return "fallback: idle CPU with busy sibling " + busy + " (no fully idle core)";
  }

  /**
   * The state the user describes, frozen: the CPUs of {@code idle} idle with nothing queued, every
   * other CPU running one task at full utilisation, ticks stopped on the CPUs of {@code nohzIdle}.
   */
  private static ArrayCpuState frozenState(Topology topology, CpuMask idle, CpuMask nohzIdle) {
    ArrayCpuState state = new ArrayCpuState(topology).idleExactly(idle).nohzIdleExactly(nohzIdle);
    for (int cpu = 0; cpu < topology.nrCpuIds(); cpu++) {
      if (topology.isPossible(cpu) && !state.isIdle(cpu)) {
        state
            .runnableAvg(cpu, Topology.SCHED_CAPACITY_SCALE)
            .utilAvg(cpu, topology.capacity(cpu))
            .loadAvg(cpu, Topology.SCHED_CAPACITY_SCALE);
      }
    }
    return state;
  }

  private static String busySiblings(Topology topology, CpuStateView state, int cpu) {
    MutableCpuMask busy = CpuMasks.mutable(topology.nrCpuIds());
    CpuMask siblings = topology.smtSiblings(cpu);
    for (int s = siblings.first(); s != CpuMask.NO_CPU; s = siblings.next(s)) {
      if (s != cpu && topology.isOnline(s) && !state.isIdle(s)) {
        busy.set(s);
      }
    }
    return busy.toCpuList();
  }

  private static void text(
      PrintStream out,
      Topology topology,
      CpuStateView state,
      CpuMask idleMask,
      CpuMask nohzMask,
      CpuMask housekeepingMask,
      CpuMask candidates,
      int kicker,
      List<Selection> selections) {
    out.printf(
        Locale.ROOT,
        "machine %s: %s, SMT%d; kicking CPU %d (%s)%n",
        topology.name(),
        TextTable.count(topology.cpuCount(), "CPU"),
        topology.smtWidth(),
        kicker,
        state.isIdle(kicker) ? "idle" : "busy");
    out.println("idle CPUs:             " + list(idleMask));
    out.println("nohz.idle_cpus_mask:   " + list(nohzMask));
    out.println("housekeeping:          " + list(housekeepingMask));
    out.println("candidates (∩):        " + list(candidates));
    out.println();
    int width =
        Math.max(
            "selector".length(),
            selections.stream().mapToInt(s -> s.selector().length()).max().orElse(0));
    out.printf(
        Locale.ROOT, "%-" + width + "s  %5s  %8s  %s%n", "selector", "CPU", "examined", "why");
    for (Selection s : selections) {
      out.printf(
          Locale.ROOT,
          "%-" + width + "s  %5s  %8d  %s%n",
          s.selector(),
          s.cpu() == CpuMask.NO_CPU ? "none" : Integer.toString(s.cpu()),
          s.examined(),
          s.reason());
    }
  }

  private static String list(CpuMask mask) {
    return (mask.isEmpty() ? "(none)" : mask.toCpuList())
        + " ("
        + TextTable.count(mask.weight(), "CPU")
        + ")";
  }
}
