package dev.schedlab.oracle.guest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A guest workload snapshots schedstat, softirqs, interrupts and uptime around its program, and
 * describes the same team to the simulator.
 */
final class GuestWorkloadTest {

  @Test
  void gemm_spinners_matchingSimulatorParametersAndSnapshots() {
    GuestWorkload w = GuestWorkload.gemm(8, 10_000_000, 0, 10, 16);
    assertThat(w.simulatorWorkload()).isEqualTo("wl.gemm");
    assertThat(w.simulatorParameters())
        .containsEntry("threads", "8")
        .containsEntry("chunk", "10000000us")
        .containsEntry("spin", "0us")
        .containsEntry("affinity", "0-15");
    String commands = w.guestCommands();
    assertThat(commands)
        .contains("/bin/gemm_team 8 10000000 0 10.000")
        .contains("cat /proc/schedstat > $O/schedstat.before")
        .contains("cat /proc/interrupts > $O/interrupts.after")
        .contains("echo 1 > /proc/sys/kernel/sched_schedstats");
    assertThat(commands.indexOf("schedstat.before")).isLessThan(commands.indexOf("/bin/gemm_team"));
    assertThat(commands.indexOf("/bin/gemm_team")).isLessThan(commands.indexOf("schedstat.after"));
  }

  @Test
  void hackbench_repeatsUntilTheDurationIsOver() {
    GuestWorkload w = GuestWorkload.hackbench(2, 4, 50, 10);
    assertThat(w.guestCommands())
        .contains("while [ $(cut -d. -f1 /proc/uptime) -lt $end ]")
        .contains("/bin/hackbench 2 4 50 100 socket");
    assertThat(w.simulatorParameters()).containsEntry("groups", "2").containsEntry("fds", "4");
  }

  @Test
  void comparison_tracesSwitchesAndMigrations_recordingEveryEventOnTheGlobalClock() {
    GuestWorkload w = GuestWorkload.hackbench(1, 2, 20, 2);
    assertThat(w.traceEvents()).isEqualTo(GuestWorkload.COMPARED_EVENTS);
    assertThat(w.guestCommands())
        .contains("events/sched/sched_switch/enable")
        .contains("events/sched/sched_migrate_task/enable")
        .doesNotContain("sched_waking")
        .doesNotContain("trace_clock");
    String recording = w.recording().guestCommands();
    for (String event :
        List.of(
            "sched_switch",
            "sched_waking",
            "sched_wakeup",
            "sched_wakeup_new",
            "sched_process_fork",
            "sched_process_exec",
            "sched_process_exit",
            "sched_migrate_task")) {
      assertThat(recording).contains("echo 1 > $T/events/sched/" + event + "/enable;");
    }
    assertThat(recording)
        .contains("echo global > $T/trace_clock")
        .contains("cat $T/trace > $O/trace.txt")
        .contains("grep overrun > $O/trace.overrun");
    assertThat(recording.indexOf("tracing_on; fi")).isLessThan(recording.indexOf("/bin/hackbench"));
    assertThat(w.withoutTrace().trace()).isFalse();
    assertThat(w.withoutTrace().guestCommands())
        .doesNotContain("/enable")
        .doesNotContain("trace.txt");
  }

  @Test
  void forkexec_isARecordingWithoutSimulatorCounterpart() {
    GuestWorkload w = GuestWorkload.forkexec(2, 20, 300, 2);
    assertThat(w.simulated()).isFalse();
    assertThat(w.traceEvents()).isEqualTo(GuestWorkload.RECORDED_EVENTS);
    assertThat(w.guestCommands()).contains("/bin/forkexec 2 20 300 >> $O/workload.out");
    assertThat(GuestWorkload.gemm(1, 10, 0, 1, 2).simulated()).isTrue();
  }

  @Test
  void schbench_runsOnceForTheDuration_sameTeamInTheSimulator() {
    GuestWorkload w = GuestWorkload.schbench(2, 8, 100, 100, 10);
    assertThat(w.guestCommands())
        .contains("/bin/schbench 2 8 100 100 10.000 >> $O/workload.out")
        .doesNotContain("while [");
    assertThat(w.simulatorWorkload()).isEqualTo("wl.schbench");
    assertThat(w.simulatorParameters())
        .containsEntry("message_threads", "2")
        .containsEntry("workers", "8")
        .containsEntry("request_work", "100us")
        .containsEntry("sleep", "100us");
  }

  @Test
  void rtappPeriodic_guestArgumentsAndTheSimulatorsJson() {
    GuestWorkload w =
        GuestWorkload.rtappPeriodic(
            4, 10_000, 2_000, 5, java.nio.file.Path.of("/tmp/w/rtapp.json"));
    assertThat(w.guestCommands()).contains("/bin/rtapp_periodic 4 10000 2000 5.000 >>");
    assertThat(w.simulatorWorkload()).isEqualTo("wl.rtapp");
    assertThat(w.simulatorParameters()).containsEntry("file", "/tmp/w/rtapp.json");
    assertThat(GuestWorkload.rtappJson(4, 10_000, 2_000))
        .isEqualTo(
            "{\"tasks\": {\"periodic\":"
                + " {\"instance\": 4, \"loop\": -1, \"run\": 2000, \"timer\": {\"ref\": \"unique\","
                + " \"period\": 10000, \"mode\": \"absolute\"}}}}"
                + System.lineSeparator());
  }
}
