package dev.schedlab.core.engine;

/**
 * Engine settings that are modelling assumptions rather than kernel tunables. Every number is an
 * assumption of this model (no source measured it for the simulated machines); all are
 * overridable.
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
 * @param sisUtil equivalent of {@code SCHED_FEAT(SIS_UTIL)} (default true): limit the idle-CPU
 *     scan of {@code select_idle_cpu()} by the LLC's {@code nr_idle_scan}
 * @param wakeupPreemption equivalent of {@code SCHED_FEAT(WAKEUP_PREEMPTION)} (default true)
 * @param checkInvariants run the invariant checker (each task on exactly one runqueue, affinity,
 *     ILB choice, NOHZ mask); violations throw. {@link #defaults()} enables it when the system
 *     property {@code schedlab.invariants} is {@code true}
 * @param invariantSweepJiffies how often, in jiffies, the full consistency sweep runs when the
 *     checker is on (local checks run at every change)
 */
public record EngineOptions(
    long ipiLatencyNs,
    long ilbPerCpuVisitedNs,
    long blockedLoadUpdateNs,
    long ilbSelectPerCpuNs,
    boolean sisUtil,
    boolean wakeupPreemption,
    boolean checkInvariants,
    int invariantSweepJiffies) {

  /** The system property that turns the invariant checker on in {@link #defaults()}. */
  public static final String INVARIANTS_PROPERTY = "schedlab.invariants";

  /** @throws IllegalArgumentException for a negative cost or a sweep period below 1 */
  public EngineOptions {
    requireNonNegative("ipiLatencyNs", ipiLatencyNs);
    requireNonNegative("ilbPerCpuVisitedNs", ilbPerCpuVisitedNs);
    requireNonNegative("blockedLoadUpdateNs", blockedLoadUpdateNs);
    requireNonNegative("ilbSelectPerCpuNs", ilbSelectPerCpuNs);
    if (invariantSweepJiffies < 1) {
      throw new IllegalArgumentException(
          "invariantSweepJiffies " + invariantSweepJiffies + " outside the allowed range 1.."
              + Integer.MAX_VALUE);
    }
  }

  /**
   * The stated defaults: 2000, 100, 300, 10 ns, SIS_UTIL and wakeup preemption on, invariants
   * per the {@value #INVARIANTS_PROPERTY} system property, full sweep every 10 jiffies.
   */
  public static EngineOptions defaults() {
    return new EngineOptions(
        2_000, 100, 300, 10, true, true, Boolean.getBoolean(INVARIANTS_PROPERTY), 10);
  }

  /** A copy with the invariant checker on or off. */
  public EngineOptions withCheckInvariants(boolean value) {
    return new EngineOptions(
        ipiLatencyNs, ilbPerCpuVisitedNs, blockedLoadUpdateNs, ilbSelectPerCpuNs, sisUtil,
        wakeupPreemption, value, invariantSweepJiffies);
  }

  /** A copy with another IPI latency. */
  public EngineOptions withIpiLatencyNs(long value) {
    return new EngineOptions(
        value, ilbPerCpuVisitedNs, blockedLoadUpdateNs, ilbSelectPerCpuNs, sisUtil,
        wakeupPreemption, checkInvariants, invariantSweepJiffies);
  }

  /** A copy with SIS_UTIL on or off. */
  public EngineOptions withSisUtil(boolean value) {
    return new EngineOptions(
        ipiLatencyNs, ilbPerCpuVisitedNs, blockedLoadUpdateNs, ilbSelectPerCpuNs, value,
        wakeupPreemption, checkInvariants, invariantSweepJiffies);
  }

  private static void requireNonNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          name + " " + value + " outside the allowed range 0.." + Long.MAX_VALUE);
    }
  }
}
