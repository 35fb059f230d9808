package dev.schedlab.core.balance;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;

/**
 * Equivalent of {@code struct lb_env} in {@code kernel/sched/fair.c}: the state of one {@code
 * sched_balance_rq()} or active-balance move. Preallocated and reused; {@code env->cpus} is the
 * balancer's own reusable mask and is not held here.
 */
final class LbEnv {
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
  /** [ML] {@code env->dst_core_idle}. */
  boolean dstCoreIdle;
  /** Set by {@code can_migrate_task()} when it let a cache-hot task go ({@code sched_task_hot}). */
  boolean taskHot;

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
    loopBreak = LoadBalancer.SCHED_NR_MIGRATE_BREAK;
    newDstCpu = -1;
    dstCoreIdle = false;
    taskHot = false;
  }
}
