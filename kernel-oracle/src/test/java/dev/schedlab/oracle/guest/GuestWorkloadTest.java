package dev.schedlab.oracle.guest;

import static org.assertj.core.api.Assertions.assertThat;

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
    assertThat(w.simulatorParameters()).containsEntry("threads", "8")
        .containsEntry("chunk", "10000000us").containsEntry("spin", "0us")
        .containsEntry("affinity", "0-15");
    String commands = w.guestCommands();
    assertThat(commands).contains("/bin/gemm_team 8 10000000 0 10.000")
        .contains("cat /proc/schedstat > $O/schedstat.before")
        .contains("cat /proc/interrupts > $O/interrupts.after")
        .contains("echo 1 > /proc/sys/kernel/sched_schedstats");
    assertThat(commands.indexOf("schedstat.before"))
        .isLessThan(commands.indexOf("/bin/gemm_team"));
    assertThat(commands.indexOf("/bin/gemm_team"))
        .isLessThan(commands.indexOf("schedstat.after"));
  }

  @Test
  void hackbench_repeatsUntilTheDurationIsOver() {
    GuestWorkload w = GuestWorkload.hackbench(2, 4, 50, 10);
    assertThat(w.guestCommands()).contains("while [ $(cut -d. -f1 /proc/uptime) -lt $end ]")
        .contains("/bin/hackbench 2 4 50 100 socket");
    assertThat(w.simulatorParameters()).containsEntry("groups", "2").containsEntry("fds", "4");
  }
}
