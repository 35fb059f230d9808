package dev.schedlab.policies.fair.ilb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.policies.fair.testing.Machines;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * On random machine states of 352- and 8192-CPU machines with SMT widths 1, 2, 4, 8, 16 and 64
 * (both sibling numberings), random NOHZ idle masks, random {@code nohz_full=} ranges and a random
 * busy kicker: the chosen CPU is idle, in the NOHZ idle mask, a housekeeping CPU and not the
 * kicker, and a CPU is chosen whenever an idle candidate exists; without SMT both selectors agree
 * on the CPU and on the examined count; the idle-core revisions v2, v3 and v4 all choose the rule's
 * CPU with v4 examining no more than v3 and v3 no more than v2; the scratch slot is released after
 * every call and the pool (THROW policy) reports no misuse. The word-parallel form (every machine
 * here has constant SMT offsets) chooses the same CPU with the same examined count as the same
 * revision kept on the walk, also when the kicker is idle or outside the NOHZ mask; on irregular
 * machines (cores of 1-4 threads over permuted CPU numbers) the selector keeps to the walk and
 * matches the transcribed rules.
 */
final class IlbSelectorPropertyTest {

  /** How a random state is drawn. */
  enum Pattern {
    /** Each CPU idle with the given probability. */
    UNIFORM,
    /** Each core fully idle with the given probability, else each thread busy half the time. */
    PER_CORE
  }

  /** One machine shape: CPU count, SMT width, numbering. */
  record Shape(int cpus, int threads, SiblingNumbering numbering) {
    Topology topology() {
      if (threads == 0) {
        // Irregular: two fixed draws per width (numbering picks which).
        return Machines.irregular(cpus, numbering == SiblingNumbering.SPLIT ? 1 : 2);
      }
      int nodes = cpus == 352 ? 2 : 8;
      return Machines.smt(nodes, cpus / threads / nodes, threads, numbering);
    }

    @Override
    public String toString() {
      return threads == 0
          ? cpus + " CPUs irregular " + numbering
          : cpus + " CPUs SMT" + threads + " " + numbering;
    }
  }

  /** One random scenario. */
  record Scenario(
      Shape shape, long seed, Pattern pattern, int idlePercent, int nohzPercent, boolean isolate) {}

  private static final Map<Topology, IlbCheck> CHECKS = new HashMap<>();
  private static final Map<Integer, ScratchMaskPool> POOLS = new HashMap<>();

  @Provide
  Arbitrary<Scenario> scenarios() {
    // SMT16 and SMT64 reach the in-word count's wider runs (SMT64: a core per word); 352 CPUs
    // over two nodes have no SMT64 cores.
    Arbitrary<Shape> shapes =
        Combinators.combine(
                Arbitraries.of(352, 8192),
                Arbitraries.of(1, 2, 4, 8, 16, 64),
                Arbitraries.of(SiblingNumbering.class))
            .as(Shape::new)
            .filter(shape -> shape.cpus() != 352 || shape.threads() != 64);
    return Combinators.combine(
            shapes,
            Arbitraries.longs(),
            Arbitraries.of(Pattern.class),
            Arbitraries.integers().between(0, 100),
            Arbitraries.integers().between(0, 100),
            Arbitraries.of(false, true))
        .as(Scenario::new);
  }

  @Provide
  Arbitrary<Scenario> scenariosWithoutSmt() {
    return scenarios()
        .map(
            s ->
                new Scenario(
                    new Shape(s.shape().cpus(), 1, SiblingNumbering.ADJACENT),
                    s.seed(),
                    s.pattern(),
                    s.idlePercent(),
                    s.nohzPercent(),
                    s.isolate()));
  }

  @Property(tries = 300)
  void eitherSelector_randomState_choosesAnIdleNohzHousekeepingCpuWhenOneExists(
      @ForAll("scenarios") Scenario scenario) {
    Drawn drawn = draw(scenario);
    IlbCheck check = drawn.check;

    for (IlbSelector selector : new IlbSelector[] {check.firstIdle, check.v4}) {
      int chosen = selector.findNewIlb(drawn.kicker, drawn.nohz, drawn.housekeeping, check.state);
      if (chosen == CpuMask.NO_CPU) {
        assertThat(anyIdleCandidate(drawn)).as("an idle candidate existed").isFalse();
      } else {
        assertThat(check.idle[chosen]).as("CPU %d idle", chosen).isTrue();
        assertThat(drawn.nohz.test(chosen)).as("CPU %d in nohz mask", chosen).isTrue();
        assertThat(drawn.housekeeping.test(chosen)).as("CPU %d housekeeping", chosen).isTrue();
        assertThat(chosen).isNotEqualTo(drawn.kicker);
      }
      assertThat(check.pool.isHeld(drawn.kicker, IdleCoreIlbSelector.SCRATCH_SLOT)).isFalse();
    }
    assertThat(check.pool.misuseCount()).isZero();
  }

  @Property(tries = 300)
  void idleCoreRevisions_randomState_matchTheRuleAndExamineNoMoreInLaterRevisions(
      @ForAll("scenarios") Scenario scenario) {
    Drawn drawn = draw(scenario);

    drawn.check.failures.clear();
    drawn.check.check(drawn.kicker, drawn.nohz, drawn.housekeeping, drawn.nohzBits, drawn.hkBits);

    assertThat(drawn.check.failures).isEmpty();
    assertThat(drawn.check.v4.lastExamined()).isLessThanOrEqualTo(drawn.check.v3.lastExamined());
    assertThat(drawn.check.v3.lastExamined()).isLessThanOrEqualTo(drawn.check.v2.lastExamined());
    assertThat(drawn.check.pool.misuseCount()).isZero();
  }

  @Property(tries = 200)
  void bothSelectors_withoutSmt_agreeOnCpuAndExaminedCount(
      @ForAll("scenariosWithoutSmt") Scenario scenario) {
    Drawn drawn = draw(scenario);
    IlbCheck check = drawn.check;

    int first =
        check.firstIdle.findNewIlb(drawn.kicker, drawn.nohz, drawn.housekeeping, check.state);
    for (IlbSelector core : new IlbSelector[] {check.v2, check.v3, check.v4}) {
      int chosen = core.findNewIlb(drawn.kicker, drawn.nohz, drawn.housekeeping, check.state);
      assertThat(chosen).isEqualTo(first);
      assertThat(core.lastExamined()).isEqualTo(check.firstIdle.lastExamined());
    }
  }

  @Property(tries = 300)
  void wordParallelForm_anyKickerState_matchesTheWalkInCpuAndExaminedCount(
      @ForAll("scenarios") Scenario scenario,
      @ForAll boolean kickerIdle,
      @ForAll boolean kickerInNohzMask) {
    Drawn drawn = draw(scenario);
    IlbCheck check = drawn.check;
    check.idle[drawn.kicker] = kickerIdle;
    check.state.idle(drawn.kicker, kickerIdle);
    MutableCpuMask nohz = drawn.nohz.mutableCopy();
    if (kickerInNohzMask) {
      nohz.set(drawn.kicker);
    } else {
      nohz.clear(drawn.kicker);
    }

    check.failures.clear();
    check.checkAgainstWalk(drawn.kicker, nohz, drawn.housekeeping);

    assertThat(check.failures).isEmpty();
    for (IlbSelector selector : new IlbSelector[] {check.v2, check.v3, check.v4}) {
      assertThat(((IdleCoreIlbSelector) selector).isWordParallel()).isTrue();
    }
    assertThat(check.pool.misuseCount()).isZero();
  }

  @Property(tries = 200)
  void irregularMachine_randomState_keepsToTheWalkAndMatchesTheRules(
      @ForAll("irregularScenarios") Scenario scenario) {
    Drawn drawn = draw(scenario);

    drawn.check.failures.clear();
    drawn.check.check(drawn.kicker, drawn.nohz, drawn.housekeeping, drawn.nohzBits, drawn.hkBits);

    assertThat(drawn.check.failures).isEmpty();
    assertThat(((IdleCoreIlbSelector) drawn.check.v4).isWordParallel()).isFalse();
    assertThat(drawn.check.pool.misuseCount()).isZero();
  }

  @Provide
  Arbitrary<Scenario> irregularScenarios() {
    return scenarios()
        .map(
            s ->
                new Scenario(
                    new Shape(s.shape().cpus() == 352 ? 352 : 1000, 0, s.shape().numbering()),
                    s.seed(),
                    s.pattern(),
                    s.idlePercent(),
                    s.nohzPercent(),
                    s.isolate()));
  }

  private record Drawn(
      IlbCheck check,
      int kicker,
      CpuMask nohz,
      CpuMask housekeeping,
      BitSet nohzBits,
      BitSet hkBits) {}

  private static Drawn draw(Scenario scenario) {
    Topology topology = scenario.shape().topology();
    IlbCheck check = CHECKS.computeIfAbsent(topology, t -> new IlbCheck(t, pool(t.nrCpuIds())));
    int n = topology.nrCpuIds();
    SplittableRandom random = new SplittableRandom(scenario.seed());
    boolean[] idle = new boolean[n];
    if (scenario.pattern() == Pattern.UNIFORM) {
      for (int cpu = 0; cpu < n; cpu++) {
        idle[cpu] = random.nextInt(100) < scenario.idlePercent();
      }
    } else {
      for (int cpu = 0; cpu < n; cpu++) {
        if (cpu == topology.smtSiblings(cpu).first()) {
          boolean coreIdle = random.nextInt(100) < scenario.idlePercent();
          CpuMask core = topology.smtSiblings(cpu);
          for (int t = core.first(); t != CpuMask.NO_CPU; t = core.next(t)) {
            idle[t] = coreIdle || random.nextBoolean();
          }
        }
      }
    }
    int kicker = random.nextInt(n);
    idle[kicker] = false;
    check.idle(idle);

    MutableCpuMask nohz = CpuMasks.mutable(n);
    for (int cpu = 0; cpu < n; cpu++) {
      if (random.nextInt(100) < scenario.nohzPercent()) {
        nohz.set(cpu);
      }
    }
    MutableCpuMask housekeeping = CpuMasks.mutable(n);
    housekeeping.fill();
    if (scenario.isolate()) {
      int from = 1 + random.nextInt(n - 1);
      int to = from + random.nextInt(n - from);
      housekeeping.andNotWith(CpuMasks.range(n, from, to));
    }
    BitSet nohzBits = IlbRules.toBitSet(nohz);
    return new Drawn(check, kicker, nohz, housekeeping, nohzBits, IlbRules.toBitSet(housekeeping));
  }

  /** One THROW-policy pool per width: an 8192-CPU pool holds 24 MiB of masks. */
  private static ScratchMaskPool pool(int nrCpuIds) {
    return POOLS.computeIfAbsent(
        nrCpuIds, n -> new ScratchMaskPool(n, ScratchMaskPool.MisusePolicy.THROW));
  }

  private static boolean anyIdleCandidate(Drawn drawn) {
    for (int cpu = drawn.nohz.firstAnd(drawn.housekeeping);
        cpu != CpuMask.NO_CPU;
        cpu = drawn.nohz.nextAnd(cpu, drawn.housekeeping)) {
      if (drawn.check.idle[cpu] && cpu != drawn.kicker) {
        return true;
      }
    }
    return false;
  }
}
