package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.topology.Topology;
import dev.schedlab.workloads.RtAppConfig.EventKind;
import org.junit.jupiter.api.Test;

/**
 * rt-app parsing: tasks, instances, phases and events in file order with µs turned into ns;
 * policies, nice and cpus; and every unsupported key, event, policy or value rejected with a
 * message naming it and what is supported.
 */
final class RtAppConfigTest {

  private final Topology topology = IdealMachine.shape("1n1l4c2t").topology();

  @Test
  void parse_phasedTask_keepsPhasesEventsAndUnits() {
    RtAppConfig config =
        RtAppConfig.parse(
            """
        {
          "tasks": {
            "worker": {
              "instance": 2, "loop": 5, "priority": 5, "cpus": [1, 2], "delay": 100,
              "policy": "SCHED_BATCH",
              "phases": {
                "p1": { "loop": 3, "run": 1000, "sleep": 2000 },
                "p2": { "runtime": 500, "timer": { "ref": "unique", "period": 10000,
                        "mode": "absolute" }, "barrier": "sync" }
              }
            }
          },
          "global": { "duration": 2, "calibration": "CPU0", "logdir": "./" }
        }
        """,
            topology);

    assertThat(config.durationNs()).isEqualTo(2_000_000_000L);
    RtAppConfig.TaskDef task = config.tasks().get(0);
    assertThat(task.instances()).isEqualTo(2);
    assertThat(task.loops()).isEqualTo(5);
    assertThat(task.nice()).isEqualTo(5);
    assertThat(task.policy()).isEqualTo(SchedPolicy.BATCH);
    assertThat(task.cpus().toCpuList()).isEqualTo("1-2");
    assertThat(task.delayNs()).isEqualTo(100_000);
    assertThat(task.phases()).extracting(RtAppConfig.Phase::name).containsExactly("p1", "p2");
    assertThat(task.phases().get(0).loops()).isEqualTo(3);
    assertThat(task.phases().get(0).events())
        .containsExactly(
            new RtAppConfig.Event(EventKind.RUN, 1_000_000, null, false),
            new RtAppConfig.Event(EventKind.SLEEP, 2_000_000, null, false));
    assertThat(task.phases().get(1).events())
        .containsExactly(
            new RtAppConfig.Event(EventKind.RUNTIME, 500_000, null, false),
            new RtAppConfig.Event(EventKind.TIMER, 10_000_000, "unique", true),
            new RtAppConfig.Event(EventKind.BARRIER, 0, "sync", false));
  }

  @Test
  void parse_suffixedEventsWithoutPhases_runInFileOrderForEver() {
    RtAppConfig config =
        RtAppConfig.parse(
            "{\"tasks\": {\"t\": {\"run0\": 10, \"sleep_a\": 20, \"run1\": 30, \"sleep0\": 0}}}",
            topology);

    RtAppConfig.TaskDef task = config.tasks().get(0);
    assertThat(task.loops()).isEqualTo(-1);
    assertThat(task.policy()).isEqualTo(SchedPolicy.NORMAL);
    assertThat(task.cpus()).isNull();
    assertThat(task.phases())
        .singleElement()
        .satisfies(
            phase ->
                assertThat(phase.events())
                    .extracting(RtAppConfig.Event::kind)
                    .containsExactly(EventKind.RUN, EventKind.SLEEP, EventKind.RUN));
    assertThat(config.durationNs()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void parse_defaultPolicyIdle_appliesToTasksWithoutPolicy() {
    RtAppConfig config =
        RtAppConfig.parse(
            "{\"tasks\": {\"t\": {\"run\": 10}}, \"global\": {\"default_policy\": \"SCHED_IDLE\"}}",
            topology);

    assertThat(config.tasks().get(0).policy()).isEqualTo(SchedPolicy.IDLE);
  }

  @Test
  void parse_lockEvent_isRejectedNamingTheKeyAndTheSupportedEvents() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse("{\"tasks\": {\"t\": {\"lock\": \"m\", \"run\": 10}}}", topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task \"t\": unsupported key \"lock\"")
        .hasMessageContaining("instance, loop, policy")
        .hasMessageContaining("events: run, runtime, sleep, timer, barrier");
  }

  @Test
  void parse_unsupportedEventInPhase_isRejectedNamingThePhase() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse(
                    "{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"run\": 1, \"signal\": \"x\"}}}}}",
                    topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task \"t\" phase \"p\": unsupported key \"signal\"");
  }

  @Test
  void parse_fifoPolicy_isRejectedListingTheFairPolicies() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse(
                    "{\"tasks\": {\"t\": {\"policy\": \"SCHED_FIFO\", \"run\": 10}}}", topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"SCHED_FIFO\"")
        .hasMessageContaining("SCHED_OTHER, SCHED_BATCH, SCHED_IDLE");
  }

  @Test
  void parse_cpuOutsideTheMachine_isRejectedListingOnlineCpus() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse(
                    "{\"tasks\": {\"t\": {\"cpus\": [0, 8], \"run\": 10}}}", topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names CPU 8: online CPUs are 0-7");
  }

  @Test
  void parse_unknownGlobalKey_isRejected() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse(
                    "{\"tasks\": {\"t\": {\"run\": 10}}, \"global\": {\"frequency\": 1}}",
                    topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"global\": unsupported key \"frequency\"")
        .hasMessageContaining("duration, default_policy");
  }

  @Test
  void parse_phaseThatTakesNoTime_isRejected() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse(
                    "{\"tasks\": {\"t\": {\"barrier\": \"b\", \"sleep\": 0}}}", topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("takes no time");
  }

  @Test
  void parse_phasesAndTaskEventsTogether_areRejected() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse(
                    "{\"tasks\": {\"t\": {\"run\": 1, \"phases\": {\"p\": {\"run\": 1}}}}}",
                    topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("both \"phases\" and events");
  }

  @Test
  void parse_cpusInsideAPhase_isRejectedPointingToTheTask() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse(
                    "{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"cpus\": [1], \"run\": 1}}}}}",
                    topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"cpus\" inside a phase is not supported");
  }

  @Test
  void parse_fractionalRun_isRejectedAsNotAnInteger() {
    assertThatThrownBy(() -> RtAppConfig.parse("{\"tasks\": {\"t\": {\"run\": 1.5}}}", topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task \"t\" \"run\" is 1.5: expected an integer");
  }

  @Test
  void parse_timerWithoutPeriod_isRejected() {
    assertThatThrownBy(
            () ->
                RtAppConfig.parse(
                    "{\"tasks\": {\"t\": {\"run\": 1, \"timer\": {\"ref\": \"a\"}}}}", topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs \"ref\" and \"period\"");
  }
}
