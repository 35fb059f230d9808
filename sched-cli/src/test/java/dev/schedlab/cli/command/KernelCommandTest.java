package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code schedlab kernel} checks every option before anything boots: a shape or machine QEMU cannot
 * express, a missing kernel image, an unknown accelerator, a workload without a guest program or
 * with parameters the guest cannot follow, and bad engine settings are each one line and exit 2. A
 * machine QEMU can express becomes the guest shape with the same counts and SLIT.
 */
final class KernelCommandTest {

  private static KernelCommand.Plan plan(String... args) {
    PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    KernelCommand command = new KernelCommand(new Cli(sink, sink, false));
    new CommandLine(command).parseArgs(args);
    return command.plan();
  }

  @Test
  void noMachine_namesShapeMachineAndRandom() {
    Invocation.of("kernel").assertBadInput("give --shape", "--machine ID", "--random N");
  }

  @Test
  void shapeQemuCannotExpress_oneLine() {
    Invocation.of("kernel", "--shape", "1s1d3c2t2n").assertBadInput("do not divide");
    Invocation.of("kernel", "--shape", "2n4l8c2t").assertBadInput("is not of the form");
    Invocation.of("kernel", "--shape", "8s1d32c2t").assertBadInput("at most 255");
  }

  @Test
  void builtInMachineQemuCannotExpress_saysWhy() {
    Invocation.of("kernel", "--machine", "hw.hygon-7447v")
        .assertBadInput("hw.hygon-7447v cannot boot in QEMU", "384 CPUs");
    Invocation.of("kernel", "--machine", "hw.vera").assertBadInput("different capacities");
    Invocation.of("kernel", "--machine", "hw.altra")
        .assertBadInput("last-level cache spans 2 CPUs", "shares the L3 by die");
    Invocation.of("kernel", "--machine", "hw.xeon2s").assertBadInput("did you mean 'hw.xeon-2s'");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "-M", "sockets=2")
        .assertBadInput("-M sets a parameter of --machine");
  }

  @Test
  void badKernelAcceleratorDurationOrHz_oneLine() {
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--kernel", "/nonexistent/bzImage")
        .assertBadInput("--kernel /nonexistent/bzImage is not a readable file");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--accel", "hvf")
        .assertBadInput("--accel hvf: allowed auto, tcg, kvm");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--hz", "123").assertBadInput("--hz 123");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--workload", "wl.gemm", "--duration", "20m")
        .assertBadInput("duration");
  }

  @Test
  void workloadWithoutGuestProgramOrUnfollowableParameter_oneLine() {
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--workload", "wl.stream")
        .assertBadInput("no guest program for wl.stream", "wl.gemm, wl.hackbench");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--workload", "wl.gemm", "-W", "wake_fanout=4")
        .assertBadInput("wake_fanout=4");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--workload", "wl.gemm", "-W", "affinity=0")
        .assertBadInput("runs on every CPU");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--workload", "wl.gemm", "-W", "threads=x")
        .assertBadInput("threads");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--workload", "wl.nosuch")
        .assertBadInput("wl.nosuch");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "-W", "threads=2")
        .assertBadInput("apply to a workload run");
    Invocation.of("kernel", "--shape", "1s1d2c1t", "--workload", "wl.gemm", "-E", "bogus=1")
        .assertBadInput("unknown engine setting");
  }

  @Test
  void builtInMachine_becomesTheGuestShapeWithItsSlit() {
    KernelCommand.Plan plan = plan("--machine", "hw.xeon-2s");
    assertThat(plan.shape().sockets()).isEqualTo(2);
    assertThat(plan.shape().nodes()).isEqualTo(2);
    assertThat(plan.shape().threads()).isEqualTo(2);
    assertThat(plan.shape().cpus())
        .isEqualTo(plan.shape().sockets() * plan.shape().dies() * plan.shape().cores() * 2);
    assertThat(plan.workload()).isNull();
  }

  @Test
  void gemmWithDefaults_oneThreadPerCoreOnEveryCpu() {
    KernelCommand.Plan plan =
        plan(
            "--shape",
            "2s1d4c2t",
            "--workload",
            "wl.gemm",
            "-W",
            "chunk=10s",
            "-W",
            "spin=0",
            "--duration",
            "5s",
            "--no-trace",
            "-E",
            "ipi_latency=5us");
    assertThat(plan.workload().arguments()).containsExactly("8", "5000000", "0", "5.000");
    assertThat(plan.workload().simulatorParameters())
        .containsEntry("affinity", "0-15")
        .containsEntry("threads", "8");
    assertThat(plan.workload().trace()).isFalse();
    assertThat(plan.settings().hz()).isEqualTo(250);
    assertThat(plan.settings().description()).contains("ipi_latency").contains("rules=linux-6.1");
  }

  @Test
  void hackbench_pipesAndSimulatorAssumptionsPassThrough() {
    KernelCommand.Plan plan =
        plan(
            "--shape",
            "1s1d4c2t",
            "--workload",
            "wl.hackbench",
            "-W",
            "groups=2",
            "-W",
            "fds=4",
            "-W",
            "loops=50",
            "-W",
            "pipe=true",
            "-W",
            "send_work=5us");
    assertThat(plan.workload().arguments()).containsExactly("2", "4", "50", "100", "pipe");
    assertThat(plan.workload().simulatorParameters())
        .containsEntry("loops", "1000000")
        .containsEntry("pipe", "true")
        .containsEntry("send_work", "5us");
  }
}
