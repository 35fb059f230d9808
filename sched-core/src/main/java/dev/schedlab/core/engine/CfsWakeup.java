package dev.schedlab.core.engine;

/**
 * Linux 6.1's CFS rules for a waking or new task ({@link WakeupRule#CFS_6_1}): {@code
 * place_entity()} with GENTLE_FAIR_SLEEPERS and START_DEBIT, the {@code min_vruntime} normalization
 * that {@code migrate_task_rq_fair()} and {@code dequeue_entity()} apply when a task changes
 * runqueue, and {@code check_preempt_wakeup()}'s {@code wakeup_preempt_entity()} test. The tunables
 * are 6.1's defaults scaled by {@code get_update_sysctl_factor()} (1 + ilog2(min(CPUs, 8)),
 * SCHED_TUNABLESCALING_LOG): {@code sysctl_sched_latency} 6 ms, {@code
 * sysctl_sched_min_granularity} 0.75 ms and {@code sysctl_sched_wakeup_granularity} 1 ms, each
 * times that factor ({@code /sys/kernel/debug/sched/} of an 8-CPU 6.1 guest shows 24, 3 and 4 ms).
 * Everything here is arithmetic on values: no allocation.
 */
final class CfsWakeup {

  /** {@code normalized_sysctl_sched_latency}. */
  static final long NORMALIZED_LATENCY_NS = 6_000_000L;

  /** {@code normalized_sysctl_sched_min_granularity}. */
  static final long NORMALIZED_MIN_GRANULARITY_NS = 750_000L;

  /** {@code normalized_sysctl_sched_wakeup_granularity}. */
  static final long NORMALIZED_WAKEUP_GRANULARITY_NS = 1_000_000L;

  /** {@code sched_nr_latency}: latency / min_granularity. */
  static final int SCHED_NR_LATENCY = 8;

  final long latencyNs;
  final long minGranularityNs;
  final long wakeupGranularityNs;

  /** The tunables of a machine with {@code onlineCpus} CPUs. */
  CfsWakeup(int onlineCpus) {
    int cpus = Math.max(1, Math.min(onlineCpus, 8));
    long factor = 1 + (31 - Integer.numberOfLeadingZeros(cpus));
    latencyNs = NORMALIZED_LATENCY_NS * factor;
    minGranularityNs = NORMALIZED_MIN_GRANULARITY_NS * factor;
    wakeupGranularityNs = NORMALIZED_WAKEUP_GRANULARITY_NS * factor;
  }

  /**
   * Models {@code wakeup_preempt_entity(curr, se) == 1}: the wakee preempts when the running task's
   * vruntime exceeds the wakee's by more than {@code wakeup_gran(se)}, the wakeup granularity
   * converted to the wakee's virtual time ({@code calc_delta_fair()}).
   */
  boolean preempts(long currVruntime, long wakeeVruntime, int wakeeWeight) {
    long vdiff = currVruntime - wakeeVruntime;
    if (vdiff <= 0) {
      return false;
    }
    return vdiff > wakeupGranularityNs * LoadWeights.NICE_0_LOAD / wakeeWeight;
  }

  /**
   * Models {@code place_entity(cfs_rq, se, 0)} after the normalization across runqueues: a waking
   * task keeps its vruntime relative to {@code min_vruntime} ({@code relative}), but is put at most
   * {@code sysctl_sched_latency / 2} behind it (GENTLE_FAIR_SLEEPERS' sleeper credit).
   */
  long placeWaking(long minVruntime, long relative) {
    return minVruntime + Math.max(relative, -(latencyNs / 2));
  }

  /**
   * Models {@code place_entity(cfs_rq, se, 1)} for a new task: START_DEBIT puts it one virtual
   * slice ({@code sched_vslice()}) after {@code min_vruntime}, the slice being its share of the
   * period with it enqueued.
   *
   * @param nrRunning tasks on the runqueue before the new one
   * @param loadWeight their summed weight
   */
  long placeNew(long minVruntime, int nrRunning, long loadWeight, int weight) {
    long slice = sliceNs(nrRunning + 1, loadWeight + weight, weight);
    return minVruntime + slice * LoadWeights.NICE_0_LOAD / weight;
  }

  /**
   * Models {@code sched_slice()}: {@code __sched_period(nr)} (the latency, or {@code nr} minimum
   * granularities beyond {@code sched_nr_latency} tasks) times the task's share of the load.
   */
  long sliceNs(int nrRunning, long loadWeight, int weight) {
    long period = nrRunning > SCHED_NR_LATENCY ? nrRunning * minGranularityNs : latencyNs;
    return period * weight / Math.max(1, loadWeight);
  }

  /**
   * {@code cfs_rq->min_vruntime} as the placement reads it: the smallest vruntime of the running
   * and queued tasks, or the queue's last one when empty.
   */
  static long minVruntime(CpuRunqueue rq) {
    if (rq.nr == 0) {
      return rq.zeroVruntime;
    }
    long min = Long.MAX_VALUE;
    for (int i = 0; i < rq.nr; i++) {
      min = Math.min(min, rq.tasks[i].vruntime);
    }
    return min;
  }
}
