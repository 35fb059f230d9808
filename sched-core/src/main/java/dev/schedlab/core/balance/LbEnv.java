package dev.schedlab.core.balance;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;

/**
 * Equivalent of {@code struct lb_env} in {@code kernel/sched/fair.c}: the state of one {@code
 * sched_balance_rq()} or active-balance move, handed from piece to piece of the balancer as the
 * kernel hands {@code env}. Preallocated and reused, its {@code env->cpus} mask included.
 */
final class LbEnv {
  /** Equivalent of {@code SCHED_NR_MIGRATE_BREAK} (non-RT): tasks examined per lock hold. */
  static final int SCHED_NR_MIGRATE_BREAK = 32;

  /** {@code LBF_ALL_PINNED}: every task examined so far is pinned away from dst. */
  static final int LBF_ALL_PINNED = 0x01;

  /** {@code LBF_NEED_BREAK}: {@code loop_break} tasks were examined; drop the lock and resume. */
  static final int LBF_NEED_BREAK = 0x02;

  /** {@code LBF_DST_PINNED}: a task may not run on dst but may on {@code new_dst_cpu}. */
  static final int LBF_DST_PINNED = 0x04;

  /** {@code LBF_SOME_PINNED}: some task was pinned away from dst. */
  static final int LBF_SOME_PINNED = 0x08;

  /** {@code LBF_ACTIVE_LB}: an active-balance move; cache hotness is ignored. */
  static final int LBF_ACTIVE_LB = 0x10;

  /**
   * {@code env->cpus} ({@code load_balance_mask}): the CPUs this attempt may still use; filled by
   * {@link SchedBalanceRq#prepareEnv}, never read by an active-balance move.
   */
  final MutableCpuMask cpus;

  SchedDomain sd;
  int dstCpu;

  /** {@code env->dst_grpmask}: the local group's balance mask; null for active balancing. */
  CpuMask dstGrpmask;

  IdleType idle;
  int srcCpu;
  long imbalance;
  MigrationType migrationType;
  int flags;
  int loop;
  int loopMax;
  int loopBreak;
  int newDstCpu;

  /**
   * {@code env->cpus} is still the span's active CPUs as {@link SchedBalanceRq#prepareEnv} set it
   * (no CPU dropped for pinned tasks), so a search covers the whole span.
   */
  boolean cpusWhole;

  /** Set by {@code can_migrate_task()} when it let a cache-hot task go ({@code sched_task_hot}). */
  boolean taskHot;

  LbEnv(int nrCpuIds) {
    cpus = CpuMasks.mutable(nrCpuIds);
  }

  /** The designated initializer of {@code sched_balance_rq()} / the active-balance stopper. */
  void reset(SchedDomain domain, int dst, CpuMask grpmask, IdleType idleType, int initialFlags) {
    sd = domain;
    dstCpu = dst;
    dstGrpmask = grpmask;
    idle = idleType;
    srcCpu = -1;
    imbalance = 0;
    migrationType = MigrationType.LOAD;
    flags = initialFlags;
    loop = 0;
    loopMax = 0;
    loopBreak = SCHED_NR_MIGRATE_BREAK;
    newDstCpu = -1;
    taskHot = false;
    cpusWhole = false;
  }
}
