package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cli.args.BadInputException;
import org.junit.jupiter.api.Test;

/**
 * The heap estimate is a lower bound that matches the measurements it is calibrated on (an 8192-CPU
 * GEMM run fails at 128 MB and runs at 200 MB; 2048 CPUs at most 18 MB, Vera's 352 at most 5 MB)
 * and a run above the heap is refused in one line naming the figure and how to raise the heap.
 */
final class HeapEstimateTest {

  private static final long MB = 1 << 20;

  @Test
  void engineState_growsWithTheSquareOfTheCpus_betweenTheMeasuredFigures() {
    assertThat(HeapEstimate.engineBytes(8192)).isBetween(128 * MB, 200 * MB);
    assertThat(HeapEstimate.engineBytes(2048)).isLessThanOrEqualTo(18 * MB);
    assertThat(HeapEstimate.engineBytes(352)).isBetween(1 * MB, 5 * MB);
  }

  @Test
  void trace_countsEventsUpToTheRecordingsCap() {
    long oneSecond = HeapEstimate.recordingBytes(352, 1_000_000_000L, Runner.Record.TRACE);
    assertThat(oneSecond).isEqualTo(352 * 8 * 100 + 32 * 400 * 352);
    assertThat(HeapEstimate.recordingBytes(352, 3600_000_000_000L, Runner.Record.TRACE))
        .isEqualTo(352 * 8 * 100 + 32L * 1_000_000);
    assertThat(HeapEstimate.recordingBytes(352, 3600_000_000_000L, Runner.Record.NONE)).isZero();
  }

  @Test
  void tooLarge_oneLineNamingTheFigureAndHowToRaiseTheHeap() {
    long needed = 2 * HeapEstimate.engineBytes(8192);
    assertThatThrownBy(() -> HeapEstimate.check(needed, 128 * MB, 2))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "this run needs at least 256 MB of heap (2 runs at once), more than the 128 MB"
                + " the JVM may use; raise it with SCHEDLAB_JAVA_OPTS=-Xmx512m or make the run"
                + " smaller (a smaller machine, fewer variants or threads, no --trace)");
    assertThatCode(() -> HeapEstimate.check(needed, 512 * MB, 2)).doesNotThrowAnyException();
  }
}
