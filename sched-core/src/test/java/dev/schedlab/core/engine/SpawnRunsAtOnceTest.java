package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.BalanceCostModel;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.topology.domain.SchedDomainOptions;
import dev.schedlab.workloads.SchbenchWorkloadProvider;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A task spawned from a workload's {@code start()} onto an idle CPU may run its first step inside
 * {@code spawn()}, before {@code spawn()} returns its id. Programs that wake each other by id must
 * learn their own ids from {@code TaskControl.taskId()}: schbench under SCHED_IDLE with the pre-fix
 * wakee rule (a CPU running only SCHED_IDLE work counts as idle, so a message thread woken by its
 * new worker is queued on the worker's CPU and runs before the worker's spawn returns) once woke
 * the wrong task and stalled three of four message-thread/worker pairs.
 */
final class SpawnRunsAtOnceTest {

  @Test
  void schbenchUnderSchedIdle_oldWakeeRule_everyPairKeepsServingRequests() {
    SchbenchWorkloadProvider schbench = new SchbenchWorkloadProvider();
    HardwareModel hardware = TestMachines.unit("1n1l4c1t");
    EngineSetup setup =
        new EngineSetup(
            hardware,
            SchedDomainOptions.defaults(),
            null,
            null,
            List.of(),
            List.of(PolicyBinding.withDefaults(TestPlugins.schedIdleVote(WakeupPolicy.Vote.YES))),
            new PolicyBinding<>(
                schbench,
                Parameters.resolve(
                    schbench.descriptor(),
                    Map.of("policy", "idle", "message_threads", "4", "workers", "1"))),
            1,
            100_000_000L,
            1000,
            EngineOptions.defaults().withoutBackground().withCheckInvariants(true),
            BalancerOptions.defaults(),
            BalanceCostModel.defaults());
    SimulationResult result = new Simulation(setup).run();
    // A worker's cycle is at least its 100 us sleep and 100 us request: 5000 requests/s each,
    // 20000 for four. With one pair stalled at most 15000 remain.
    assertThat(result.workload().extra().get("requests_per_s")).isGreaterThan(15_000);
  }
}
