package dev.schedlab.workloads.trace;

import java.util.Arrays;

/**
 * What the header lines and the events of a recording said about it, filled by {@link
 * SchedTraceParser} as it reads: the format, the host's description, buffer and loss counts, and
 * how many of each scheduler event ({@link #EVENT_NAMES}) the file held.
 */
final class TraceFacts {

  /** The scheduler events read, in the order {@link #counts} counts them. */
  static final String[] EVENT_NAMES = {
    "sched_switch",
    "sched_waking",
    "sched_wakeup",
    "sched_wakeup_new",
    "sched_process_fork",
    "sched_process_exec",
    "sched_process_exit",
    "sched_migrate_task"
  };

  String format = "";
  String hostname = "";
  String cpuDescription = "";
  String osRelease = "";
  int declaredCpus = -1;
  long entriesInBuffer = -1;
  long entriesWritten = -1;
  long lostEvents;
  int gaps;
  long schedEvents;
  long otherEvents;
  long lines;
  final long[] counts = new long[EVENT_NAMES.length];
  long firstNs = Long.MIN_VALUE;
  long lastNs = Long.MIN_VALUE;
  int maxCpu = -1;
  boolean perfColumns;
  boolean ftraceColumns;
  boolean pluginFields;

  long count(String event) {
    return counts[Arrays.asList(EVENT_NAMES).indexOf(event)];
  }

  /** Whether the ring buffer overwrote older entries (ftrace's entries line). */
  boolean wrapped() {
    return entriesWritten > entriesInBuffer && entriesInBuffer >= 0;
  }
}
