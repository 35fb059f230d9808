package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.HardwareModel;
import dev.schedlab.topology.domain.SchedDomains;
import org.junit.jupiter.api.Test;

/**
 * {@link SdLlcShared}, built on a bare {@link EngineContext}: SIS_UTIL's {@code nr_idle_scan}
 * follows {@code update_idle_cpu_scan()} (the whole LLC when idle, less as the LLC's mean {@code
 * cpu_util_cfs()} grows, nothing once it is saturated), and {@code nr_busy_cpus} counts a CPU out
 * once however often it is marked idle.
 */
final class SdLlcSharedTest {

  private static EngineContext context(String shape) {
    HardwareModel hardware = TestMachines.unit(shape);
    EngineSetup setup = TestMachines.setup(hardware, ScriptedWorkload.of(host -> {}), 1_000_000, 1);
    return new EngineContext(setup, SchedDomains.build(hardware.topology()));
  }

  @Test
  void updateIdleCpuScan_oneBusyCpuOfFour_scansThree() {
    EngineContext ctx = context("1n1l4c1t");
    SdLlcShared shared = new SdLlcShared(ctx);
    assertThat(shared.nrIdleScan(0)).as("an idle machine scans its whole LLC").isEqualTo(4);
    assertThat(ctx.domains.sdLlc(0).imbalancePct()).isEqualTo(117);
    ctx.rqs[2].cfs.utilAvg = 1024;
    ctx.rqs[2].syncLbRow();
    shared.updateIdleCpuScan();
    // x = 1024 / 4 = 256: 256^2 * 117^2 / (10000 * 1024) = 87, y = 937, 937 * 4 / 1024 = 3.
    assertThat(shared.nrIdleScan(0)).isEqualTo(3);
  }

  @Test
  void updateIdleCpuScan_saturatedLlc_scansNothing() {
    EngineContext ctx = context("1n1l4c1t");
    SdLlcShared shared = new SdLlcShared(ctx);
    for (int cpu = 0; cpu < 4; cpu++) {
      ctx.rqs[cpu].cfs.utilAvg = 1024;
      ctx.rqs[cpu].syncLbRow();
    }
    shared.updateIdleCpuScan();
    assertThat(shared.nrIdleScan(3)).isZero();
  }

  @Test
  void nrBusyCpus_idleTwiceThenBusy_countsTheCpuOutOnce() {
    SdLlcShared shared = new SdLlcShared(context("1n1l4c1t"));
    assertThat(shared.nrBusyCpus(0)).isEqualTo(4);
    shared.setCpuSdStateIdle(1);
    shared.setCpuSdStateIdle(1);
    assertThat(shared.nrBusyCpus(0)).isEqualTo(3);
    shared.setCpuSdStateBusy(1);
    assertThat(shared.nrBusyCpus(0)).isEqualTo(4);
  }
}
