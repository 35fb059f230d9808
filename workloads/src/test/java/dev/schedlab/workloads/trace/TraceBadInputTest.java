package dev.schedlab.workloads.trace;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input is one line naming the file, the line where it applies and what was expected: an empty
 * file, binary perf.data and trace.dat (with the command that converts them), a line that is no
 * event, unreadable fields, times out of order, a cut last line, a trace without scheduler events
 * or without sched_switch, and a program file that is not one.
 */
final class TraceBadInputTest {

  private static final String SWITCH =
      "  a-7 [000] d..2. 3.000000: sched_switch: prev_comm=a"
          + " prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0"
          + " next_prio=120\n";

  @TempDir Path directory;

  private Path file(String name, byte[] content) throws IOException {
    Path path = directory.resolve(name);
    Files.write(path, content);
    return path;
  }

  private Path file(String name, String content) throws IOException {
    return file(name, content.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void emptyFile_saysWhatWasExpected() throws IOException {
    Path empty = file("empty.txt", "");
    Path blank = file("blank.txt", "\n  \n");

    assertThatThrownBy(() -> TraceImport.read(empty, null))
        .hasMessage(
            empty
                + " is empty: expected the text of perf script (after perf sched"
                + " record) or of ftrace (/sys/kernel/tracing/trace, trace-cmd report)");
    assertThatThrownBy(() -> TraceImport.read(blank, null)).hasMessageContaining("is empty");
  }

  @Test
  void perfData_saysHowToConvertIt() throws IOException {
    Path data = file("perf.data", "PERFILE2\0\0\0\0binary".getBytes(StandardCharsets.ISO_8859_1));

    assertThatThrownBy(() -> TraceImport.read(data, null))
        .hasMessage(
            data
                + " is a binary perf.data file; convert it to text first: perf script"
                + " -i "
                + data
                + " > "
                + data
                + ".txt (on the machine that recorded it, or with its"
                + " kernel's symbols), then use the .txt file");
  }

  @Test
  void traceDatAndOtherBinary_sayHowToConvert() throws IOException {
    Path dat = file("trace.dat", "\u0017\u0008Dtracing6\0".getBytes(StandardCharsets.ISO_8859_1));
    Path other = file("x.bin", "abc\0def".getBytes(StandardCharsets.ISO_8859_1));

    assertThatThrownBy(() -> TraceImport.read(dat, null))
        .hasMessageContaining(
            "binary trace-cmd trace.dat file; convert it to text first:" + " trace-cmd report -i");
    assertThatThrownBy(() -> TraceImport.read(other, null))
        .hasMessageContaining("is binary (a NUL byte at offset 3)");
  }

  @Test
  void truncatedLastLine_namesTheLine() throws IOException {
    Path cut = file("cut.txt", SWITCH + SWITCH.substring(0, 40));

    assertThatThrownBy(() -> TraceImport.read(cut, null))
        .hasMessage(
            cut
                + ": line 2: the file ends in the middle of this line (no newline after"
                + " it): the trace was cut short; copy it again or delete the partial last line");
  }

  @Test
  void eventsOutOfOrder_nameBothLines() throws IOException {
    Path shuffled = file("order.txt", SWITCH.replace("3.000000", "3.000200") + SWITCH);

    assertThatThrownBy(() -> TraceImport.read(shuffled, null))
        .hasMessage(
            shuffled
                + ": line 2: time 3.000000 s is earlier than 3.000200 s on line 1:"
                + " events out of order; perf script and ftrace print events sorted by time, so the"
                + " file was edited or joined from pieces");
  }

  @Test
  void garbageLine_isNamedWithTheExpectedForms() throws IOException {
    Path garbage = file("g.txt", SWITCH + "hello world\n");

    assertThatThrownBy(() -> TraceImport.read(garbage, null))
        .hasMessage(
            garbage
                + ": line 2: not a header or event line of perf script or ftrace:"
                + " expected COMM-PID [CPU] SECONDS: EVENT: FIELDS (ftrace, trace-cmd report) or COMM"
                + " TID [CPU] SECONDS: EVENT: FIELDS (perf script); got 'hello world'");
  }

  @Test
  void unreadableFields_nameTheEventAndItsForms() throws IOException {
    Path bad =
        file(
            "f.txt",
            SWITCH + "  a-7 [000] d..2. 3.000100: sched_switch: prev_comm=a" + " prev_state=S\n");
    Path perfNoCpu = file("p.txt", "  a 7 3.000100: sched:sched_switch: x\n");

    assertThatThrownBy(() -> TraceImport.read(bad, null))
        .hasMessage(
            bad
                + ": line 2: sched_switch: cannot read its fields: expected prev_comm=C"
                + " prev_pid=N prev_prio=N prev_state=S ==> next_comm=C next_pid=N next_prio=N, or"
                + " C:N [PRIO] S ==> C:N [PRIO]; got 'prev_comm=a prev_state=S'");
    assertThatThrownBy(() -> TraceImport.read(perfNoCpu, null))
        .hasMessage(
            perfNoCpu
                + ": line 1: no [CPU] column; run perf script with its default"
                + " fields, or -F comm,tid,cpu,time,event,trace");
  }

  @Test
  void noSchedulerEventsOrNoSwitch_sayWhichEventsAreNeeded() throws IOException {
    Path irqOnly =
        file("irq.txt", "  a-7 [000] d.h2. 3.000000: irq_handler_entry: irq=1" + " name=x\n");
    Path wakeOnly =
        file(
            "wake.txt",
            "  a-7 [000] d..2. 3.000000: sched_waking: comm=b pid=8"
                + " prio=120 target_cpu=001\n");

    assertThatThrownBy(() -> TraceImport.read(irqOnly, null))
        .hasMessage(
            irqOnly
                + " has no scheduler events (sched_switch, sched_waking,"
                + " sched_wakeup, sched_wakeup_new, sched_process_fork/exec/exit, sched_migrate_task)"
                + " among its 1 events: record them with perf sched record and convert with perf"
                + " script, or enable events/sched in tracefs");
    assertThatThrownBy(() -> TraceImport.read(wakeOnly, null))
        .hasMessage(
            wakeOnly
                + " lacks sched_switch events, which give the CPU bursts (it has"
                + " sched_waking 1): record sched:sched_switch too (perf sched record does)");
  }

  @Test
  void missingFileAndBadProgramFile_areOneLine() throws IOException {
    Path program = file("p.json", "{\"schedlab\": \"something else\"}");
    Path version = file("v.json", "{\"schedlab\": \"trace program\", \"version\": 9}");

    assertThatThrownBy(() -> TraceImport.read(directory.resolve("none.txt"), null))
        .hasMessage(directory.resolve("none.txt") + ": no such file");
    assertThatThrownBy(() -> TraceImport.read(program, null))
        .hasMessage(
            program
                + ": not a schedlab trace program (expected \"schedlab\": \"trace"
                + " program\" as written by schedlab trace import -o)");
    assertThatThrownBy(() -> TraceImport.read(version, null))
        .hasMessage(version + ": trace program version 9: this schedlab reads version 1");
  }
}
