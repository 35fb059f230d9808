package dev.schedlab.cli.args;

import dev.schedlab.core.KernelRules;
import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.balance.BalanceCostModel;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.spi.ParameterSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code -E KEY=VALUE}: the engine's modelling assumptions (costs, latencies, start-up state and
 * kernel defaults the model needs), overridable per run from the command line as they are through
 * {@link EngineOptions}, {@link BalancerOptions} and {@link BalanceCostModel} in code. Each
 * setting's default is read from those classes' {@code defaults()}, where its source is stated.
 * Values are checked before anything runs; an unknown key or a value outside its range is bad input
 * naming what is allowed.
 */
public final class EngineSettings {

  /** One setting: how it parses and how it changes the three option records. */
  private record Setting(ParameterSpec spec, Apply apply) {}

  @FunctionalInterface
  private interface Apply {
    void to(Options options, Object value);
  }

  /** The three records being adjusted. */
  private static final class Options {
    EngineOptions engine = EngineOptions.defaults();
    BalancerOptions balancer = BalancerOptions.defaults();
    BalanceCostModel cost = BalanceCostModel.defaults();
  }

  private static final long MS = 1_000_000L;

  /** The rule-set setting, applied before the others so that they can refine it. */
  private static final String RULES = "rules";

  private static final Map<String, Setting> SETTINGS = new LinkedHashMap<>();

  static {
    EngineOptions e = EngineOptions.defaults();
    BalancerOptions b = BalancerOptions.defaults();
    BalanceCostModel c = BalanceCostModel.defaults();
    duration(
        "ipi_latency",
        "IPI send to the target acting on it (incl. shallow idle exit)",
        e.ipiLatencyNs(),
        MS,
        (o, v) -> o.engine = o.engine.withIpiLatencyNs(v));
    duration(
        "ilb_visit_cost",
        "ILB cost per CPU of nohz.idle_cpus_mask visited",
        e.ilbPerCpuVisitedNs(),
        MS,
        (o, v) -> o.engine = o.engine.withIlbPerCpuVisitedNs(v));
    duration(
        "blocked_load_update_cost",
        "cost of one blocked-load update on the ILB",
        e.blockedLoadUpdateNs(),
        MS,
        (o, v) -> o.engine = o.engine.withBlockedLoadUpdateNs(v));
    duration(
        "ilb_select_cost",
        "find_new_ilb() cost per CPU examined, charged to the kicker",
        e.ilbSelectPerCpuNs(),
        MS,
        (o, v) -> o.engine = o.engine.withIlbSelectPerCpuNs(v));
    bool(
        "sis_util",
        "SCHED_FEAT(SIS_UTIL)",
        e.sisUtil(),
        (o, v) -> o.engine = o.engine.withSisUtil(v));
    bool(
        "wakeup_preemption",
        "SCHED_FEAT(WAKEUP_PREEMPTION)",
        e.wakeupPreemption(),
        (o, v) -> o.engine = o.engine.withWakeupPreemption(v));
    bool(
        "run_to_parity",
        "SCHED_FEAT(RUN_TO_PARITY): a picked task is not wakeup-preempted while"
            + " eligible, up to its deadline (false: up to 700us of its run time)",
        e.runToParity(),
        (o, v) -> o.engine = o.engine.withRunToParity(v));
    duration(
        "idle_history",
        "span over which CPUs' last idle instants are spread at start",
        e.idleHistoryNs(),
        10_000 * MS,
        (o, v) -> o.engine = o.engine.withIdleHistoryNs(v));
    bool(
        "spread_balance_stamps",
        "start with last_balance stamps spread (false: boot state)",
        e.spreadBalanceStamps(),
        (o, v) -> o.engine = o.engine.withSpreadBalanceStamps(v));
    bool(
        "retain_short_idle_tick",
        "idle governor (menu/teo): keep the tick when the CPU's recent"
            + " idle periods are shorter than a tick (false: stop it at every idle entry)",
        e.retainShortIdleTick(),
        (o, v) -> o.engine = o.engine.withRetainShortIdleTick(v));
    bool(
        "skew_tick",
        "skew_tick=1: CPU n's tick fires n x (tick/2) / nr_cpus after the jiffy"
            + " boundary (false: all ticks at the boundary, the kernel's default)",
        e.skewTick(),
        (o, v) -> o.engine = o.engine.withSkewTick(v));
    duration(
        "wakeup_race_window",
        "how long a wakeup's choice stays unseen by other CPUs'"
            + " wakeups (select_task_rq_fair() reads without locks; 0: wakeups never race)",
        e.wakeupRaceWindowNs(),
        MS,
        (o, v) -> o.engine = o.engine.withWakeupRaceWindowNs(v));
    duration(
        "deep_idle_exit",
        "exit latency of a core-level deep idle state, paid by an IPI to a"
            + " CPU whose whole core has been idle for deep_idle_residency (0: no deep state;"
            + " Skylake-SP C6: 133us)",
        e.deepIdleExitNs(),
        MS,
        (o, v) -> o.engine = o.engine.withDeepIdleExitNs(v));
    duration(
        "deep_idle_residency",
        "how long a core must have been idle to be in the deep state"
            + " (Skylake-SP C6 target residency: 400us)",
        e.deepIdleResidencyNs(),
        1_000 * MS,
        (o, v) -> o.engine = o.engine.withDeepIdleResidencyNs(v));
    rate(
        "idle_timer_rate",
        "timer expiries per CPU per second: on a tickless idle CPU each runs"
            + " sched_tick() (SCHED_SOFTIRQ when next_balance is due), on a busy one it steals"
            + " timer_irq_cost (3.6: the kernel oracle's Linux 6.1 guest; 0: idle CPUs never wake)",
        e.idleTimerRateHz(),
        (o, v) -> o.engine = o.engine.withIdleTimerRateHz(v));
    duration(
        "timer_irq_cost",
        "CPU time of one timer expiry (assumed)",
        e.timerIrqNs(),
        MS,
        (o, v) -> o.engine = o.engine.withTimerIrqNs(v));
    rate(
        "device_irq_rate",
        "device interrupts per second, all on the boot CPU (arm64 GIC, no"
            + " irqbalance; assumed for a quiet server: no measurement of Vera; 0: none)",
        e.deviceIrqRateHz(),
        (o, v) -> o.engine = o.engine.withDeviceIrqRateHz(v));
    duration(
        "device_irq_cost",
        "CPU time of one device interrupt with its softirq (assumed)",
        e.deviceIrqNs(),
        MS,
        (o, v) -> o.engine = o.engine.withDeviceIrqNs(v));
    rate(
        "kworker_rate",
        "wakeups per second of each CPU's bound kernel worker, a pinned nice-0"
            + " task (1: vmstat_update every vm.stat_interval; 0: no kernel workers)",
        e.kworkerRateHz(),
        (o, v) -> o.engine = o.engine.withKworkerRateHz(v));
    duration(
        "kworker_run",
        "work of one kernel-worker wakeup (ns alone at capacity 1024; assumed)",
        e.kworkerRunNs(),
        MS,
        (o, v) -> o.engine = o.engine.withKworkerRunNs(v));
    bool(
        "check_invariants",
        "check the expensive NOHZ and idle-mask invariants too (slower;"
            + " the cheap runqueue, affinity and ILB-choice checks run always)",
        e.checkInvariants(),
        (o, v) -> o.engine = o.engine.withCheckInvariants(v));
    duration(
        "migration_cost",
        "sysctl_sched_migration_cost (task_hot(), newidle cut-off)",
        b.migrationCostNs(),
        100 * MS,
        (o, v) -> o.balancer = o.balancer.withMigrationCostNs(v));
    bool(
        "mainline_deltas",
        "post-7.1 mainline balancing and asym/SMT wakeup rules (false: 7.1.5)",
        b.mainlineDeltas(),
        (o, v) -> o.balancer = o.balancer.withMainlineDeltas(v));
    SETTINGS.put(
        RULES,
        new Setting(
            ParameterSpec.ofChoice(
                RULES,
                "which kernel's rules the"
                    + " engine follows where they move a compared figure: mainline (7.1.5 plus mainline"
                    + " deltas) or linux-6.1 (CFS wakeups, should_we_balance() without the idle-core"
                    + " preference, no NI_RATE; applied before the other settings)",
                KernelRules.MAINLINE.id(),
                KernelRules.MAINLINE.id(),
                KernelRules.LINUX_6_1.id()),
            (o, v) -> {
              KernelRules rules = KernelRules.of((String) v);
              o.engine = rules.engine(o.engine);
              o.balancer = rules.balancer(o.balancer);
            }));
    duration(
        "lb_cost_base",
        "balancing cost model: fixed cost of one balancing invocation",
        c.baseNs(),
        MS,
        (o, v) -> o.cost = withCost(o.cost, 0, v));
    duration(
        "lb_cost_per_cpu",
        "balancing cost model: per CPU whose statistics are read",
        c.perCpuScannedNs(),
        MS,
        (o, v) -> o.cost = withCost(o.cost, 1, v));
    duration(
        "lb_cost_per_domain",
        "balancing cost model: per domain balanced",
        c.perDomainNs(),
        MS,
        (o, v) -> o.cost = withCost(o.cost, 2, v));
    duration(
        "lb_cost_per_task_examined",
        "balancing cost model: per task examined",
        c.perTaskExaminedNs(),
        MS,
        (o, v) -> o.cost = withCost(o.cost, 3, v));
    duration(
        "lb_cost_per_task_moved",
        "balancing cost model: per task moved",
        c.perTaskMovedNs(),
        MS,
        (o, v) -> o.cost = withCost(o.cost, 4, v));
  }

  private final Map<String, Object> values;

  private EngineSettings(Map<String, Object> values) {
    this.values = values;
  }

  /**
   * Parses {@code -E} items.
   *
   * @throws BadInputException for a malformed item, an unknown key or a value out of range
   */
  public static EngineSettings parse(List<String> items) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Map.Entry<String, String> item : PluginArguments.keyValues("-E", items).entrySet()) {
      Setting setting = SETTINGS.get(item.getKey());
      if (setting == null) {
        throw new BadInputException(
            "-E "
                + item.getKey()
                + ": unknown engine setting; allowed: "
                + String.join(", ", SETTINGS.keySet()));
      }
      try {
        values.put(item.getKey(), setting.spec().parse(item.getValue()));
      } catch (IllegalArgumentException ex) {
        throw new BadInputException("-E " + ex.getMessage(), ex);
      }
    }
    return new EngineSettings(values);
  }

  /** Applies the settings to {@code builder} (nothing when none were given). */
  public SimulationConfig.Builder applyTo(SimulationConfig.Builder builder) {
    if (values.isEmpty()) {
      return builder;
    }
    Options options = new Options();
    if (values.containsKey(RULES)) {
      SETTINGS.get(RULES).apply().to(options, values.get(RULES));
    }
    values.forEach(
        (key, value) -> {
          if (!key.equals(RULES)) {
            SETTINGS.get(key).apply().to(options, value);
          }
        });
    return builder.engine(options.engine).balancer(options.balancer).costModel(options.cost);
  }

  /** The engine options in force: the defaults with these settings applied. */
  public EngineOptions engineOptions() {
    Options options = new Options();
    values.forEach((key, value) -> SETTINGS.get(key).apply().to(options, value));
    return options.engine;
  }

  /** Whether the run uses the post-7.1 mainline rules ({@code -E mainline_deltas}, default on). */
  public boolean mainlineDeltas() {
    return !Boolean.FALSE.equals(values.get("mainline_deltas"));
  }

  /**
   * Every setting as {@code -E} would take it, the given value or the default, in the order {@code
   * schedlab engine} lists them: durations in their largest whole unit ({@code 5us}).
   */
  public Map<String, String> text() {
    Map<String, String> text = new LinkedHashMap<>();
    SETTINGS.forEach(
        (key, setting) ->
            text.put(
                key,
                format(
                    setting.spec(),
                    values.getOrDefault(
                        key, setting.spec().parse(setting.spec().defaultValue())))));
    return text;
  }

  /** The settings whose value differs from the default, as {@link #text()} writes them. */
  public Map<String, String> nonDefault() {
    Map<String, String> changed = new LinkedHashMap<>();
    values.forEach(
        (key, value) -> {
          ParameterSpec spec = SETTINGS.get(key).spec();
          if (!value.equals(spec.parse(spec.defaultValue()))) {
            changed.put(key, format(spec, value));
          }
        });
    return changed;
  }

  /** The settings as given, in order, as {@link #text()} writes them: what {@code -E} took. */
  public Map<String, String> given() {
    Map<String, String> given = new LinkedHashMap<>();
    values.forEach((key, value) -> given.put(key, format(SETTINGS.get(key).spec(), value)));
    return given;
  }

  /** The default of {@code key} as {@link #text()} writes it. */
  public static String defaultText(String key) {
    ParameterSpec spec = SETTINGS.get(key).spec();
    return format(spec, spec.parse(spec.defaultValue()));
  }

  private static String format(ParameterSpec spec, Object value) {
    return value instanceof Long ns && spec.type() == dev.schedlab.spi.ParameterType.DURATION
        ? ParameterSpec.formatDurationNs(ns)
        : String.valueOf(value);
  }

  /** The given settings as parsed values, e.g. {@code -E {ilb_visit_cost=1000}} (ns). */
  @Override
  public String toString() {
    return "-E " + values;
  }

  /** The settings with their defaults, allowed values and descriptions, for help and docs. */
  public static List<ParameterSpec> specs() {
    return SETTINGS.values().stream().map(Setting::spec).toList();
  }

  private static void duration(
      String name, String description, long defaultNs, long maxNs, LongApply apply) {
    SETTINGS.put(
        name,
        new Setting(
            ParameterSpec.ofDuration(
                name, description, ParameterSpec.formatDurationNs(defaultNs), 0, maxNs),
            (o, v) -> apply.to(o, (Long) v)));
  }

  private static void rate(String name, String description, double def, DoubleApply apply) {
    SETTINGS.put(
        name,
        new Setting(
            ParameterSpec.ofDouble(name, description, def, 0, EngineOptions.MAX_RATE_HZ),
            (o, v) -> apply.to(o, (Double) v)));
  }

  private static void bool(String name, String description, boolean def, BoolApply apply) {
    SETTINGS.put(
        name,
        new Setting(
            ParameterSpec.ofBoolean(name, description, def), (o, v) -> apply.to(o, (Boolean) v)));
  }

  @FunctionalInterface
  private interface LongApply {
    void to(Options options, long value);
  }

  @FunctionalInterface
  private interface DoubleApply {
    void to(Options options, double value);
  }

  @FunctionalInterface
  private interface BoolApply {
    void to(Options options, boolean value);
  }

  /** {@code c} with its {@code field}-th cost (in the record's order) replaced by {@code v}. */
  private static BalanceCostModel withCost(BalanceCostModel c, int field, long v) {
    long[] costs = {
      c.baseNs(), c.perCpuScannedNs(), c.perDomainNs(), c.perTaskExaminedNs(), c.perTaskMovedNs()
    };
    costs[field] = v;
    return new BalanceCostModel(costs[0], costs[1], costs[2], costs[3], costs[4]);
  }
}
