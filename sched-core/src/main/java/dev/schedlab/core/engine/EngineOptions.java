package dev.schedlab.core.engine;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Engine settings that are modelling assumptions rather than kernel tunables. Every number is an
 * assumption of this model (no source measured it for the simulated machines); all are overridable.
 *
 * @param ipiLatencyNs delay from sending an IPI (NOHZ kick, remote reschedule or remote wakeup of
 *     an idle CPU) until the target acts on it, including the exit from a shallow idle state;
 *     default 2000 ns, an assumption for a GIC or x2APIC IPI plus WFI/C1 exit
 * @param ilbPerCpuVisitedNs cost, on the idle load balancer, of visiting one CPU of {@code
 *     nohz.idle_cpus_mask} in {@code _nohz_idle_balance()} ({@code idle_cpu()}, reading {@code
 *     rq->next_balance}); default 100 ns, assumed (one or two remote cache lines)
 * @param blockedLoadUpdateNs cost of one {@code sched_balance_update_blocked_averages()} (rq lock,
 *     PELT decay of the root cfs_rq); default 300 ns, assumed
 * @param ilbSelectPerCpuNs cost, on the kicking CPU, per CPU {@code find_new_ilb()} examined;
 *     default 10 ns, assumed (a bit test and an {@code idle_cpu()} read)
 * @param sisUtil equivalent of {@code SCHED_FEAT(SIS_UTIL)} (default true): limit the idle-CPU scan
 *     of {@code select_idle_cpu()} by the LLC's {@code nr_idle_scan}
 * @param wakeupPreemption equivalent of {@code SCHED_FEAT(WAKEUP_PREEMPTION)} (default true)
 * @param runToParity equivalent of {@code SCHED_FEAT(RUN_TO_PARITY)} (default true): a task picked
 *     to run is protected from wakeup preemption while it stays eligible, up to its deadline at the
 *     pick; false protects it for {@code normalized_sysctl_sched_base_slice} (700 µs of its own run
 *     time) at most ({@code set_protect_slice()})
 * @param checkInvariants run the expensive invariant checks too (NOHZ mask, idle masks at every ILB
 *     kick, nr_busy_cpus, memory-bound counts); the cheap ones (each task on exactly one runqueue,
 *     affinity, ILB choice, runqueue counters) run in every run. Violations throw. {@link
 *     #defaults()} enables it when the system property {@code schedlab.invariants} is {@code true}
 * @param invariantSweepJiffies how often, in jiffies, the consistency sweep runs (local checks run
 *     at every change)
 * @param idleHistoryNs span before the start of the run within which each CPU last went idle, at a
 *     uniformly random instant drawn from the tie-break stream; default 10 ms, an assumption
 *     standing in for the boot and system activity that gives a real machine's CPUs distinct idle
 *     timestamps. It matters because {@code sched_balance_find_dst_group_cpu()} prefers the most
 *     recently idled CPU, so with equal timestamps every fork would land on the lower SMT sibling.
 *     0 gives every CPU the same timestamp (the lowest-numbered CPU wins ties)
 * @param spreadBalanceStamps start the run with each CPU's per-domain {@code last_balance} (and so
 *     {@code rq->next_balance}) at a uniformly random phase within the domain's idle interval,
 *     drawn from a stream of its own, as on a machine that has been up for a while (see {@code
 *     LoadBalancer.spreadBalanceStamps}); default true. False keeps the boot state of {@code
 *     sd_init()} and {@code sched_init()}: every stamp at jiffy 0, so every CPU is due at every
 *     level in the same jiffies. It matters most for the top levels, whose idle interval ({@code
 *     sd_weight} ms: 80 ms on an 80-CPU package) is long against a short run: in phase, no idle CPU
 *     is due at that level before the interval has passed, and then all are due together
 * @param retainShortIdleTick the idle governor's tick decision (default false: the tick stops at
 *     every idle entry, as the model always did). True models what the menu and teo governors do
 *     ({@code cpuidle_idle_call()} asks the governor whether to stop the tick): when the typical
 *     length of the CPU's recent idle periods is shorter than a tick, the tick keeps running, the
 *     CPU is not registered in {@code nohz.idle_cpus_mask} and balances itself from its tick; an
 *     idle CPU woken by its own tick records a long idle period (the governors discount tick
 *     wakeups when no timer is near), so a CPU that stays idle stops its tick soon after
 * @param skewTick {@code skew_tick=1}: each CPU's tick offset within the jiffy (default false)
 * @param wakeupRaceWindowNs how long a wakeup's choice stays unseen by other CPUs' wakeups (default
 *     0: wakeups never race)
 * @param deepIdleExitNs exit latency of a core-level deep idle state (x86 core C6, an Arm core's
 *     power-down state): an IPI to a CPU whose whole core has been idle for at least {@code
 *     deepIdleResidencyNs} (a wakeup's reschedule IPI, a NOHZ kick) acts this much later than
 *     {@code ipiLatencyNs}, and {@code sched_balance_find_dst_group_cpu()} prefers idle CPUs not in
 *     it, as the kernel prefers the shallowest {@code exit_latency}. Default 0: off, every idle CPU
 *     wakes after {@code ipiLatencyNs}. A core-level state is entered only when every SMT sibling
 *     is idle; the governor is modelled as choosing it once the core has been idle for the state's
 *     target residency (the menu and teo governors choose at idle entry from a predicted idle
 *     length; "idle so far" is the causal stand-in). Values for a Skylake-SP Xeon's C6 as {@code
 *     cpuidle} lists them: exit latency 133 µs, target residency 400 µs
 * @param deepIdleResidencyNs how long a core must have been idle to be in the deep state; default
 *     400 µs (see {@code deepIdleExitNs})
 * @param wakeupRule which kernel's rule places a waking task and decides wakeup preemption (default
 *     {@link WakeupRule#EEVDF}; {@link WakeupRule#CFS_6_1} for the kernel oracle's 6.1)
 * @param idleTimerRateHz timer expiries per second on each CPU ({@code -E idle_timer_rate}): a
 *     tickless idle CPU's hrtimer is programmed to its next timer event (RCU, the watchdog,
 *     deferrable timers of the vmstat and workqueue code), and each expiry runs {@code
 *     tick_nohz_handler()}'s tick path, {@code sched_tick()} with {@code sched_balance_trigger()},
 *     on the idle CPU; on a busy CPU the expiry's work steals from the running task. Default 3.6,
 *     the local timer interrupts per idle CPU per second the kernel oracle measured in a Linux 6.1
 *     guest (docs/kernel-oracle.md, "Idle-CPU timer wakeups"); 0: idle CPUs never wake
 * @param timerIrqNs CPU time of one such expiry (the hrtimer interrupt and its callbacks); default
 *     2 µs, an assumption
 * @param deviceIrqRateHz device interrupts per second ({@code -E device_irq_rate}), all handled on
 *     the boot CPU (the first online CPU): on arm64 with a GIC and no irqbalance, an interrupt that
 *     is not affinity-managed keeps the affinity of the CPU that requested it, the boot CPU at
 *     probe time. Default 100, an assumption for a quiet server (NIC link and management queues,
 *     BMC, console); no measurement of Vera exists. Each steals {@code deviceIrqNs} from the task
 *     running there or occupies the idle CPU
 * @param deviceIrqNs CPU time of one device interrupt (hardirq and its softirq); default 5 µs, an
 *     assumption
 * @param kworkerRateHz how often each CPU's bound kernel worker ({@code kworker/N}, a nice-0 task
 *     pinned to its CPU that {@code worker_thread()} runs) wakes for work, per second ({@code -E
 *     kworker_rate}). Default 1: {@code vmstat_update()} every {@code vm.stat_interval} (1 s,
 *     Documentation/admin-guide/sysctl/vm.rst) on a CPU whose counters changed, the most regular
 *     per-CPU work item; 0: no kernel workers. The worker is a real task: it leaves an idle CPU's
 *     idle loop and returns through newidle balancing, and on a busy CPU it queues beside the
 *     running task ({@code nr_running} 2) until wakeup preemption or the slice lets it run
 * @param kworkerRunNs work one kernel-worker wakeup does (work units: ns alone at capacity 1024);
 *     default 10 µs, an assumption
 */
public record EngineOptions(
    long ipiLatencyNs,
    long ilbPerCpuVisitedNs,
    long blockedLoadUpdateNs,
    long ilbSelectPerCpuNs,
    boolean sisUtil,
    boolean wakeupPreemption,
    boolean runToParity,
    boolean checkInvariants,
    int invariantSweepJiffies,
    long idleHistoryNs,
    boolean spreadBalanceStamps,
    boolean retainShortIdleTick,
    boolean skewTick,
    long wakeupRaceWindowNs,
    long deepIdleExitNs,
    long deepIdleResidencyNs,
    WakeupRule wakeupRule,
    double idleTimerRateHz,
    long timerIrqNs,
    double deviceIrqRateHz,
    long deviceIrqNs,
    double kworkerRateHz,
    long kworkerRunNs) {

  /** The system property that turns the invariant checker on in {@link #defaults()}. */
  public static final String INVARIANTS_PROPERTY = "schedlab.invariants";

  /** The largest background rate accepted, per second (per CPU for timers and workers). */
  public static final double MAX_RATE_HZ = 1_000_000;

  /**
   * @throws IllegalArgumentException for a negative cost or a sweep period below 1
   */
  public EngineOptions {
    requireNonNegative("ipiLatencyNs", ipiLatencyNs);
    requireNonNegative("ilbPerCpuVisitedNs", ilbPerCpuVisitedNs);
    requireNonNegative("blockedLoadUpdateNs", blockedLoadUpdateNs);
    requireNonNegative("ilbSelectPerCpuNs", ilbSelectPerCpuNs);
    requireNonNegative("idleHistoryNs", idleHistoryNs);
    requireNonNegative("wakeupRaceWindowNs", wakeupRaceWindowNs);
    requireNonNegative("deepIdleExitNs", deepIdleExitNs);
    requireNonNegative("deepIdleResidencyNs", deepIdleResidencyNs);
    Objects.requireNonNull(wakeupRule, "wakeupRule");
    requireRate("idleTimerRateHz", idleTimerRateHz);
    requireNonNegative("timerIrqNs", timerIrqNs);
    requireRate("deviceIrqRateHz", deviceIrqRateHz);
    requireNonNegative("deviceIrqNs", deviceIrqNs);
    requireRate("kworkerRateHz", kworkerRateHz);
    requireNonNegative("kworkerRunNs", kworkerRunNs);
    if (invariantSweepJiffies < 1) {
      throw new IllegalArgumentException(
          "invariantSweepJiffies "
              + invariantSweepJiffies
              + " outside the allowed range 1.."
              + Integer.MAX_VALUE);
    }
  }

  /**
   * The stated defaults: 2000, 100, 300, 10 ns, SIS_UTIL, wakeup preemption and RUN_TO_PARITY on,
   * invariants per the {@value #INVARIANTS_PROPERTY} system property, full sweep every 10 jiffies,
   * 10 ms of idle history, balance stamps spread, the tick stopped at every idle entry, ticks not
   * skewed, no wakeup race window, no deep idle state (residency 400 µs if one is set), EEVDF's
   * wakeup rule, the machine's background: 3.6 timer expiries per CPU per second of 2 µs, 100
   * device interrupts a second of 5 µs on the boot CPU, each CPU's kernel worker woken once a
   * second for 10 µs.
   */
  public static EngineOptions defaults() {
    return new EngineOptions(
        2_000,
        100,
        300,
        10,
        true,
        true,
        true,
        Boolean.getBoolean(INVARIANTS_PROPERTY),
        10,
        10_000_000,
        true,
        false,
        false,
        0,
        0,
        400_000,
        WakeupRule.EEVDF,
        3.6,
        2_000,
        100,
        5_000,
        1,
        10_000);
  }

  /** A copy with the invariant checker on or off. */
  public EngineOptions withCheckInvariants(boolean value) {
    return with(f -> f.checkInvariants = value);
  }

  /** A copy with another IPI latency. */
  public EngineOptions withIpiLatencyNs(long value) {
    return with(f -> f.ipiLatencyNs = value);
  }

  /** A copy with SIS_UTIL on or off. */
  public EngineOptions withSisUtil(boolean value) {
    return with(f -> f.sisUtil = value);
  }

  /** A copy with another idle-history span (0: all CPUs idle since the same instant). */
  public EngineOptions withIdleHistoryNs(long value) {
    return with(f -> f.idleHistoryNs = value);
  }

  /**
   * A copy with the balance stamps spread (true) or all at jiffy 0 as after boot (false); see
   * {@link #spreadBalanceStamps()}.
   */
  public EngineOptions withSpreadBalanceStamps(boolean value) {
    return with(f -> f.spreadBalanceStamps = value);
  }

  /** A copy with another cost per CPU visited by the ILB. */
  public EngineOptions withIlbPerCpuVisitedNs(long value) {
    return with(f -> f.ilbPerCpuVisitedNs = value);
  }

  /** A copy with another cost per blocked-load update. */
  public EngineOptions withBlockedLoadUpdateNs(long value) {
    return with(f -> f.blockedLoadUpdateNs = value);
  }

  /** A copy with another {@code find_new_ilb()} cost per CPU examined. */
  public EngineOptions withIlbSelectPerCpuNs(long value) {
    return with(f -> f.ilbSelectPerCpuNs = value);
  }

  /** A copy with the idle governor's tick decision modelled (true) or the tick always stopped. */
  public EngineOptions withRetainShortIdleTick(boolean value) {
    return with(f -> f.retainShortIdleTick = value);
  }

  /** A copy with the per-CPU tick offsets of {@code skew_tick=1} (true) or aligned ticks. */
  public EngineOptions withSkewTick(boolean value) {
    return with(f -> f.skewTick = value);
  }

  /** A copy with another wakeup race window (0: wakeups never race). */
  public EngineOptions withWakeupRaceWindowNs(long value) {
    return with(f -> f.wakeupRaceWindowNs = value);
  }

  /** A copy with another deep idle exit latency (0: no deep idle state). */
  public EngineOptions withDeepIdleExitNs(long value) {
    return with(f -> f.deepIdleExitNs = value);
  }

  /** A copy with another deep idle target residency. */
  public EngineOptions withDeepIdleResidencyNs(long value) {
    return with(f -> f.deepIdleResidencyNs = value);
  }

  /** A copy with another timer expiry rate per CPU (0: idle CPUs never wake). */
  public EngineOptions withIdleTimerRateHz(double value) {
    return with(f -> f.idleTimerRateHz = value);
  }

  /** A copy with another CPU time per timer expiry. */
  public EngineOptions withTimerIrqNs(long value) {
    return with(f -> f.timerIrqNs = value);
  }

  /** A copy with another device interrupt rate on the boot CPU (0: none). */
  public EngineOptions withDeviceIrqRateHz(double value) {
    return with(f -> f.deviceIrqRateHz = value);
  }

  /** A copy with another CPU time per device interrupt. */
  public EngineOptions withDeviceIrqNs(long value) {
    return with(f -> f.deviceIrqNs = value);
  }

  /** A copy with another kernel-worker wakeup rate per CPU (0: no kernel workers). */
  public EngineOptions withKworkerRateHz(double value) {
    return with(f -> f.kworkerRateHz = value);
  }

  /** A copy with another amount of work per kernel-worker wakeup. */
  public EngineOptions withKworkerRunNs(long value) {
    return with(f -> f.kworkerRunNs = value);
  }

  /**
   * A copy without the machine's background (no timer expiries, device interrupts or kernel
   * workers): the quiet machine the engine modelled before it had one.
   */
  public EngineOptions withoutBackground() {
    return with(
        f -> {
          f.idleTimerRateHz = 0;
          f.deviceIrqRateHz = 0;
          f.kworkerRateHz = 0;
        });
  }

  /** Whether any background activity is on. */
  public boolean hasBackground() {
    return idleTimerRateHz > 0 || deviceIrqRateHz > 0 || kworkerRateHz > 0;
  }

  /** A copy with wakeup preemption on or off. */
  public EngineOptions withWakeupPreemption(boolean value) {
    return with(f -> f.wakeupPreemption = value);
  }

  /** A copy with RUN_TO_PARITY on or off. */
  public EngineOptions withRunToParity(boolean value) {
    return with(f -> f.runToParity = value);
  }

  /** A copy with another wakeup placement and preemption rule. */
  public EngineOptions withWakeupRule(WakeupRule value) {
    return with(f -> f.wakeupRule = value);
  }

  /** A copy with the fields {@code change} sets on a mutable copy of this one. */
  private EngineOptions with(Consumer<Fields> change) {
    Fields f = new Fields(this);
    change.accept(f);
    return f.build();
  }

  /** The fields of a record being copied; one place that lists them all. */
  private static final class Fields {
    long ipiLatencyNs;
    long ilbPerCpuVisitedNs;
    long blockedLoadUpdateNs;
    long ilbSelectPerCpuNs;
    boolean sisUtil;
    boolean wakeupPreemption;
    boolean runToParity;
    boolean checkInvariants;
    int invariantSweepJiffies;
    long idleHistoryNs;
    boolean spreadBalanceStamps;
    boolean retainShortIdleTick;
    boolean skewTick;
    long wakeupRaceWindowNs;
    long deepIdleExitNs;
    long deepIdleResidencyNs;
    WakeupRule wakeupRule;
    double idleTimerRateHz;
    long timerIrqNs;
    double deviceIrqRateHz;
    long deviceIrqNs;
    double kworkerRateHz;
    long kworkerRunNs;

    Fields(EngineOptions o) {
      ipiLatencyNs = o.ipiLatencyNs;
      ilbPerCpuVisitedNs = o.ilbPerCpuVisitedNs;
      blockedLoadUpdateNs = o.blockedLoadUpdateNs;
      ilbSelectPerCpuNs = o.ilbSelectPerCpuNs;
      sisUtil = o.sisUtil;
      wakeupPreemption = o.wakeupPreemption;
      runToParity = o.runToParity;
      checkInvariants = o.checkInvariants;
      invariantSweepJiffies = o.invariantSweepJiffies;
      idleHistoryNs = o.idleHistoryNs;
      spreadBalanceStamps = o.spreadBalanceStamps;
      retainShortIdleTick = o.retainShortIdleTick;
      skewTick = o.skewTick;
      wakeupRaceWindowNs = o.wakeupRaceWindowNs;
      deepIdleExitNs = o.deepIdleExitNs;
      deepIdleResidencyNs = o.deepIdleResidencyNs;
      wakeupRule = o.wakeupRule;
      idleTimerRateHz = o.idleTimerRateHz;
      timerIrqNs = o.timerIrqNs;
      deviceIrqRateHz = o.deviceIrqRateHz;
      deviceIrqNs = o.deviceIrqNs;
      kworkerRateHz = o.kworkerRateHz;
      kworkerRunNs = o.kworkerRunNs;
    }

    EngineOptions build() {
      return new EngineOptions(
          ipiLatencyNs,
          ilbPerCpuVisitedNs,
          blockedLoadUpdateNs,
          ilbSelectPerCpuNs,
          sisUtil,
          wakeupPreemption,
          runToParity,
          checkInvariants,
          invariantSweepJiffies,
          idleHistoryNs,
          spreadBalanceStamps,
          retainShortIdleTick,
          skewTick,
          wakeupRaceWindowNs,
          deepIdleExitNs,
          deepIdleResidencyNs,
          wakeupRule,
          idleTimerRateHz,
          timerIrqNs,
          deviceIrqRateHz,
          deviceIrqNs,
          kworkerRateHz,
          kworkerRunNs);
    }
  }

  private static void requireRate(String name, double value) {
    if (!(value >= 0) || value > MAX_RATE_HZ) {
      throw new IllegalArgumentException(
          name + " " + value + " outside the allowed range 0.." + (long) MAX_RATE_HZ);
    }
  }

  private static void requireNonNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          name + " " + value + " outside the allowed range 0.." + Long.MAX_VALUE);
    }
  }
}
