package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code should_we_balance()} elects one CPU of the local group per domain: the first idle CPU on a
 * fully idle core, else the first idle CPU whose SMT siblings are busy, else the group's balance
 * CPU; in newidle every CPU with nothing queued may balance. Machine {@code 1n2l2c2t}: cores {0,1}
 * {2,3} {4,5} {6,7}; domain2 (PKG) has groups {0-3} {4-7}.
 */
final class ShouldWeBalanceTest {

  private final FakeHost host = FakeHost.of("1n2l2c2t");
  private final BalancerPieces balancer = host.balancer();
  private final SchedDomain pkgOf0 = host.domain(0, 2);

  private int elected(IdleType idle) {
    int winner = -1;
    for (int cpu = 0; cpu < 4; cpu++) {
      if (balancer.shouldWeBalance(cpu, host.domain(cpu, 2), idle)) {
        assertThat(winner).as("only one CPU elected").isEqualTo(-1);
        winner = cpu;
      }
    }
    return winner;
  }

  @Test
  void shouldWeBalance_allIdle_firstCpuOfGroup() {
    assertThat(pkgOf0.name()).isEqualTo("PKG");
    assertThat(elected(IdleType.IDLE)).isEqualTo(0);
  }

  @Test
  void shouldWeBalance_firstCoreBusy_idleCpuOnFullyIdleCoreWins() {
    host.addTask(0);
    // CPU 1 is idle but its sibling 0 is busy; core {2,3} is fully idle.
    assertThat(elected(IdleType.IDLE)).isEqualTo(2);
  }

  @Test
  void shouldWeBalance_noFullyIdleCore_firstIdleCpuWithBusySiblingWins() {
    host.addTask(0);
    host.addTask(2);
    assertThat(elected(IdleType.IDLE)).isEqualTo(1);
  }

  @Test
  void shouldWeBalance_noIdleCpu_groupBalanceCpuWins() {
    for (int cpu = 0; cpu < 4; cpu++) {
      host.addTask(cpu);
    }
    assertThat(elected(IdleType.NOT_IDLE)).isEqualTo(0);
  }

  @Test
  void shouldWeBalance_idleMaskForm_answersAsTheKernelWalkOnRandomStates() {
    // SMT2 with split and adjacent numbering, SMT4, and a machine with a NUMA level; busy CPUs
    // at random, from nearly all idle to nearly all busy, and CPUs dropped from env->cpus.
    String[][] machines = {
      {"1n2l4c2t", "ADJACENT"},
      {"2n2l4c2t", "SPLIT"},
      {"1n2l2c4t", "ADJACENT"},
      {"2n1l8c2t", "SPLIT"}
    };
    SplittableRandom random = new SplittableRandom(20_261_203L);
    int compared = 0;
    int elected = 0;
    for (String[] machine : machines) {
      Topology topology = Shape.parse(machine[0]).toTopology(SiblingNumbering.valueOf(machine[1]));
      for (int state = 0; state < 150; state++) {
        FakeHost h = new FakeHost(topology, 1000);
        int busyPercent = 5 + random.nextInt(91);
        for (int cpu = 0; cpu < topology.nrCpuIds(); cpu++) {
          if (random.nextInt(100) < busyPercent) {
            h.addTask(cpu);
          }
        }
        // In every other state some CPUs are out of env->cpus, as after a redo.
        MutableCpuMask excluded = CpuMasks.mutable(topology.nrCpuIds());
        if (state % 2 == 1) {
          for (int cpu = 0; cpu < topology.nrCpuIds(); cpu++) {
            if (random.nextInt(100) < 25) {
              excluded.set(cpu);
            }
          }
        }
        BalancerPieces b = h.balancer();
        for (int cpu = 0; cpu < topology.nrCpuIds(); cpu++) {
          if (excluded.test(cpu)) {
            continue;
          }
          for (SchedDomain sd : h.domains.domains(cpu)) {
            if (sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY)) {
              continue;
            }
            for (IdleType idle : new IdleType[] {IdleType.IDLE, IdleType.NOT_IDLE}) {
              boolean[] answers = b.shouldWeBalanceBothForms(cpu, sd, idle, excluded);
              assertThat(answers[0])
                  .as("CPU %d in %s on %s, state %d", cpu, sd.name(), machine[0], state)
                  .isEqualTo(answers[1]);
              compared++;
              elected += answers[0] ? 1 : 0;
            }
          }
        }
      }
    }
    // One CPU per local group is elected: the comparisons cover both answers.
    assertThat(compared).isGreaterThan(10_000);
    assertThat(elected).isBetween(compared / 20, compared / 2);
  }

  @Test
  void shouldWeBalance_smtDomain_ignoresCoreIdleness() {
    host.addTask(0);
    // In the SMT domain the local group of CPU 1 is {1}: idle, so CPU 1 balances it.
    assertThat(balancer.shouldWeBalance(1, host.domain(1, 0), IdleType.IDLE)).isTrue();
  }

  @Test
  void shouldWeBalance_mainlineGateOnSmtMachine_sameChoiceAs715() {
    host.addTask(0);
    BalancerPieces old = host.balancer(BalancerOptions.defaults().withMainlineDeltas(false));
    assertThat(old.shouldWeBalance(2, host.domain(2, 2), IdleType.IDLE)).isTrue();
    assertThat(old.shouldWeBalance(1, host.domain(1, 2), IdleType.IDLE)).isFalse();
  }

  @Test
  void shouldWeBalance_linux61_firstIdleCpuWhateverItsSiblings() {
    // Linux 6.1, before b1bfeab9b002: CPU 1 is the first idle CPU of {0-3}, though its sibling
    // 0 is busy and core {2,3} is fully idle.
    host.addTask(0);
    BalancerPieces v61 =
        host.balancer(
            dev.schedlab.core.KernelRules.LINUX_6_1.balancer(
                BalancerOptions.defaults().withNiRandom(false)));
    assertThat(v61.shouldWeBalance(1, host.domain(1, 2), IdleType.IDLE)).isTrue();
    assertThat(v61.shouldWeBalance(2, host.domain(2, 2), IdleType.IDLE)).isFalse();
  }

  @Test
  void shouldWeBalance_newlyIdle_everyEmptyCpuBalancesUnlessWakeupPending() {
    host.addTask(0);
    assertThat(balancer.shouldWeBalance(3, host.domain(3, 2), IdleType.NEWLY_IDLE)).isTrue();
    assertThat(balancer.shouldWeBalance(0, host.domain(0, 2), IdleType.NEWLY_IDLE)).isFalse();
    host.ttwuPending[3] = true;
    assertThat(balancer.shouldWeBalance(3, host.domain(3, 2), IdleType.NEWLY_IDLE)).isFalse();
  }

  @Test
  void balanceDomains_notThisCpusTurn_stopsWalkAndCountsBalanced() {
    host.setNowMs(1000);
    // All idle: CPU 0 is elected in MC {0-3} (group {0,1}), so CPU 1 stops there.
    balancer.balanceDomains(1, IdleType.IDLE, new BalanceCost());
    LbStats stats = balancer.stats();
    assertThat(stats.lb(1, 0, IdleType.IDLE, LbField.COUNT)).isEqualTo(1);
    assertThat(stats.lb(1, 1, IdleType.IDLE, LbField.COUNT)).isEqualTo(1);
    assertThat(stats.lb(1, 1, IdleType.IDLE, LbField.BALANCED)).isEqualTo(1);
    assertThat(stats.lb(1, 1, IdleType.IDLE, LbField.NOBUSYG))
        .as("not its turn: no group search")
        .isZero();
    assertThat(stats.lb(1, 2, IdleType.IDLE, LbField.COUNT)).as("PKG not visited").isZero();
  }

  @Test
  void balanceDomains_elected_searchesEveryLevel() {
    host.setNowMs(1000);
    balancer.balanceDomains(0, IdleType.IDLE, new BalanceCost());
    LbStats stats = balancer.stats();
    for (int level = 0; level < 3; level++) {
      assertThat(stats.lb(0, level, IdleType.IDLE, LbField.NOBUSYG)).isEqualTo(1);
      assertThat(stats.lb(0, level, IdleType.IDLE, LbField.BALANCED)).isEqualTo(1);
    }
  }
}
