package dev.schedlab.workloads.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Import of the three text forms of one small recording (ftrace with irq-info flags, perf script
 * with its header, trace-cmd report with libtraceevent's plugin fields): each gives the same
 * programs, in which a fork is a step of the parent at its point of work, a wakeup logged by a
 * running task is a wake edge at its point of work, a wakeup from the idle task or from interrupt
 * context is a timed sleep, a preemption continues the run, and an exit ends the program; plus the
 * recorded figures each task is compared with. On a modelled recording machine a burst's work
 * follows the CPU's speed while its SMT sibling is busy.
 */
final class TraceImportTest {

  static TraceModel importResource(String name) {
    try (InputStream in = TraceImportTest.class.getResourceAsStream(name)) {
      return TraceImport.text(in, name, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static TraceModel importText(String text) {
    try {
      return TraceImport.text(
          new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t.txt", null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static TraceTask task(TraceModel model, String name) {
    return model.tasks().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void ftrace_smallRecording_forkWakeEdgeTimedSleepAndExitAreSteps() {
    TraceModel model = importResource("small-ftrace.txt");

    assertThat(model.format()).isEqualTo("ftrace text");
    assertThat(model.cpus()).isEqualTo(2);
    assertThat(model.durationNs()).isEqualTo(600_000);
    assertThat(model.tasks())
        .extracting(TraceTask::name)
        .containsExactly("bash-100", "worker-101", "kworker/0:1-30");
    // Forks at the trace's first instant, runs to its wake of the worker, runs to its sleep,
    // sleeps until the idle task's (interrupt) wakeup, runs until the trace ends.
    assertThat(TraceOps.format(task(model, "bash-100").ops()))
        .isEqualTo("f1 r300000 w0 r50000 s150000 r95000");
    assertThat(TraceOps.format(task(model, "worker-101").ops())).isEqualTo("r190000 b0 r90000 x");
    assertThat(task(model, "worker-101").initial()).isFalse();
    assertThat(task(model, "kworker/0:1-30").pinnedCpu()).isZero();
    TraceModel.Counts counts = model.counts();
    assertThat(counts.bursts()).isEqualTo(4);
    assertThat(counts.edges()).isEqualTo(1);
    assertThat(counts.timedWakeups()).isEqualTo(1);
    assertThat(counts.forks()).isEqualTo(1);
    assertThat(counts.exits()).isEqualTo(1);
    assertThat(counts.execs()).isEqualTo(1);
    assertThat(counts.preemptions()).isEqualTo(1);
    assertThat(counts.inconsistencies()).isZero();
    assertThat(task(model, "bash-100").recorded())
        .isEqualTo(new TraceTask.Recorded(445_000, 1, 1, 1, 1, 0));
    assertThat(task(model, "worker-101").recorded())
        .isEqualTo(new TraceTask.Recorded(280_000, 2, 2, 0, 1, 0));
  }

  @Test
  void perfScriptAndTraceCmd_sameRecording_sameProgramsAsFtrace() {
    TraceModel ftrace = importResource("small-ftrace.txt");
    TraceModel perf = importResource("small-perf.txt");
    TraceModel traceCmd = importResource("small-trace-cmd.txt");

    assertThat(perf.format()).isEqualTo("perf script");
    assertThat(traceCmd.format()).isEqualTo("trace-cmd report");
    assertThat(perf.recordedOn()).startsWith("testbox, Intel(R) Xeon(R) CPU E5-2680 v4");
    for (TraceModel other : List.of(perf, traceCmd)) {
      assertThat(other.tasks()).hasSameSizeAs(ftrace.tasks());
      for (int i = 0; i < ftrace.tasks().size(); i++) {
        assertThat(TraceOps.format(other.tasks().get(i).ops()))
            .isEqualTo(TraceOps.format(ftrace.tasks().get(i).ops()));
        assertThat(other.tasks().get(i).recorded()).isEqualTo(ftrace.tasks().get(i).recorded());
      }
      assertThat(other.counts()).isEqualTo(ftrace.counts());
    }
  }

  @Test
  void programFile_writtenAndReadBack_sameModel() throws IOException {
    TraceModel model = importResource("small-ftrace.txt");
    StringBuilder json = new StringBuilder();
    TraceProgramFile.write(model, json);

    TraceModel back = TraceProgramFile.read(json.toString());

    assertThat(back.describe()).isEqualTo(model.describe());
    assertThat(back.counts()).isEqualTo(model.counts());
    assertThat(back.notes()).isEqualTo(model.notes());
    assertThat(back.tasks()).hasSameSizeAs(model.tasks());
    for (int i = 0; i < model.tasks().size(); i++) {
      TraceTask a = model.tasks().get(i);
      TraceTask b = back.tasks().get(i);
      assertThat(b.ops()).containsExactly(a.ops());
      assertThat(b.recorded()).isEqualTo(a.recorded());
      assertThat(List.of(b.name(), b.comm(), b.pid(), b.prio(), b.pinnedCpu(), b.initial()))
          .isEqualTo(List.of(a.name(), a.comm(), a.pid(), a.prio(), a.pinnedCpu(), a.initial()));
    }
  }

  @Test
  void commWithSpaces_tgidColumnAndOldWakeupFields_areRead() {
    TraceModel model =
        importText(
            """
        Web Content-1234  (   1200) [002] d..2.  5.000000: sched_switch: prev_comm=Web Content \
        prev_pid=1234 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120
          <idle>-0      (-------) [003] d..2.  5.000100: sched_wakeup: comm=Web Content \
        pid=1234 prio=120 success=1 target_cpu=002
          <idle>-0      (-------) [003] d..2.  5.000150: sched_wakeup: comm=Web Content \
        pid=1234 prio=120 success=0 cpu=002
          <idle>-0      (-------) [002] d..2.  5.000200: sched_switch: prev_comm=swapper/2 \
        prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=Web Content next_pid=1234 next_prio=110
        """);

    TraceTask task = model.tasks().get(0);
    assertThat(task.name()).isEqualTo("Web Content-1234");
    assertThat(task.nice()).isEqualTo(-10);
    // It ran since the trace began (no earlier event), slept 100 µs (timer: idle waker).
    assertThat(TraceOps.format(task.ops())).isEqualTo("s100000");
    assertThat(model.counts().timedWakeups()).isEqualTo(1);
  }

  @Test
  void perfPidTidColumnPeriodAndUnknownEvents_areRead() {
    TraceModel model =
        importText(
            """
            app 10/11 [000]     2.000000:          1 sched:sched_switch: prev_comm=app \
        prev_pid=11 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
            app 10/12 [001]     2.000010:          1 irq:irq_handler_entry: irq=1 name=x
            app 10/12 [001]     2.000050:          1 sched:sched_waking: comm=app pid=11 \
        prio=120 target_cpu=000
            app 10/12 [001]     2.000090:          1 sched:sched_switch: prev_comm=app \
        prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
        """);

    // Thread 12 (running since the start) woke thread 11 after 50 µs of its work.
    assertThat(TraceOps.format(model.tasks().get(0).ops())).isEqualTo("b0");
    assertThat(TraceOps.format(model.tasks().get(1).ops())).isEqualTo("r50000 w0 r40000 p");
    assertThat(model.notes()).anyMatch(n -> n.contains("1 events other than the scheduler's"));
  }

  @Test
  void pidReuse_forkOfALivePid_startsANewTask() {
    TraceModel model =
        importText(
            """
          sh-50 [000] d..2. 1.000000: sched_process_fork: comm=sh pid=50 child_comm=sh \
        child_pid=60
          sh-50 [000] d..2. 1.000010: sched_process_fork: comm=sh pid=50 child_comm=sh \
        child_pid=60
          sh-50 [000] d..2. 1.000020: sched_switch: prev_comm=sh prev_pid=50 prev_prio=120 \
        prev_state=S ==> next_comm=sh next_pid=60 next_prio=120
        """);

    assertThat(model.tasks())
        .extracting(TraceTask::name)
        .containsExactly("sh-50", "sh-60", "sh-60.2");
    assertThat(model.counts().pidReuses()).isEqualTo(1);
    assertThat(TraceOps.format(model.tasks().get(0).ops())).isEqualTo("f1 r10000 f2 r10000 p");
  }

  @Test
  void wrappedBufferAndLostEvents_areNotedAndTheStateReReadAfterTheGap() {
    TraceModel model =
        importText(
            """
        # entries-in-buffer/entries-written: 3/900   #P:2
        ##### CPU 1 buffer started ####
          a-7 [001] d..2. 3.000000: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 \
        prev_state=R ==> next_comm=b next_pid=8 next_prio=120
        CPU:1 [LOST 12 EVENTS]
          c-9 [001] d..2. 3.000500: sched_switch: prev_comm=c prev_pid=9 prev_prio=120 \
        prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
        """);

    assertThat(model.notes()).anyMatch(n -> n.contains("overwrote older events (3 of 900"));
    assertThat(model.notes()).anyMatch(n -> n.contains("2 gaps in the trace (12 lost events)"));
    // b's run across the gap is not accounted; c is read as running from its first event.
    assertThat(TraceOps.format(model.tasks().get(1).ops())).isEmpty();
    assertThat(model.counts().gaps()).isEqualTo(2);
  }

  @Test
  void switchOnlyTrace_isImportedWithTimedSleepsAndANote() {
    TraceModel model =
        importText(
            """
          a-7 [000] d..2. 3.000000: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 \
        prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0 [000] d..2. 3.000300: sched_switch: prev_comm=swapper/0 prev_pid=0 \
        prev_prio=120 prev_state=R ==> next_comm=a next_pid=7 next_prio=120
          a-7 [000] d..2. 3.000400: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 \
        prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=120
        """);

    assertThat(TraceOps.format(model.tasks().get(0).ops())).isEqualTo("s300000 r100000");
    assertThat(model.counts().sleepsWithoutWakeup()).isEqualTo(1);
    assertThat(model.notes()).anyMatch(n -> n.startsWith("no sched_waking or sched_wakeup"));
  }

  @Test
  void prevStateLetters_bothLayoutsAndNumbers() {
    assertThat(SchedTraceParser.leaveState("R")).isEqualTo(SchedEventSink.LeaveState.PREEMPTED);
    assertThat(SchedTraceParser.leaveState("R+")).isEqualTo(SchedEventSink.LeaveState.PREEMPTED);
    assertThat(SchedTraceParser.leaveState("S")).isEqualTo(SchedEventSink.LeaveState.BLOCKED);
    assertThat(SchedTraceParser.leaveState("D|K")).isEqualTo(SchedEventSink.LeaveState.BLOCKED);
    assertThat(SchedTraceParser.leaveState("I")).isEqualTo(SchedEventSink.LeaveState.BLOCKED);
    assertThat(SchedTraceParser.leaveState("W")).isEqualTo(SchedEventSink.LeaveState.BLOCKED);
    assertThat(SchedTraceParser.leaveState("X")).isEqualTo(SchedEventSink.LeaveState.DEAD);
    assertThat(SchedTraceParser.leaveState("Z")).isEqualTo(SchedEventSink.LeaveState.DEAD);
    assertThat(SchedTraceParser.leaveState("x")).isEqualTo(SchedEventSink.LeaveState.DEAD);
    assertThat(SchedTraceParser.leaveState("0x1")).isEqualTo(SchedEventSink.LeaveState.BLOCKED);
    assertThat(SchedTraceParser.leaveState("256")).isEqualTo(SchedEventSink.LeaveState.PREEMPTED);
    assertThat(SchedTraceParser.leaveState("0x20")).isEqualTo(SchedEventSink.LeaveState.DEAD);
  }

  @Test
  void modelledMachine_siblingBusyForHalfTheBurst_workFollowsTheSpeed() throws IOException {
    Topology topology = Shape.parse("1n1l1c2t").toTopology(SiblingNumbering.SPLIT);
    PerformanceModel halfWithBusySibling =
        new PerformanceModel() {
          @Override
          public double speed(int cpu, int taskId, PerfStateView state) {
            return state.isBusy(1 - cpu) ? 0.5 : 1.0;
          }

          @Override
          public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
            return Long.MAX_VALUE;
          }
        };
    HardwareModel model =
        new HardwareModel() {
          @Override
          public Topology topology() {
            return topology;
          }

          @Override
          public PerformanceModel performanceModel() {
            return halfWithBusySibling;
          }

          @Override
          public MachineFacts facts() {
            return new MachineFacts(2e9, 16, 1e11, "test");
          }
        };
    String text =
        """
          <idle>-0 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 \
        prev_prio=120 prev_state=R ==> next_comm=a next_pid=7 next_prio=120
          <idle>-0 [001] d..2. 1.000050: sched_switch: prev_comm=swapper/1 prev_pid=0 \
        prev_prio=120 prev_state=R ==> next_comm=b next_pid=8 next_prio=120
          a-7 [000] d..2. 1.000100: sched_switch: prev_comm=a prev_pid=7 prev_prio=120 \
        prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          b-8 [001] d..2. 1.000200: sched_switch: prev_comm=b prev_pid=8 prev_prio=120 \
        prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
        """;

    TraceModel traced =
        TraceImport.text(
            new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
            "smt.txt",
            RecordingMachine.of("two", model));

    // a: 50 µs alone + 50 µs beside b at half speed; b: first switched in 50 µs after the
    // trace began (a sleep until then), 50 µs beside a, then 100 µs alone.
    assertThat(TraceOps.format(traced.tasks().get(0).ops())).isEqualTo("r75000 p");
    assertThat(TraceOps.format(traced.tasks().get(1).ops())).isEqualTo("s50000 r125000 p");
    assertThat(traced.recordedOn()).isEqualTo("two");
    assertThatThrownBy(
            () ->
                TraceImport.text(
                    new ByteArrayInputStream(
                        text.replace("[001]", "[002]").getBytes(StandardCharsets.UTF_8)),
                    "smt.txt",
                    RecordingMachine.of("two", model)))
        .hasMessage(
            "smt.txt: the trace has CPU 2 but the recording machine two has 2 CPUs" + " (0-1)");
  }
}
