package dev.schedlab.oracle.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The trace reader follows each CPU's current task: an idle-to-task switch counts against a busy
 * sibling only while the sibling runs a task; a migration counts at the lowest level of the source
 * CPU that holds the destination; a workload task's CPU time runs from its switch-in to its
 * switch-out.
 */
final class KernelTraceTest {

  private static final String TRACE =
      String.join(
          "\n",
          "# tracer: nop",
          "  <idle>-0 [000] d..2. 10.000000: sched_switch: prev_comm=swapper/0 prev_pid=0"
              + " prev_prio=120 prev_state=R ==> next_comm=spin next_pid=100 next_prio=120",
          "  <idle>-0 [001] d..2. 10.100000: sched_switch: prev_comm=swapper/1 prev_pid=0"
              + " prev_prio=120 prev_state=R ==> next_comm=kworker next_pid=7 next_prio=120",
          "  kworker-7 [001] d..2. 10.200000: sched_switch: prev_comm=kworker prev_pid=7"
              + " prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120",
          "  spin-100 [000] d..2. 10.500000: sched_switch: prev_comm=spin prev_pid=100"
              + " prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
          "  <idle>-0 [001] d..2. 10.600000: sched_switch: prev_comm=swapper/1 prev_pid=0"
              + " prev_prio=120 prev_state=R ==> next_comm=kworker next_pid=7 next_prio=120",
          "  <idle>-0 [002] dN.3. 10.700000: sched_migrate_task: comm=spin pid=100 prio=120"
              + " orig_cpu=0 dest_cpu=2",
          "  <idle>-0 [002] dN.3. 10.800000: sched_migrate_task: comm=spin pid=100 prio=120"
              + " orig_cpu=0 dest_cpu=1",
          "  <idle>-0 [002] d..2. 11.000000: sched_switch: prev_comm=swapper/2 prev_pid=0"
              + " prev_prio=120 prev_state=R ==> next_comm=spin next_pid=100 next_prio=120");

  @Test
  void read_followsSiblingsLevelsAndTaskTime() {
    Map<Integer, List<Map.Entry<String, BitSet>>> levels =
        Map.of(
            0,
            List.of(Map.entry("SMT", CpuList.parse("0-1")), Map.entry("MC", CpuList.parse("0-3"))));
    KernelTrace t =
        KernelTrace.read(TRACE, cpu -> CpuList.parse(cpu < 2 ? "0-1" : "2-3"), levels, "spin");
    // CPU 1 at 10.1 (sibling 0 runs spin): busy; CPU 0 at 10.0 and CPU 1 at 10.6 (0 idle) and
    // CPU 2 at 11.0 (3 idle): idle siblings.
    assertThat(t.idleToTaskBusySibling()).isEqualTo(1);
    assertThat(t.idleToTaskIdleSiblings()).isEqualTo(3);
    assertThat(t.migrationsPerLevel()).containsEntry("SMT", 1L).containsEntry("MC", 1L);
    assertThat(t.taskCpuSeconds().get(100))
        .isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(t.seconds()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(t.events()).isEqualTo(8);
  }
}
