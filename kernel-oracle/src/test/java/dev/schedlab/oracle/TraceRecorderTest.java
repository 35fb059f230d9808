package dev.schedlab.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.oracle.guest.GuestWorkload;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The recordings kept for trace replay (src/test/resources/dev/schedlab/oracle/traces, recorded
 * with {@code bin/oracle record} on a Linux 6.1 guest) are tracefs text with every recorded event,
 * none lost; the recorder counts events by name and sums ring-buffer overruns.
 */
final class TraceRecorderTest {

  private static String resource(String name) throws IOException {
    try (InputStream in = TraceRecorderTest.class.getResourceAsStream("traces/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void keptRecordings_haveEveryRecordedEventAndOnlyEventLines() throws IOException {
    for (String name : new String[] {"hackbench-1s1d2c2t.txt", "forkexec-1s1d2c2t.txt"}) {
      String text = resource(name);
      assertThat(text).startsWith("# tracer: nop");
      Map<String, Long> counts = TraceRecorder.count(text);
      assertThat(counts.keySet())
          .as(name)
          .containsExactlyInAnyOrderElementsOf(GuestWorkload.RECORDED_EVENTS);
      long lines = text.lines().filter(l -> !l.startsWith("#")).count();
      assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(lines);
      // tracefs's own count in the header: nothing dropped.
      assertThat(text).contains("entries-in-buffer/entries-written: " + lines + "/" + lines);
    }
  }

  @Test
  void forkexecRecording_everyChildForksExecsAndExits() throws IOException {
    Map<String, Long> counts = TraceRecorder.count(resource("forkexec-1s1d2c2t.txt"));
    // 2 workers x 10 children, each exec'ing forkexec leaf, plus the workers themselves.
    assertThat(counts.get("sched_process_fork")).isGreaterThanOrEqualTo(22);
    assertThat(counts.get("sched_process_exec")).isGreaterThanOrEqualTo(20);
    assertThat(counts.get("sched_wakeup_new")).isEqualTo(counts.get("sched_process_fork"));
  }

  @Test
  void overruns_sumEveryCpusStatsLine() {
    assertThat(TraceRecorder.overruns(null)).isZero();
    assertThat(TraceRecorder.overruns("overrun: 0\ncommit overrun: 0\noverrun: 12\n"))
        .isEqualTo(12);
  }
}
