package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/**
 * {@code explain-ilb} runs every ILB selector on the state the user describes: first-idle picks the
 * lowest idle housekeeping CPU, idle-core the lowest idle one on a fully idle core (else the lowest
 * idle one), each with how many CPUs it examined and why; bad masks and ids are refused with one
 * line and exit 2.
 */
final class ExplainIlbCommandTest {

  private static final String SHAPE = "1n2l4c2t";

  @Test
  void busySiblingOfTheFirstIdleCpu_selectorsDisagree_withReasons() {
    // CPUs 1 and 2 are idle next to busy siblings 9 and 10; CPU 3's sibling 11 is idle.
    List<Map<String, Object>> selections = selections("--idle", "1-3,11");
    assertThat(selection(selections, "fair.ilb.first-idle"))
        .containsEntry("cpu", 1.0)
        .containsEntry("examined", 1.0);
    assertThat((String) selection(selections, "fair.ilb.first-idle").get("reason"))
        .contains("busy sibling 9");
    assertThat(selection(selections, "fair.ilb.idle-core"))
        .containsEntry("cpu", 3.0)
        .containsEntry("examined", 3.0)
        .containsEntry(
            "reason", "first idle CPU on a fully idle core (CPU 1 is idle but has a busy sibling)");
  }

  @Test
  void noFullyIdleCore_idleCoreFallsBackToTheFirstIdleCpu() {
    assertThat(selection(selections("--idle", "1,2"), "fair.ilb.idle-core"))
        .containsEntry("cpu", 1.0)
        .hasEntrySatisfying("reason", r -> assertThat((String) r).startsWith("fallback"));
  }

  @Test
  void rotatingSelector_choiceNotTheFirstIdleCpu_saysSo() {
    // At boot the round-robin RFC starts after CPU 0, so with CPUs 0 and 3 idle it takes 3.
    assertThat(
            selection(
                selections("--idle", "0,3", "--this-cpu", "5", "--selector", "ext.ilb.round-robin"),
                "ext.ilb.round-robin"))
        .containsEntry("cpu", 3.0)
        .containsEntry(
            "reason", "idle CPU next to busy sibling 11, not the first idle CPU (CPU 0 is)");
  }

  @Test
  void noIdleHousekeepingCpu_cpuIsNull() {
    List<Map<String, Object>> selections = selections("--idle", "1-3", "--housekeeping", "0,4-15");
    for (Map<String, Object> s : selections) {
      assertThat(s)
          .containsEntry("cpu", null)
          .containsEntry("reason", "no CPU in nohz.idle_cpus_mask ∩ housekeeping");
    }
  }

  @Test
  void busyCpuInTheNohzMask_isSkipped() {
    List<Map<String, Object>> selections =
        selections("--idle", "5", "--nohz-idle", "4-5", "--selector", "fair.ilb.first-idle");
    assertThat(selections)
        .singleElement()
        .satisfies(s -> assertThat(s).containsEntry("cpu", 5.0).containsEntry("examined", 2.0));
  }

  @Test
  void selectorParameter_isPassedToThePlugin() {
    List<Map<String, Object>> selections =
        selections("--idle", "1-3,11", "--selector", "fair.ilb.idle-core:pruning=v2");
    assertThat(selections)
        .singleElement()
        .satisfies(
            s ->
                assertThat(s)
                    .containsEntry("selector", "fair.ilb.idle-core:pruning=v2")
                    .containsEntry("cpu", 3.0));
  }

  @Test
  void randomStates_matchTheRuleWrittenOut() {
    Topology topology = Shape.parse(SHAPE).toTopology(SiblingNumbering.SPLIT);
    SplittableRandom random = new SplittableRandom(7);
    for (int round = 0; round < 25; round++) {
      StringJoiner idle = new StringJoiner(",");
      boolean[] isIdle = new boolean[16];
      for (int cpu = 1; cpu < 16; cpu++) {
        if (random.nextInt(3) > 0) {
          isIdle[cpu] = true;
          idle.add(Integer.toString(cpu));
        }
      }
      if (idle.length() == 0) {
        continue;
      }
      List<Map<String, Object>> selections =
          selections("--idle", idle.toString(), "--this-cpu", "0");
      int firstIdle = -1;
      int firstOnIdleCore = -1;
      for (int cpu = 1; cpu < 16; cpu++) {
        if (!isIdle[cpu]) {
          continue;
        }
        firstIdle = firstIdle < 0 ? cpu : firstIdle;
        int sibling =
            topology.smtSiblings(cpu).first() == cpu
                ? topology.smtSiblings(cpu).next(cpu)
                : topology.smtSiblings(cpu).first();
        if (firstOnIdleCore < 0 && sibling != CpuMask.NO_CPU && isIdle[sibling]) {
          firstOnIdleCore = cpu;
        }
      }
      int expectedIdleCore = firstOnIdleCore >= 0 ? firstOnIdleCore : firstIdle;
      assertThat(selection(selections, "fair.ilb.first-idle").get("cpu"))
          .as("first-idle for idle %s", idle)
          .isEqualTo((double) firstIdle);
      assertThat(selection(selections, "fair.ilb.idle-core").get("cpu"))
          .as("idle-core for idle %s", idle)
          .isEqualTo((double) expectedIdleCore);
    }
  }

  @Test
  void text_showsTheCandidatesAndATableOfChoices() {
    String out =
        Invocation.of("explain-ilb", "--shape", SHAPE, "--idle", "1-3,11").assertOk().out();
    assertThat(out)
        .contains(
            "kicking CPU 0 (busy)",
            "candidates",
            "fair.ilb.first-idle",
            "fair.ilb.idle-core",
            "examined",
            "why");
  }

  @Test
  void idleCpuOutsideTheMachine_oneLine_exitTwo() {
    Invocation.of("explain-ilb", "--shape", SHAPE, "--idle", "1-40")
        .assertBadInput("--idle 1-40", "CPUs 0-15");
  }

  @Test
  void malformedCpuList_oneLine_exitTwo() {
    Invocation.of("explain-ilb", "--shape", SHAPE, "--idle", "1-x").assertBadInput("--idle 1-x");
  }

  @Test
  void unknownSelector_suggestsTheNearest() {
    Invocation.of("explain-ilb", "--shape", SHAPE, "--idle", "1", "--selector", "fair.ilb.idle-cor")
        .assertBadInput("did you mean 'fair.ilb.idle-core'?");
  }

  @Test
  void selectorOfAnotherKind_refused() {
    Invocation.of("explain-ilb", "--shape", SHAPE, "--idle", "1", "--selector", "hw.vera")
        .assertBadInput("hw.vera");
  }

  @Test
  void badSelectorParameter_namesTheAllowedValues() {
    Invocation.of(
            "explain-ilb",
            "--shape",
            SHAPE,
            "--idle",
            "1",
            "--selector",
            "fair.ilb.idle-core:pruning=v9")
        .assertBadInput("pruning=v9", "v4");
  }

  @Test
  void kickerOutsideTheMachine_refused() {
    Invocation.of("explain-ilb", "--shape", SHAPE, "--idle", "1", "--this-cpu", "99")
        .assertBadInput("--this-cpu 99");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> selections(String... options) {
    List<String> args =
        new ArrayList<>(List.of("explain-ilb", "--shape", SHAPE, "--format", "json"));
    args.addAll(List.of(options));
    Map<String, Object> json = JsonParser.object(Invocation.of(args).assertOk().out());
    return (List<Map<String, Object>>) json.get("selections");
  }

  private static Map<String, Object> selection(List<Map<String, Object>> all, String selector) {
    return all.stream()
        .filter(s -> s.get("selector").equals(selector))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no selection of " + selector + " in " + all));
  }
}
