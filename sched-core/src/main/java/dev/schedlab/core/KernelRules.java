package dev.schedlab.core;

import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.WakeupRule;

/**
 * Engine rule sets: which kernel's rules the engine follows where a rule difference moves a figure
 * the kernel oracle compares. Each rule lives as a small switch in the engine part that owns it; a
 * rule set turns them together. {@code -E rules=linux-6.1} on the command line.
 */
public enum KernelRules {
  /** The engine's default: Linux 7.1.5 plus the mainline deltas. */
  MAINLINE("mainline"),
  /**
   * The kernel oracle's guest, Debian's Linux 6.1 (6.1.192 checked): CFS wakeup placement and
   * preemption instead of EEVDF with RUN_TO_PARITY ({@link WakeupRule#CFS_6_1}, 147f3efaa241 and
   * 76cae9dbe185, v6.6); {@code should_we_balance()} without the idle-core preference
   * (b1bfeab9b002, v6.6); newidle balancing with the NI_RANDOM success ratio, which 6.1.y has as a
   * backport of 33cf66d88306 (the guest's {@code sched/features} lists it), but without NI_RATE's
   * wall-time credit (9fe89f022c05, 7.1, not in the guest); none of the post-7.1 mainline deltas.
   * HZ (Debian: 250) is the scenario's and the oracle sets it.
   */
  LINUX_6_1("linux-6.1");

  private final String id;

  KernelRules(String id) {
    this.id = id;
  }

  /** The name on the command line: {@code mainline}, {@code linux-6.1}. */
  public String id() {
    return id;
  }

  /**
   * The rule set called {@code id}.
   *
   * @throws IllegalArgumentException naming the allowed ids
   */
  public static KernelRules of(String id) {
    for (KernelRules r : values()) {
      if (r.id.equals(id)) {
        return r;
      }
    }
    throw new IllegalArgumentException("rules " + id + ": allowed mainline, linux-6.1");
  }

  /** {@code options} with this rule set's engine rules. */
  public EngineOptions engine(EngineOptions options) {
    return options.withWakeupRule(this == LINUX_6_1 ? WakeupRule.CFS_6_1 : WakeupRule.EEVDF);
  }

  /** {@code options} with this rule set's balancer rules. */
  public BalancerOptions balancer(BalancerOptions options) {
    boolean mainline = this == MAINLINE;
    return options
        .withIdleCoreBalanceCpu(mainline)
        .withNiRate(mainline)
        .withMainlineDeltas(mainline);
  }
}
