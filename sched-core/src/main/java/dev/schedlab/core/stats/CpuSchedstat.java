package dev.schedlab.core.stats;

/**
 * The fields of one {@code cpu<N>} line of {@code /proc/schedstat} version 17 ({@code
 * show_schedstat()} in kernel/sched/stats.c), in printed order after the legacy zero.
 *
 * @param yldCount {@code yld_count}: {@code sched_yield()} calls (always 0 here: tasks never yield)
 * @param schedCount {@code sched_count}: calls of {@code __schedule()}
 * @param schedGoidle {@code sched_goidle}: times the idle task was picked
 * @param ttwuCount {@code ttwu_count}: wakeups performed by this CPU
 * @param ttwuLocal {@code ttwu_local}: wakeups by this CPU of a task placed on this CPU
 * @param rqCpuTimeNs {@code rq_cpu_time}: time tasks ran on this CPU
 * @param runDelayNs {@code rq_sched_info.run_delay}: time tasks waited on this runqueue
 * @param pcount {@code rq_sched_info.pcount}: times a task was switched in on this CPU
 */
public record CpuSchedstat(
    long yldCount,
    long schedCount,
    long schedGoidle,
    long ttwuCount,
    long ttwuLocal,
    long rqCpuTimeNs,
    long runDelayNs,
    long pcount) {}
