package dev.schedlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.WakeupRule;
import org.junit.jupiter.api.Test;

/**
 * The rule sets switch exactly the rules docs/kernel-oracle.md lists: mainline leaves the defaults
 * as they are; linux-6.1 turns CFS wakeups on and the idle-core {@code should_we_balance()}
 * preference, NI_RATE and the mainline deltas off, and keeps NI_RANDOM (the guest's 6.1.y lists it)
 * and every tunable.
 */
final class KernelRulesTest {

  @Test
  void mainline_isTheDefaults() {
    assertThat(KernelRules.MAINLINE.engine(EngineOptions.defaults()))
        .isEqualTo(EngineOptions.defaults());
    assertThat(KernelRules.MAINLINE.balancer(BalancerOptions.defaults()))
        .isEqualTo(BalancerOptions.defaults());
  }

  @Test
  void linux61_switchesTheListedRulesOnly() {
    EngineOptions engine = KernelRules.LINUX_6_1.engine(EngineOptions.defaults());
    assertThat(engine.wakeupRule()).isEqualTo(WakeupRule.CFS_6_1);
    assertThat(engine.withWakeupRule(WakeupRule.EEVDF)).isEqualTo(EngineOptions.defaults());
    BalancerOptions balancer = KernelRules.LINUX_6_1.balancer(BalancerOptions.defaults());
    assertThat(balancer.idleCoreBalanceCpu()).isFalse();
    assertThat(balancer.niRate()).isFalse();
    assertThat(balancer.mainlineDeltas()).isFalse();
    assertThat(balancer.niRandom()).isTrue();
    assertThat(balancer.withIdleCoreBalanceCpu(true).withNiRate(true).withMainlineDeltas(true))
        .isEqualTo(BalancerOptions.defaults());
  }

  @Test
  void of_namesTheAllowedSets() {
    assertThat(KernelRules.of("linux-6.1")).isEqualTo(KernelRules.LINUX_6_1);
    assertThat(KernelRules.of("mainline")).isEqualTo(KernelRules.MAINLINE);
    assertThatThrownBy(() -> KernelRules.of("linux-5.15"))
        .hasMessage("rules linux-5.15: allowed mainline, linux-6.1");
  }
}
