package dev.schedlab.core.balance;

/**
 * Tunables of the fair-class load balancer: the scheduler features and sysctls that change what
 * {@link LoadBalancer} does, and which kernel version's rules it follows.
 *
 * @param niRandom equivalent of {@code SCHED_FEAT(NI_RANDOM)} (default true): newidle balancing of
 *     a domain runs only with a probability that follows the domain's recent success rate ({@code
 *     sd->newidle_ratio}), drawn from the CPU's {@code sched_rng()} stream
 * @param niRate equivalent of {@code SCHED_FEAT(NI_RATE)} (default true): the newidle success ratio
 *     is raised by the wall time that the last ~512 attempts spanned, so rarely-idle CPUs keep
 *     balancing on newidle
 * @param migrationCostNs equivalent of {@code sysctl_sched_migration_cost} (default 500000 ns): a
 *     task that started running less than this long ago is cache-hot ({@code task_hot()}); 0 makes
 *     no task hot, -1 makes every task hot. Also the floor of {@code max_idle_balance_cost}
 * @param nrMigrate equivalent of {@code sysctl_sched_nr_migrate} (default 32): at most this many
 *     tasks are examined per {@code sched_balance_rq()} ({@code env->loop_max})
 * @param preemptNewidleAfterOneTask equivalent of building with {@code CONFIG_PREEMPTION} (default
 *     true): a {@code CPU_NEWLY_IDLE} pass stops after detaching one task
 * @param mainlineDeltas true to apply the post-7.1 mainline changes marked [ML] in kernel-facts
 *     (tip sched/core of 2026-08: {@code sched_smt_active()} gate in {@code should_we_balance()},
 *     {@code dst_core_idle}, asymmetric-capacity misfit and capacity rules in {@code
 *     update_sg_lb_stats()} / {@code update_sd_pick_busiest()} / {@code
 *     sched_balance_find_src_rq()}); false follows Linux 7.1.5
 * @param idleCoreBalanceCpu whether {@code should_we_balance()} prefers an idle CPU on a fully idle
 *     core as the group's balancing CPU (default true, since b1bfeab9b002 "sched/fair: Consider the
 *     idle state of the whole core for load balance", v6.6); false is Linux 6.1's rule, the group's
 *     first idle CPU whatever its siblings do
 */
public record BalancerOptions(
    boolean niRandom,
    boolean niRate,
    long migrationCostNs,
    int nrMigrate,
    boolean preemptNewidleAfterOneTask,
    boolean mainlineDeltas,
    boolean idleCoreBalanceCpu) {

  /** Equivalent of the {@code sysctl_sched_migration_cost} default: 0.5 ms. */
  public static final long DEFAULT_MIGRATION_COST_NS = 500_000L;

  /** Equivalent of {@code SCHED_NR_MIGRATE_BREAK}, the {@code sysctl_sched_nr_migrate} default. */
  public static final int DEFAULT_NR_MIGRATE = 32;

  /**
   * @throws IllegalArgumentException if {@code migrationCostNs < -1} or {@code nrMigrate < 0}
   */
  public BalancerOptions {
    if (migrationCostNs < -1) {
      throw new IllegalArgumentException(
          "migrationCostNs "
              + migrationCostNs
              + " outside the allowed range -1.."
              + Long.MAX_VALUE
              + " (-1 = every task cache-hot)");
    }
    if (nrMigrate < 0) {
      throw new IllegalArgumentException(
          "nrMigrate " + nrMigrate + " outside the allowed range 0.." + Integer.MAX_VALUE);
    }
  }

  /** Options with {@code should_we_balance()}'s idle-core preference, as since v6.6. */
  public BalancerOptions(
      boolean niRandom,
      boolean niRate,
      long migrationCostNs,
      int nrMigrate,
      boolean preemptNewidleAfterOneTask,
      boolean mainlineDeltas) {
    this(
        niRandom,
        niRate,
        migrationCostNs,
        nrMigrate,
        preemptNewidleAfterOneTask,
        mainlineDeltas,
        true);
  }

  /**
   * The kernel defaults with the 2026-08 mainline rules: (true, true, 500000, 32, true, true,
   * true).
   */
  public static BalancerOptions defaults() {
    return new BalancerOptions(
        true, true, DEFAULT_MIGRATION_COST_NS, DEFAULT_NR_MIGRATE, true, true, true);
  }

  /** A copy with {@code idleCoreBalanceCpu} replaced. */
  public BalancerOptions withIdleCoreBalanceCpu(boolean value) {
    return new BalancerOptions(
        niRandom,
        niRate,
        migrationCostNs,
        nrMigrate,
        preemptNewidleAfterOneTask,
        mainlineDeltas,
        value);
  }

  /** A copy with {@code mainlineDeltas} replaced. */
  public BalancerOptions withMainlineDeltas(boolean value) {
    return new BalancerOptions(
        niRandom,
        niRate,
        migrationCostNs,
        nrMigrate,
        preemptNewidleAfterOneTask,
        value,
        idleCoreBalanceCpu);
  }

  /** A copy with {@code niRandom} replaced. */
  public BalancerOptions withNiRandom(boolean value) {
    return new BalancerOptions(
        value,
        niRate,
        migrationCostNs,
        nrMigrate,
        preemptNewidleAfterOneTask,
        mainlineDeltas,
        idleCoreBalanceCpu);
  }

  /** A copy with {@code niRate} replaced. */
  public BalancerOptions withNiRate(boolean value) {
    return new BalancerOptions(
        niRandom,
        value,
        migrationCostNs,
        nrMigrate,
        preemptNewidleAfterOneTask,
        mainlineDeltas,
        idleCoreBalanceCpu);
  }

  /** A copy with {@code migrationCostNs} replaced. */
  public BalancerOptions withMigrationCostNs(long value) {
    return new BalancerOptions(
        niRandom,
        niRate,
        value,
        nrMigrate,
        preemptNewidleAfterOneTask,
        mainlineDeltas,
        idleCoreBalanceCpu);
  }
}
