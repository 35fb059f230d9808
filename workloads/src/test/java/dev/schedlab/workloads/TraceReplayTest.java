package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.workloads.trace.TraceImport;
import dev.schedlab.workloads.trace.TraceModel;
import dev.schedlab.workloads.trace.TraceProgramFile;
import dev.schedlab.workloads.trace.TraceWorkloadProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code wl.trace} replays: a task forked by the trace starts where its parent's program forks it,
 * a woken task waits for its waker to reach the recorded point of its work (later when the waker
 * runs slower), a timed sleep lasts its recorded length, and the metric is the time the last
 * program ended; the provider reads a trace or a program file and names the recording.
 */
final class TraceReplayTest {

  private static final long US = 1_000;

  @TempDir Path directory;

  private Path resource(String name) throws IOException {
    Path path = directory.resolve(name);
    try (InputStream in = TraceReplayTest.class.getResourceAsStream("trace/" + name)) {
      Files.copy(in, path);
    }
    return path;
  }

  private Workload replay(IdealMachine machine, String name) throws IOException {
    TraceModel model = TraceImport.read(resource(name), null);
    return machine.start(TraceWorkloadProvider.replay(model, machine.topology()));
  }

  @Test
  void replay_ownCpuEach_followsTheRecordedStepsAndEndsWhenTheLastProgramDoes() throws IOException {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    Workload workload = replay(machine, "small-ftrace.txt");
    machine.runUntil(2_000 * US);
    WorkloadResult result = workload.result(2_000 * US);

    // bash (task 0) forks the worker (task 2) at once and wakes it after 300 µs of work; the
    // worker blocked after its own 190 µs and runs its last 90 µs from the wake.
    assertThat(machine.steps(2, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(0L, 300 * US);
    assertThat(machine.task(2).exitNs()).isEqualTo(390 * US);
    assertThat(machine.steps(0, "sleep"))
        .extracting(IdealMachine.Step::amount)
        .containsExactly(150_000.0);
    assertThat(result.metric()).isEqualTo("time");
    // The last to end is the kworker: first switched in at 600 µs, it sleeps until then.
    assertThat(result.value()).isCloseTo(600e-6, within(1e-12));
    assertThat(result.extra())
        .containsEntry("completed", 1.0)
        .containsEntry("edges", 1.0)
        .containsEntry("edge_wakes", 1.0)
        .containsEntry("tasks", 3.0);
  }

  @Test
  void replay_slowerWaker_theWokenTaskWaitsForItsWakersPoint() throws IOException {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    replay(machine, "small-ftrace.txt");
    machine.setSpeed(0, 0.5);
    machine.runUntil(2_000 * US);

    assertThat(machine.steps(2, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(0L, 600 * US);
    assertThat(machine.task(2).exitNs()).isEqualTo(690 * US);
  }

  @Test
  void replay_cutShort_reportsTheShareOfWorkDone() throws IOException {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    Workload workload = replay(machine, "small-ftrace.txt");
    machine.runUntil(200 * US);
    WorkloadResult result = workload.result(200 * US);

    // Done by 200 µs: the worker's first 190 µs of the 725 µs of work.
    assertThat(result.metric()).isEqualTo("progress");
    assertThat(result.value()).isCloseTo(100.0 * 190 / 725, within(1e-9));
    assertThat(result.extra()).containsEntry("completed", 0.0);
  }

  @Test
  void provider_traceOrProgramFile_sameReplayAndADescription() throws IOException {
    Path trace = resource("small-perf.txt");
    Path program = directory.resolve("program.json");
    try (Writer out = Files.newBufferedWriter(program)) {
      TraceProgramFile.write(TraceImport.read(trace, null), out);
    }
    TraceWorkloadProvider provider = new TraceWorkloadProvider();

    WorkloadResult fromTrace =
        IdealMachine.shape("1n1l4c1t").run(provider, Map.of("file", trace.toString()), 2_000 * US);
    WorkloadResult fromProgram =
        IdealMachine.shape("1n1l4c1t")
            .run(provider, Map.of("file", program.toString()), 2_000 * US);

    assertThat(fromProgram).isEqualTo(fromTrace);
    assertThat(
            provider.describe(
                Parameters.resolve(provider.descriptor(), Map.of("file", program.toString()))))
        .isEqualTo(
            "replay of "
                + trace
                + " (perf script, recorded on testbox, Intel(R) Xeon(R)"
                + " CPU E5-2680 v4 @ 2.40GHz, Linux 6.1.0-13-amd64 (capacity and SMT not known:"
                + " work = CPU time), 2 CPUs, 0.001 s): 3 tasks, 4 bursts, 1 wake edges, 2 timed"
                + " wakeups, 1 forks, 1 exits");
  }

  @Test
  void provider_noFileOrBadFile_oneLine() throws IOException {
    TraceWorkloadProvider provider = new TraceWorkloadProvider();
    Path empty = directory.resolve("empty.txt");
    Files.writeString(empty, "");

    assertThatThrownBy(() -> IdealMachine.shape("1n1l2c1t").run(provider, Map.of(), US))
        .hasMessage(
            "wl.trace: parameter file is required: a perf script or ftrace text file,"
                + " or a schedlab trace import program (-W file=trace.txt)");
    assertThatThrownBy(
            () ->
                IdealMachine.shape("1n1l2c1t").run(provider, Map.of("file", empty.toString()), US))
        .hasMessageStartingWith("wl.trace: " + empty + " is empty");
  }

  @Test
  void pinnedKernelThread_keepsItsCpuWrappedToTheMachine() throws IOException {
    IdealMachine machine = IdealMachine.shape("1n1l1c1t");
    replay(machine, "small-ftrace.txt");

    assertThat(machine.task(1).spec().name()).isEqualTo("kworker/0:1-30");
    assertThat(machine.task(1).spec().allowedCpus().toCpuList()).isEqualTo("0");
  }
}
