package dev.schedlab.core.balance;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.random.RandomGenerator;

/**
 * The balancer's run-time state, which the kernel keeps in {@code struct sched_domain}, {@code
 * struct rq}, {@code struct sched_group_capacity} and {@code struct root_domain}: per CPU × domain
 * level a {@link SchedDomainState} ({@code balance_interval}, {@code nr_balance_failed}, {@code
 * last_balance}, the newidle cost and ratio); per CPU {@code rq->next_balance} and {@code
 * rq->max_idle_balance_cost}; {@code sgc->imbalance} per group-capacity slot; and the root domain's
 * {@code overloaded} flag. Also the rules that only read and write that state: {@code
 * get_sd_balance_interval()}, {@code update_next_balance()}, the root-domain part of {@code
 * add_nr_running()}.
 *
 * <p>Built once for a machine and its domains, which must not change for its lifetime; nothing here
 * allocates after construction.
 */
final class BalancerState {

  /** {@code max_load_balance_interval}: {@code HZ * num_online_cpus() / 10} jiffies. */
  private final long maxLoadBalanceInterval;

  private final BalanceHost host;
  private final CpuStateView cpuState;
  private final BalancerOptions options;
  private final int levels;
  private final int hz;
  private final SchedDomain[][] chains;

  /** Per CPU × level, index {@code cpu * levels + level}; null past the end of a CPU's chain. */
  private final SchedDomainState[] domains;

  /** {@code rq->next_balance} per CPU, jiffies: when the CPU's periodic balance is next due. */
  final long[] nextBalance;

  /** {@code rq->max_idle_balance_cost} per CPU, ns. */
  final long[] maxIdleBalanceCostNs;

  /** {@code sgc->imbalance}, per {@link dev.schedlab.topology.domain.SchedGroup#capacitySlot()}. */
  final boolean[] sgcImbalance;

  /** {@code rd->overloaded} of the one root domain. */
  boolean rdOverloaded;

  /**
   * The state of a freshly built machine, as {@code sd_init()} and {@code sched_init()} leave it:
   * every stamp at the host's current jiffy, {@code max_idle_balance_cost} at {@code
   * sysctl_sched_migration_cost}.
   *
   * @throws IllegalArgumentException if {@code host.hz() <= 0}
   */
  BalancerState(BalanceHost host, BalancerOptions options) {
    this.host = host;
    this.cpuState = host.state();
    this.options = options;
    this.hz = host.hz();
    if (hz <= 0) {
      throw new IllegalArgumentException("hz " + hz + " must be positive");
    }
    SchedDomains sched = host.domains();
    int nrCpuIds = host.topology().nrCpuIds();
    this.levels = Math.max(1, sched.maxLevels());
    this.maxLoadBalanceInterval = Math.max(1, (long) hz * host.topology().cpuCount() / 10);
    this.chains = new SchedDomain[nrCpuIds][];
    this.domains = new SchedDomainState[nrCpuIds * levels];
    this.nextBalance = new long[nrCpuIds];
    this.maxIdleBalanceCostNs = new long[nrCpuIds];
    long jiffies = host.jiffies();
    long now = host.nowNs();
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      chains[cpu] = sched.domains(cpu).toArray(new SchedDomain[0]);
      for (SchedDomain sd : chains[cpu]) {
        SchedDomainState state = new SchedDomainState(sd.initialBalanceIntervalMs(), jiffies, now);
        state.groupsInActiveSpan = groupsInActiveSpan(sd, host.activeMask());
        state.localGroupIsChildSpan =
            sd.child() != null && sd.localGroup().span().contentEquals(sd.child().span());
        if (sd.parent() != null) {
          state.parentLocalGroupSlot = sd.parent().localGroup().capacitySlot();
        }
        domains[index(sd)] = state;
      }
      nextBalance[cpu] = jiffies;
      maxIdleBalanceCostNs[cpu] = migrationCostFloorNs();
    }
    this.sgcImbalance = new boolean[Math.max(1, sched.capacitySlotCount())];
  }

  /** Whether every group of {@code sd} lies in its span's active CPUs. */
  private static boolean groupsInActiveSpan(SchedDomain sd, CpuMask active) {
    if (!sd.span().isSubsetOf(active)) {
      return false;
    }
    for (int g = 0, n = sd.nrGroups(); g < n; g++) {
      if (!sd.group(g).span().isSubsetOf(sd.span())) {
        return false;
      }
    }
    return true;
  }

  /** Tick rate of the host. */
  int hz() {
    return hz;
  }

  /** {@code cpu}'s domains bottom-up ({@code for_each_domain()}); empty without domains. */
  SchedDomain[] chain(int cpu) {
    return chains[cpu];
  }

  /** The run-time fields of {@code sd}. */
  SchedDomainState domain(SchedDomain sd) {
    return domains[index(sd)];
  }

  /** The lowest domain of {@code cpu} whose span holds {@code other}, or null. */
  SchedDomain lowestDomainSpanning(int cpu, int other) {
    for (SchedDomain sd : chains[cpu]) {
      if (sd.span().test(other)) {
        return sd;
      }
    }
    return null;
  }

  /** Models {@code get_sd_balance_interval(sd, cpu_busy)} in {@code kernel/sched/fair.c}. */
  long sdBalanceInterval(SchedDomain sd, boolean busy) {
    long ms = domain(sd).balanceIntervalMs;
    if (busy) {
      ms *= sd.busyFactor();
    }
    long interval = msecsToJiffies(ms);
    if (busy) {
      // Keeps the busy periods of different levels from being multiples of each other.
      interval -= 1;
    }
    return Math.max(1, Math.min(interval, maxLoadBalanceInterval));
  }

  /** Equivalent of {@code msecs_to_jiffies()}: rounds up. */
  private long msecsToJiffies(long ms) {
    return (ms * hz + 999) / 1000;
  }

  /**
   * Models {@code update_next_balance(sd, &next_balance)} in {@code kernel/sched/fair.c}: the
   * earlier of {@code next} and the domain's next idle-interval deadline.
   */
  long updateNextBalance(SchedDomain sd, long next) {
    long candidate = domain(sd).lastBalance + sdBalanceInterval(sd, false);
    return Math.min(next, candidate);
  }

  /**
   * Models the root-domain part of {@code add_nr_running()} in {@code kernel/sched/sched.h}: when a
   * runqueue goes from fewer than two tasks to two or more, {@code rd->overloaded} is set, which
   * opens the newidle gate.
   */
  void addNrRunning(int previousNrRunning, int nrRunning) {
    if (previousNrRunning < 2 && nrRunning >= 2) {
      rdOverloaded = true;
    }
  }

  /**
   * {@link dev.schedlab.spi.view.BalanceActions#resetBalanceInterval}: for every domain of {@code
   * cpu}, {@code balance_interval := min_interval} and {@code last_balance := jiffies}; {@code
   * rq->next_balance} is pulled in to the earliest resulting deadline.
   */
  void resetBalanceInterval(int cpu) {
    long jiffies = host.jiffies();
    boolean busy = !cpuState.isIdle(cpu) && !cpuState.isSchedIdleRq(cpu);
    for (SchedDomain sd : chains[cpu]) {
      SchedDomainState s = domain(sd);
      s.balanceIntervalMs = sd.minIntervalMs();
      s.lastBalance = jiffies;
      nextBalance[cpu] = Math.min(nextBalance[cpu], jiffies + sdBalanceInterval(sd, busy));
    }
  }

  /**
   * Replaces the boot-time balance stamps by the phases of a machine that has been up for a while,
   * before anything runs. The kernel's domain builder ({@code sd_init()}) stamps every domain's
   * {@code last_balance} with the current jiffy and {@code sched_init()} sets every {@code
   * rq->next_balance} to it, so just after boot (and after every domain rebuild) all CPUs are due
   * at every level in the same jiffy. That phase does not last: {@code sched_balance_domains()}
   * stamps a domain with the jiffy its balance actually ran, which depends on when the CPU went
   * idle or busy, on when an idle load balancer happened to be kicked for it, and on the busy
   * interval ({@code balance_interval × busy_factor} less one jiffy, which {@code
   * get_sd_balance_interval()} keeps from being a multiple of the idle one). The model therefore
   * draws, for every CPU and domain bottom-up, {@code last_balance := jiffies - k} with {@code k}
   * uniform in {@code [0, interval)} where {@code interval} is the domain's idle interval ({@code
   * get_sd_balance_interval(sd, 0)}; the CPUs are idle at the start), so each domain of each CPU is
   * next due at a jiffy uniform over its next interval; {@code rq->next_balance} becomes the
   * earliest of those deadlines, as {@code sched_balance_domains()} would leave it. Uniform phases
   * are an assumption (the maximum-entropy steady state; no source measured the distribution);
   * {@code balance_interval} keeps its initial value.
   *
   * @param random the stream to draw the phases from, CPUs ascending, domains bottom-up
   */
  void spreadBalanceStamps(RandomGenerator random) {
    long jiffies = host.jiffies();
    for (int cpu = 0; cpu < chains.length; cpu++) {
      if (chains[cpu].length == 0) {
        continue;
      }
      long next = Long.MAX_VALUE;
      for (SchedDomain sd : chains[cpu]) {
        SchedDomainState s = domain(sd);
        long interval = sdBalanceInterval(sd, false);
        s.lastBalance = jiffies - random.nextLong(interval);
        next = Math.min(next, s.lastBalance + interval);
      }
      nextBalance[cpu] = next;
    }
  }

  /** {@code sysctl_sched_migration_cost} as the kernel's unsigned floor uses it. */
  long migrationCostFloorNs() {
    long migrationCost = options.migrationCostNs();
    return migrationCost == -1 ? 0xFFFF_FFFFL : migrationCost;
  }

  private int index(SchedDomain sd) {
    return sd.cpu() * levels + sd.level();
  }
}
