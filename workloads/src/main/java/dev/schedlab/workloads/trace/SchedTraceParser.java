package dev.schedlab.workloads.trace;

import dev.schedlab.workloads.trace.SchedEventSink.LeaveState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reads the text forms of a scheduler trace, line by line, into a {@link SchedEventSink}:
 *
 * <ul>
 *   <li>{@code perf script} of {@code perf sched record}: {@code COMM TID [CPU] SECONDS:
 *       sched:EVENT: FIELDS}, also with {@code PID/TID}, a period column, {@code --ns} times and
 *       the {@code --header} lines ({@code # hostname}, {@code # cpudesc}, {@code # nrcpus});
 *   <li>ftrace's {@code trace} file and {@code trace-cmd report}: {@code COMM-PID [CPU] FLAGS
 *       SECONDS: EVENT: FIELDS}, with or without the irq-info flags and the {@code (TGID)} column,
 *       {@code #P:N} and the entries line, {@code cpus=N}, {@code CPU N is empty}, {@code [LOST N
 *       EVENTS]} and {@code ##### CPU N buffer started ####};
 * </ul>
 *
 * <p>Fields come in the kernel's {@code TP_printk()} form ({@code prev_comm=... ==> next_comm=...},
 * {@code target_cpu=} or the older {@code cpu=} and {@code success=}) or in libtraceevent's sched
 * plugin form that {@code trace-cmd report} and some {@code perf} builds print ({@code COMM:PID
 * [PRIO] STATE ==> COMM:PID [PRIO]}, {@code COMM:PID [PRIO] CPU:NNN}). Command names may hold
 * spaces. {@code prev_state} letters follow both bit layouts (before and after v4.14's {@code
 * TASK_REPORT}): {@code R}/{@code R+} preempted, {@code X}, {@code Z} or {@code x} dead, anything
 * else blocked. Events other than the eight scheduler ones are counted and passed over.
 *
 * <p>Bad input is one {@link IllegalArgumentException} naming the line and what was expected: an
 * empty file, a binary {@code perf.data} or {@code trace.dat} (with the command that converts it),
 * a line that is neither a header nor an event, an event whose fields cannot be read, a time
 * earlier than the previous event's, and a last line the file cuts short.
 */
final class SchedTraceParser {

  private static final int SWITCH = 0;
  private static final int WAKING = 1;
  private static final int WAKEUP = 2;
  private static final int WAKEUP_NEW = 3;
  private static final int FORK = 4;
  private static final int EXEC = 5;
  private static final int EXIT = 6;
  private static final int MIGRATE = 7;

  private static final byte[] PERF_MAGIC = "PERFILE2".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TRACE_DAT_MAGIC = {
    0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
  };
  private static final int MAX_LINE_BYTES = 1 << 20;

  private final SchedEventSink sink;
  private final TraceFacts facts;
  private int lineNo;
  private int lastTimeLine;
  private String line;
  private int cursor;
  private boolean inInterrupt;
  private int currentPid;

  private SchedTraceParser(SchedEventSink sink, TraceFacts facts) {
    this.sink = sink;
    this.facts = facts;
  }

  /**
   * Reads {@code in} to its end.
   *
   * @param name the file's name, for the messages about the whole file
   * @param facts filled as the header lines and events are read
   * @throws IllegalArgumentException naming the first problem
   * @throws IOException when reading fails
   */
  static void parse(InputStream in, String name, SchedEventSink sink, TraceFacts facts)
      throws IOException {
    new SchedTraceParser(sink, facts).read(in, name);
  }

  private void read(InputStream in, String name) throws IOException {
    byte[] buffer = new byte[1 << 16];
    byte[] pending = new byte[256];
    int pendingLength = 0;
    boolean first = true;
    boolean anyText = false;
    int n;
    while ((n = in.read(buffer)) > 0) {
      if (first) {
        checkNotBinary(buffer, n, name);
        first = false;
      }
      int start = 0;
      for (int i = 0; i < n; i++) {
        if (buffer[i] != '\n') {
          continue;
        }
        if (pendingLength > 0) {
          pending = append(pending, pendingLength, buffer, start, i - start);
          pendingLength += i - start;
          anyText |= line(pending, 0, pendingLength);
          pendingLength = 0;
        } else {
          anyText |= line(buffer, start, i - start);
        }
        start = i + 1;
      }
      if (start < n) {
        pending = append(pending, pendingLength, buffer, start, n - start);
        pendingLength += n - start;
        if (pendingLength > MAX_LINE_BYTES) {
          throw problem(
              lineNo + 1,
              "longer than "
                  + MAX_LINE_BYTES
                  + " bytes: not a trace's"
                  + " text (perf script or ftrace lines are under 300 characters)");
        }
      }
    }
    if (first || !anyText && pendingLength == 0) {
      throw new IllegalArgumentException(
          name
              + " is empty: expected the text of perf script"
              + " (after perf sched record) or of ftrace (/sys/kernel/tracing/trace, trace-cmd"
              + " report)");
    }
    if (pendingLength > 0 && !isBlank(pending, pendingLength)) {
      throw problem(
          lineNo + 1,
          "the file ends in the middle of this line (no newline after"
              + " it): the trace was cut short; copy it again or delete the partial last line");
    }
  }

  private static byte[] append(byte[] to, int length, byte[] from, int start, int count) {
    byte[] out =
        to.length >= length + count
            ? to
            : Arrays.copyOf(to, Math.max(to.length * 2, length + count));
    System.arraycopy(from, start, out, length, count);
    return out;
  }

  private static boolean isBlank(byte[] bytes, int length) {
    for (int i = 0; i < length; i++) {
      if (bytes[i] != ' ' && bytes[i] != '\t' && bytes[i] != '\r') {
        return false;
      }
    }
    return true;
  }

  private static void checkNotBinary(byte[] bytes, int n, String name) {
    if (startsWith(bytes, n, PERF_MAGIC)) {
      throw new IllegalArgumentException(
          name
              + " is a binary perf.data file; convert it to"
              + " text first: perf script -i "
              + name
              + " > "
              + name
              + ".txt (on the machine that"
              + " recorded it, or with its kernel's symbols), then use the .txt file");
    }
    if (startsWith(bytes, n, TRACE_DAT_MAGIC)) {
      throw new IllegalArgumentException(
          name
              + " is a binary trace-cmd trace.dat file; convert"
              + " it to text first: trace-cmd report -i "
              + name
              + " > "
              + name
              + ".txt");
    }
    for (int i = 0; i < Math.min(n, 4096); i++) {
      if (bytes[i] == 0) {
        throw new IllegalArgumentException(
            name
                + " is binary (a NUL byte at offset "
                + i
                + "): expected the text of perf script or of ftrace; a perf.data converts with"
                + " perf script -i FILE > FILE.txt, a trace.dat with trace-cmd report -i FILE");
      }
    }
  }

  private static boolean startsWith(byte[] bytes, int n, byte[] prefix) {
    if (n < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /** One line; true when it held something other than white space. */
  private boolean line(byte[] bytes, int start, int length) {
    lineNo++;
    facts.lines++;
    int end = start + length;
    if (end > start && bytes[end - 1] == '\r') {
      end--;
    }
    line = new String(bytes, start, end - start, StandardCharsets.UTF_8);
    cursor = 0;
    skipSpaces();
    if (cursor == line.length()) {
      return false;
    }
    char c = line.charAt(cursor);
    if (c == '#') {
      header();
    } else if (!traceCmdHeader()) {
      event();
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------
  // Header lines

  private void header() {
    String text = line.substring(cursor);
    if (text.startsWith("##### CPU ")) {
      int cpu = leadingInt(text, "##### CPU ".length());
      if (cpu >= 0) {
        facts.gaps++;
        sink.gap(lineNo, cpu);
      }
      return;
    }
    String body = text.substring(1).strip();
    int entries = body.indexOf("entries-in-buffer/entries-written:");
    if (entries >= 0) {
      String rest = body.substring(entries + "entries-in-buffer/entries-written:".length()).strip();
      int slash = rest.indexOf('/');
      int space = rest.indexOf(' ');
      if (slash > 0) {
        facts.entriesInBuffer = parseLongOr(rest.substring(0, slash), -1);
        facts.entriesWritten =
            parseLongOr(rest.substring(slash + 1, space > slash ? space : rest.length()), -1);
      }
      int p = rest.indexOf("#P:");
      if (p >= 0) {
        facts.declaredCpus = leadingInt(rest, p + 3);
      }
      facts.ftraceColumns = true;
      return;
    }
    int colon = body.indexOf(" : ");
    if (colon > 0) {
      String key = body.substring(0, colon).strip();
      String value = body.substring(colon + 3).strip();
      switch (key) {
        case "hostname" -> facts.hostname = value;
        case "cpudesc" -> facts.cpuDescription = value;
        case "os release" -> facts.osRelease = value;
        case "nrcpus online", "nrcpus avail" -> {
          int cpus = leadingInt(value, 0);
          if (cpus > facts.declaredCpus) {
            facts.declaredCpus = cpus;
          }
        }
        default -> {
          // Other perf header lines (# arch, # perf version, # cmdline ...) are not needed.
        }
      }
    }
  }

  /** {@code trace-cmd report}'s own lines: {@code cpus=N}, {@code version = N}, empty CPUs. */
  private boolean traceCmdHeader() {
    String text = line.substring(cursor);
    if (text.startsWith("cpus=")) {
      facts.declaredCpus = leadingInt(text, 5);
      return true;
    }
    if (text.startsWith("version =") || text.startsWith("version=")) {
      return true;
    }
    if (text.startsWith("CPU")) {
      int lost = text.indexOf("[LOST ");
      if (lost >= 0) {
        int cpu = leadingInt(text, text.charAt(3) == ':' || text.charAt(3) == ' ' ? 4 : 3);
        long count = parseLongOr(text.substring(lost + 6).split(" ")[0], 0);
        facts.lostEvents += count;
        facts.gaps++;
        sink.gap(lineNo, Math.max(cpu, 0));
        return true;
      }
      return text.endsWith(" is empty");
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------
  // Event lines

  private void event() {
    int bracket = cpuBracket();
    if (bracket < 0) {
      throw problem(
          lineNo,
          line.contains("sched:sched_") || line.contains(": sched_")
              ? "no [CPU] column; run perf script with its default fields, or -F"
                  + " comm,tid,cpu,time,event,trace"
              : "not a header or event line of perf script or ftrace: expected COMM-PID [CPU]"
                  + " SECONDS: EVENT: FIELDS (ftrace, trace-cmd report) or COMM TID [CPU] SECONDS:"
                  + " EVENT: FIELDS (perf script); got '"
                  + excerpt(line.strip())
                  + "'");
    }
    currentPid = taskColumn(line.substring(cursor, bracket).strip());
    int close = line.indexOf(']', bracket);
    int cpu = Integer.parseInt(line.substring(bracket + 1, close));
    cursor = close + 1;
    skipSpaces();
    String token = token();
    inInterrupt = false;
    if (!token.endsWith(":")) {
      // ftrace's irq-info flags: irqs-off, need-resched, hardirq/softirq, preempt depth.
      inInterrupt = token.length() >= 3 && "hHsSzZ".indexOf(token.charAt(2)) >= 0;
      skipSpaces();
      token = token();
    }
    long timeNs = time(token);
    skipSpaces();
    token = token();
    if (!token.isEmpty() && isDigits(token, 0, token.length())) {
      // perf script's period column.
      skipSpaces();
      token = token();
    }
    if (!token.endsWith(":") || token.length() < 2) {
      throw problem(lineNo, "expected EVENT: after the time stamp, got '" + excerpt(token) + "'");
    }
    String name = token.substring(0, token.length() - 1);
    int systemColon = name.lastIndexOf(':');
    if (systemColon >= 0) {
      facts.perfColumns |= name.startsWith("sched:");
      name = name.substring(systemColon + 1);
    }
    int kind = Arrays.asList(TraceFacts.EVENT_NAMES).indexOf(name);
    if (timeNs < facts.lastNs) {
      throw problem(
          lineNo,
          "time "
              + seconds(timeNs)
              + " s is earlier than "
              + seconds(facts.lastNs)
              + " s on line "
              + lastTimeLine
              + ": events out of order;"
              + " perf script and ftrace print events sorted by time, so the file was edited or"
              + " joined from pieces");
    }
    facts.lastNs = timeNs;
    lastTimeLine = lineNo;
    if (facts.firstNs == Long.MIN_VALUE) {
      facts.firstNs = timeNs;
    }
    facts.maxCpu = Math.max(facts.maxCpu, cpu);
    if (kind < 0) {
      facts.otherEvents++;
      return;
    }
    facts.schedEvents++;
    facts.counts[kind]++;
    skipSpaces();
    String fields = line.substring(cursor);
    try {
      read(kind, fields);
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      throw problem(
          lineNo,
          name
              + ": cannot read its fields: expected "
              + expected(kind)
              + "; got '"
              + excerpt(fields)
              + "'");
    }
    deliver(kind, timeNs, cpu);
  }

  // The fields of the event being read; set by read(), passed on by deliver().
  private int pid;
  private int otherPid;
  private int prio;
  private int otherPrio;
  private String comm;
  private String otherComm;
  private LeaveState state;
  private boolean skip;

  private void read(int kind, String f) {
    skip = false;
    switch (kind) {
      case SWITCH -> readSwitch(f);
      case WAKING, WAKEUP, WAKEUP_NEW -> readWakeup(f);
      case FORK -> {
        pid = intField(f, "pid");
        comm = stringField(f, "comm", "pid");
        otherPid = intField(f, "child_pid");
        otherComm = stringField(f, "child_comm", "child_pid");
      }
      case EXEC -> {
        pid = intField(f, "pid");
        comm = stringField(f, "filename", "pid");
      }
      case EXIT -> {
        pid = intField(f, "pid");
        comm = stringField(f, "comm", "pid");
      }
      default -> {
        pid = intField(f, "pid");
        prio = intField(f, "orig_cpu");
        otherPrio = intField(f, "dest_cpu");
      }
    }
  }

  private void deliver(int kind, long timeNs, int cpu) {
    if (skip) {
      return;
    }
    switch (kind) {
      case SWITCH ->
          sink.schedSwitch(
              lineNo, timeNs, cpu, pid, comm, prio, state, otherPid, otherComm, otherPrio);
      case WAKEUP_NEW -> sink.wakeupNew(lineNo, timeNs, cpu, pid, comm, prio);
      case WAKING, WAKEUP ->
          sink.wakeup(
              lineNo, timeNs, cpu, currentPid, inInterrupt, pid, comm, prio, kind == WAKING);
      case FORK -> sink.fork(lineNo, timeNs, cpu, pid, comm, otherPid, otherComm);
      case EXEC -> sink.exec(lineNo, timeNs, cpu, pid, comm);
      case EXIT -> sink.exit(lineNo, timeNs, cpu, pid, comm);
      default -> sink.migrate(lineNo, timeNs, pid, prio, otherPrio);
    }
  }

  private static String expected(int kind) {
    return switch (kind) {
      case SWITCH ->
          "prev_comm=C prev_pid=N prev_prio=N prev_state=S ==> next_comm=C"
              + " next_pid=N next_prio=N, or C:N [PRIO] S ==> C:N [PRIO]";
      case WAKING, WAKEUP, WAKEUP_NEW ->
          "comm=C pid=N prio=N target_cpu=N, or C:N [PRIO]" + " CPU:N";
      case FORK -> "comm=C pid=N child_comm=C child_pid=N";
      case EXEC -> "filename=F pid=N old_pid=N";
      case EXIT -> "comm=C pid=N prio=N";
      default -> "comm=C pid=N prio=N orig_cpu=N dest_cpu=N";
    };
  }

  private void readSwitch(String f) {
    int arrow = f.indexOf(" ==> ");
    if (arrow < 0) {
      throw new IndexOutOfBoundsException("no ==>");
    }
    String left = f.substring(0, arrow);
    String right = f.substring(arrow + 5).strip();
    if (f.startsWith("prev_comm=")) {
      pid = intField(left, "prev_pid");
      comm = stringField(left, "prev_comm", "prev_pid");
      prio = intFieldOr(left, "prev_prio", 120);
      state = leaveState(stringField(left, "prev_state", null).strip());
      otherPid = intField(right, "next_pid");
      otherComm = stringField(right, "next_comm", "next_pid");
      otherPrio = intFieldOr(right, "next_prio", 120);
      return;
    }
    facts.pluginFields = true;
    int open = left.lastIndexOf(" [");
    int close = left.indexOf(']', open);
    String prev = left.substring(0, open);
    prio = Integer.parseInt(left.substring(open + 2, close).strip());
    state = leaveState(left.substring(close + 1).strip());
    int nextOpen = right.lastIndexOf(" [");
    String next = nextOpen < 0 ? right : right.substring(0, nextOpen);
    otherPrio =
        nextOpen < 0
            ? 120
            : Integer.parseInt(right.substring(nextOpen + 2, right.indexOf(']', nextOpen)).strip());
    int prevColon = prev.lastIndexOf(':');
    int nextColon = next.lastIndexOf(':');
    pid = Integer.parseInt(prev.substring(prevColon + 1));
    comm = prev.substring(0, prevColon);
    otherPid = Integer.parseInt(next.substring(nextColon + 1));
    otherComm = next.substring(0, nextColon);
  }

  private void readWakeup(String f) {
    boolean success;
    if (f.startsWith("comm=")) {
      pid = intField(f, "pid");
      comm = stringField(f, "comm", "pid");
      prio = intFieldOr(f, "prio", 120);
      success = intFieldOr(f, "success", 1) != 0;
      if (fieldStart(f, "target_cpu") < 0 && fieldStart(f, "cpu") < 0) {
        throw new IndexOutOfBoundsException("no target_cpu");
      }
    } else {
      facts.pluginFields = true;
      int open = f.indexOf(" [");
      String who = open < 0 ? f.split(" ")[0] : f.substring(0, open);
      int colon = who.lastIndexOf(':');
      pid = Integer.parseInt(who.substring(colon + 1));
      comm = who.substring(0, colon);
      prio = open < 0 ? 120 : Integer.parseInt(f.substring(open + 2, f.indexOf(']', open)));
      int s = f.indexOf(" success=");
      success = s < 0 || f.charAt(s + 9) != '0';
      if (!f.contains("CPU:")) {
        throw new IndexOutOfBoundsException("no CPU:");
      }
    }
    // Kernels before v4.3 logged wakeups of tasks that were already runnable with success=0.
    skip = !success;
  }

  static LeaveState leaveState(String state) {
    if (state.isEmpty()) {
      throw new IndexOutOfBoundsException("no prev_state");
    }
    char first = state.charAt(0);
    if (first >= '0' && first <= '9') {
      long bits =
          state.startsWith("0x") ? Long.parseLong(state.substring(2), 16) : Long.parseLong(state);
      // Preemption is a bit above the reported states (TASK_REPORT_MAX, TASK_STATE_MAX); the
      // exit states are 0x10 and 0x20 in both layouts.
      long reported = bits & 0xff;
      if (reported == 0) {
        return LeaveState.PREEMPTED;
      }
      return (reported & 0x30) != 0 ? LeaveState.DEAD : LeaveState.BLOCKED;
    }
    boolean dead = false;
    boolean blocked = false;
    for (int i = 0; i < state.length(); i++) {
      char c = state.charAt(i);
      if (c == 'R' || c == '+' || c == '|') {
        continue;
      }
      if (!Character.isLetter(c)) {
        throw new IndexOutOfBoundsException("bad prev_state");
      }
      if (c == 'X' || c == 'Z' || c == 'x') {
        dead = true;
      } else {
        blocked = true;
      }
    }
    return dead ? LeaveState.DEAD : blocked ? LeaveState.BLOCKED : LeaveState.PREEMPTED;
  }

  // ---------------------------------------------------------------------------------------
  // Columns and fields

  /** The {@code [CPU]} column's '[': the first bracketed number preceded by a space. */
  private int cpuBracket() {
    int from = cursor;
    while (true) {
      int open = line.indexOf('[', from);
      if (open < 0) {
        return -1;
      }
      int close = line.indexOf(']', open);
      if (close > open + 1
          && close - open <= 7
          && isDigits(line, open + 1, close)
          && open > cursor
          && line.charAt(open - 1) == ' ') {
        return open;
      }
      from = open + 1;
    }
  }

  /** The pid of {@code COMM-PID [(TGID)]} (ftrace) or {@code COMM [PID/]TID} (perf script). */
  private int taskColumn(String column) {
    String text = column;
    if (text.endsWith(")")) {
      int open = text.lastIndexOf('(');
      if (open > 0) {
        text = text.substring(0, open).strip();
      }
    }
    int space = text.lastIndexOf(' ');
    String last = text.substring(space + 1);
    int slash = last.indexOf('/');
    String tid = slash >= 0 ? last.substring(slash + 1) : last;
    if (space > 0
        && !tid.isEmpty()
        && isDigits(tid, 0, tid.length())
        && (slash < 0 || isDigits(last, 0, slash))) {
      facts.perfColumns = true;
      return Integer.parseInt(tid);
    }
    int dash = text.lastIndexOf('-');
    if (dash > 0 && dash < text.length() - 1 && isDigits(text, dash + 1, text.length())) {
      facts.ftraceColumns = true;
      return Integer.parseInt(text.substring(dash + 1));
    }
    throw problem(
        lineNo,
        "cannot read the task column '"
            + excerpt(column)
            + "': expected"
            + " COMM-PID (ftrace, trace-cmd report) or COMM TID (perf script)");
  }

  private long time(String token) {
    int n = token.length() - 1;
    if (n <= 0 || token.charAt(n) != ':') {
      throw problem(
          lineNo,
          "expected a time stamp SECONDS.FRACTION: after the CPU column, got '"
              + excerpt(token)
              + "'");
    }
    int dot = token.indexOf('.');
    if (dot < 0) {
      if (!isDigits(token, 0, n)) {
        throw problem(
            lineNo,
            "expected a time stamp SECONDS.FRACTION: after the CPU column,"
                + " got '"
                + excerpt(token)
                + "'");
      }
      // An integer clock (trace_clock counter or a raw ns stamp): read as nanoseconds.
      return Long.parseLong(token.substring(0, n));
    }
    if (dot == 0
        || !isDigits(token, 0, dot)
        || !isDigits(token, dot + 1, n)
        || dot + 1 == n
        || n - dot - 1 > 9
        || dot > 10) {
      throw problem(
          lineNo,
          "expected a time stamp SECONDS.FRACTION (at most 9 decimals): after"
              + " the CPU column, got '"
              + excerpt(token)
              + "'");
    }
    long seconds = Long.parseLong(token.substring(0, dot));
    long fraction = Long.parseLong(token.substring(dot + 1, n));
    for (int digits = n - dot - 1; digits < 9; digits++) {
      fraction *= 10;
    }
    return seconds * 1_000_000_000L + fraction;
  }

  /** Where {@code key=}'s value starts in {@code f}, or -1. */
  private static int fieldStart(String f, String key) {
    int from = 0;
    while (true) {
      int at = f.indexOf(key, from);
      if (at < 0) {
        return -1;
      }
      int end = at + key.length();
      if ((at == 0 || f.charAt(at - 1) == ' ') && end < f.length() && f.charAt(end) == '=') {
        return end + 1;
      }
      from = at + 1;
    }
  }

  private static int intField(String f, String key) {
    int start = fieldStart(f, key);
    if (start < 0) {
      throw new IndexOutOfBoundsException("no " + key);
    }
    int end = start;
    if (end < f.length() && f.charAt(end) == '-') {
      end++;
    }
    while (end < f.length() && f.charAt(end) >= '0' && f.charAt(end) <= '9') {
      end++;
    }
    return Integer.parseInt(f.substring(start, end));
  }

  private static int intFieldOr(String f, String key, int absent) {
    return fieldStart(f, key) < 0 ? absent : intField(f, key);
  }

  /** A string value, which may hold spaces: up to {@code " next="} or the end. */
  private static String stringField(String f, String key, String next) {
    int start = fieldStart(f, key);
    if (start < 0) {
      throw new IndexOutOfBoundsException("no " + key);
    }
    if (next == null) {
      int space = f.indexOf(' ', start);
      return f.substring(start, space < 0 ? f.length() : space);
    }
    int end = f.indexOf(" " + next + "=", start);
    if (end < 0) {
      throw new IndexOutOfBoundsException("no " + next);
    }
    return f.substring(start, end);
  }

  private void skipSpaces() {
    while (cursor < line.length() && (line.charAt(cursor) == ' ' || line.charAt(cursor) == '\t')) {
      cursor++;
    }
  }

  private String token() {
    int start = cursor;
    while (cursor < line.length() && line.charAt(cursor) != ' ' && line.charAt(cursor) != '\t') {
      cursor++;
    }
    return line.substring(start, cursor);
  }

  private static boolean isDigits(String s, int from, int to) {
    if (from >= to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static int leadingInt(String s, int from) {
    int i = from;
    while (i < s.length() && s.charAt(i) == ' ') {
      i++;
    }
    int start = i;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9' && i - start < 9) {
      i++;
    }
    return i == start ? -1 : Integer.parseInt(s.substring(start, i));
  }

  private static long parseLongOr(String s, long absent) {
    String t = s.strip();
    return isDigits(t, 0, t.length()) && t.length() < 19 ? Long.parseLong(t) : absent;
  }

  private static String excerpt(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  static String seconds(long ns) {
    return String.format(Locale.ROOT, "%d.%06d", ns / 1_000_000_000L, ns % 1_000_000_000L / 1000);
  }

  private static IllegalArgumentException problem(int line, String message) {
    return new IllegalArgumentException("line " + line + ": " + message);
  }
}
