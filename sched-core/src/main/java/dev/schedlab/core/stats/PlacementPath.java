package dev.schedlab.core.stats;

import java.util.List;

/**
 * Which step of {@code select_task_rq()} chose the CPU for a forked or woken task. The kernel's
 * schedstat counts only where a wakeup landed ({@code ttwu_local}, {@code ttwu_move_affine}); this
 * says why, so that a comparison shows, for example, that a rule stacks wakees because their target
 * "counts as idle" while running SCHED_IDLE work, or that wakeups fall through to the LLC scan.
 * Each placement counts once, under the step whose answer was used.
 */
public enum PlacementPath {
  /** {@code sched_balance_find_dst_cpu()}: forks and execs, or {@code SD_BALANCE_WAKE}. */
  SLOW("slow", "slow path: sched_balance_find_dst_cpu()"),
  /** Neither slow path nor {@code select_idle_sibling()}: {@code new_cpu} as it was. */
  NO_SEARCH("no_search", "no search: new_cpu as is"),
  /** {@code select_idle_sibling()}'s target (waker's CPU after wake_affine, or prev), idle. */
  TARGET_IDLE("target_idle", "target idle"),
  /** ... its target, counted idle because it runs only SCHED_IDLE tasks. */
  TARGET_SCHED_IDLE("target_sched_idle", "target runs only SCHED_IDLE, counted idle"),
  /** The previous CPU, idle and sharing the target's cache. */
  PREV_IDLE("prev_idle", "prev idle"),
  /** ... counted idle because it runs only SCHED_IDLE tasks. */
  PREV_SCHED_IDLE("prev_sched_idle", "prev runs only SCHED_IDLE, counted idle"),
  /** {@code p->recent_used_cpu}. */
  RECENT("recent", "recent_used_cpu"),
  /** {@code select_idle_capacity()} on an asymmetric-capacity machine. */
  ASYM_CAPACITY("asym_capacity", "select_idle_capacity()"),
  /** {@code select_idle_smt()}: an idle SMT sibling of prev. */
  SMT_SIBLING("smt_sibling", "select_idle_smt()"),
  /** {@code select_idle_cpu()}: the LLC scan (an idle core, or an idle CPU). */
  LLC_SCAN("llc_scan", "select_idle_cpu()"),
  /** Nothing idle found: {@code prev_aff}, {@code recent_used_cpu} or the busy target. */
  NONE_IDLE("none_idle", "nothing idle found: prev_aff, recent or target"),
  /** A wakeup policy's {@code selectFinal()} changed the choice. */
  POLICY("policy", "changed by a wakeup policy"),
  /** The task may run on one CPU only. */
  ONE_CPU("one_cpu", "one allowed CPU"),
  /** {@code select_fallback_rq()}: the choice was not allowed or not active. */
  FALLBACK_RQ("fallback_rq", "select_fallback_rq()");

  /** Every path, in declaration order (indexes are ordinals). */
  public static final List<PlacementPath> ALL = List.of(values());

  private final String key;
  private final String label;

  PlacementPath(String key, String label) {
    this.key = key;
    this.label = label;
  }

  /** A short snake_case name for reports ({@code placement_<key>}). */
  public String key() {
    return key;
  }

  /** A one-line description in the kernel's terms. */
  public String label() {
    return label;
  }
}
