package dev.schedlab.cli.report;

import com.google.protobuf.CodedOutputStream;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.CounterDescriptor;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.DebugAnnotation;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.FtraceEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.FtraceEventBundle;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.ProcessTree;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.SchedMigrateTaskFtraceEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.SchedSwitchFtraceEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.SchedWakeupFtraceEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.SchedWakeupNewFtraceEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.SchedWakingFtraceEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.SystemInfo;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.TracePacket;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.TrackDescriptor;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.TrackEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.Utsname;
import dev.schedlab.core.balance.BalanceOutcome;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Topology;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * Writes one recorded run ({@link Recording.Detail#SCHED}) as a Perfetto protobuf trace ({@code
 * perfetto.protos.Trace}), which ui.perfetto.dev and Perfetto's trace processor open natively.
 *
 * <p>The scheduler's view is ftrace's: per-CPU {@code sched_switch} (previous task's state R+ for
 * preempted, S or X; the trace declares a Linux 7.1 release so that Perfetto decodes the 4.14+
 * state bits), {@code sched_waking} (on the waking CPU, {@code target_cpu} the task's previous CPU
 * as in {@code try_to_wake_up()}) and {@code sched_wakeup} ({@code target_cpu} the CPU {@code
 * select_task_rq()} chose), {@code sched_wakeup_new} for forks, {@code sched_migrate_task} on the
 * source CPU, and a process tree naming every task. So Perfetto shows its CPU tracks, thread states
 * and wakeup arrows. Tasks are threads of one process, pid {@value #PID}, named after the workload;
 * a task's tid is its id + {@value #PID}; the idle task is pid 0 ({@code swapper/N}). A task's prio
 * is 120 + its nice, as {@code p->prio} of a SCHED_NORMAL or SCHED_IDLE task.
 *
 * <p>The balancer's view is track events under one root track: per CPU a balancing track with
 * slices for ILB passes ({@code _nohz_idle_balance()}), newidle ({@code sched_balance_newidle()})
 * and periodic ({@code sched_balance_domains()}) balancing of an idle CPU, each annotated with
 * every {@code sched_balance_rq()} attempt (domain, and for ILB passes the CPU balanced for: its
 * result and pulled tasks); an instant for balancing on a CPU running a task (the time it takes is
 * stolen from the task, not a phase of its own) and for each ILB kick (on the kicking CPU); counter
 * tracks for each CPU's {@code nr_running} and the weight of {@code nohz.idle_cpus_mask}. A full
 * event log adds an instant on the root track where the trace stops. Timestamps are ns.
 */
public final class PerfettoTraceWriter {

  /** The pid of the workload's process; task {@code id} is thread {@code id + PID}. */
  public static final int PID = 1000;

  /** {@code prio} of nice 0 (and of the idle task); a task's is this plus its nice. */
  static final int PRIO = 120;

  /**
   * {@code prev_state} values as {@code __trace_sched_switch_state()} reports them since Linux
   * 4.14: {@code TASK_RUNNING} (the idle task), {@code TASK_REPORT_MAX} for a preempted task,
   * {@code TASK_INTERRUPTIBLE}, {@code EXIT_DEAD}.
   */
  static final long STATE_RUNNING = 0;

  static final long STATE_PREEMPTED = 0x100;
  static final long STATE_SLEEPING = 1;
  static final long STATE_DEAD = 0x10;

  /**
   * The kernel release the trace declares, so that Perfetto reads {@code prev_state} with the 4.14+
   * layout; the simulated scheduler is 7.1's (with later deltas per variant).
   */
  static final String RELEASE = "7.1.0-schedlab";

  static final long ROOT_UUID = 1;
  static final long NOHZ_UUID = 2;
  static final long BALANCE_UUID_BASE = 1L << 20;
  static final long NR_RUNNING_UUID_BASE = 2L << 20;

  private static final int SEQUENCE = 1;
  private static final int MAX_BUNDLE = 512;

  private PerfettoTraceWriter() {}

  /** The balancing track of {@code cpu}. */
  static long balanceTrack(int cpu) {
    return BALANCE_UUID_BASE + cpu;
  }

  /** The {@code nr_running} counter track of {@code cpu}. */
  static long nrRunningTrack(int cpu) {
    return NR_RUNNING_UUID_BASE + cpu;
  }

  /** Writes the trace of {@code outcome} (recorded with {@link Recording.Detail#SCHED}). */
  public static void write(OutputStream out, Scenario scenario, RunOutcome outcome)
      throws IOException {
    CodedOutputStream coded = CodedOutputStream.newInstance(out, 1 << 16);
    new Packets(coded, scenario, outcome).writeAll();
    coded.flush();
  }

  /** The packets of one trace, written in time order. */
  private static final class Packets {
    private final CodedOutputStream out;
    private final Scenario scenario;
    private final RunOutcome outcome;
    private final Recording r;
    private final Topology topology;
    private final List<String> names;

    /** The tid running on each CPU at the point written so far, for events' {@code pid}. */
    private final int[] current;

    private FtraceEventBundle.Builder bundle;
    private int bundleCpu = -1;

    /** Balancing attempts at one (time, CPU) not yet written: log indices. */
    private int[] pending = new int[16];

    private int pendingSize;

    Packets(CodedOutputStream out, Scenario scenario, RunOutcome outcome) {
      this.out = out;
      this.scenario = scenario;
      this.outcome = outcome;
      this.r = outcome.recording();
      this.topology = scenario.hardware().topology();
      this.names = r.taskNames();
      this.current = new int[topology.nrCpuIds()];
    }

    void writeAll() throws IOException {
      // Read as the trace is tokenized, before any sched_switch is parsed.
      packet(
          TracePacket.newBuilder()
              .setSystemInfo(
                  SystemInfo.newBuilder()
                      .setUtsname(Utsname.newBuilder().setSysname("Linux").setRelease(RELEASE))));
      writeProcessTree();
      writeTracks();
      writeScenario();
      int[] items = TimeOrder.sort(r);
      for (int item : items) {
        int i = item >> 1;
        boolean end = (item & 1) != 0;
        int kind = r.kind(i);
        if (kind == Recording.BALANCE_ATTEMPT) {
          if (pendingSize > 0 && !samePlace(pending[0], i)) {
            flushAttempts();
          }
          addPending(i);
          continue;
        }
        boolean slice = kind == Recording.SLICE_BALANCE || kind == Recording.SLICE_ILB;
        if (pendingSize > 0 && !(slice && !end && samePlace(pending[0], i))) {
          flushAttempts();
        }
        event(i, kind, end);
      }
      flushAttempts();
      flushBundle();
      if (r.truncatedAtNs() >= 0) {
        trackEvent(
            r.truncatedAtNs(),
            TrackEvent.newBuilder()
                .setType(TrackEvent.Type.TYPE_INSTANT)
                .setTrackUuid(ROOT_UUID)
                .setName("event log full: the trace stops here")
                .addDebugAnnotations(text("note", truncationNote(r))));
      }
    }

    private boolean samePlace(int a, int b) {
      return r.time(a) == r.time(b) && r.cpu(a) == r.cpu(b);
    }

    private void addPending(int i) {
      if (pendingSize == pending.length) {
        pending = Arrays.copyOf(pending, pendingSize * 2);
      }
      pending[pendingSize++] = i;
    }

    private void event(int i, int kind, boolean end) throws IOException {
      int cpu = r.cpu(i);
      switch (kind) {
        case Recording.SWITCH -> sched(cpu, r.time(i), switchEvent(i, cpu));
        case Recording.WAKEUP -> wakeup(i, cpu);
        case Recording.MIGRATION -> migration(i, cpu);
        case Recording.SLICE_BALANCE, Recording.SLICE_ILB -> {
          if (end) {
            trackEvent(
                r.end(i),
                TrackEvent.newBuilder()
                    .setType(TrackEvent.Type.TYPE_SLICE_END)
                    .setTrackUuid(balanceTrack(cpu)));
          } else {
            TrackEvent.Builder begin =
                TrackEvent.newBuilder()
                    .setType(TrackEvent.Type.TYPE_SLICE_BEGIN)
                    .setTrackUuid(balanceTrack(cpu))
                    .setName(sliceName(kind))
                    .addCategories(kind == Recording.SLICE_ILB ? "ilb" : "balance");
            annotateAttempts(begin);
            pendingSize = 0;
            trackEvent(r.time(i), begin);
          }
        }
        case Recording.KICK -> {
          TrackEvent.Builder kick =
              TrackEvent.newBuilder()
                  .setType(TrackEvent.Type.TYPE_INSTANT)
                  .setTrackUuid(balanceTrack(cpu))
                  .addCategories("kick")
                  .setName(r.value(i) < 0 ? "ILB kick (no idle CPU)" : "ILB kick");
          if (r.value(i) >= 0) {
            kick.addDebugAnnotations(number("ilb_cpu", r.value(i)));
          }
          trackEvent(r.time(i), kick);
        }
        case Recording.NR_RUNNING -> counter(r.time(i), nrRunningTrack(cpu), r.value(i));
        case Recording.NOHZ_WEIGHT -> counter(r.time(i), NOHZ_UUID, r.value(i));
        default -> throw new IllegalStateException("unexpected event kind " + kind);
      }
    }

    /** The slice's name: the kernel function whose work it is. */
    private String sliceName(int kind) {
      if (kind == Recording.SLICE_ILB) {
        return "ILB pass (_nohz_idle_balance)";
      }
      if (pendingSize == 0) {
        // Blocked-load updates or an ILB kick's softirq without a domain due.
        return "SCHED_SOFTIRQ";
      }
      return r.attemptIdle(pending[0]) == IdleType.NEWLY_IDLE
          ? "sched_balance_newidle"
          : "sched_balance_domains";
    }

    /** Balancing on a CPU with no slice of its own (a task's CPU): one instant. */
    private void flushAttempts() throws IOException {
      if (pendingSize == 0) {
        return;
      }
      int first = pending[0];
      TrackEvent.Builder instant =
          TrackEvent.newBuilder()
              .setType(TrackEvent.Type.TYPE_INSTANT)
              .setTrackUuid(balanceTrack(r.cpu(first)))
              .addCategories("balance")
              .setName(
                  r.attemptIdle(first) == IdleType.NEWLY_IDLE
                      ? "sched_balance_newidle"
                      : "sched_balance_domains");
      annotateAttempts(instant);
      pendingSize = 0;
      trackEvent(r.time(first), instant);
    }

    /**
     * One annotation per attempt, keyed by domain (and by the CPU balanced for, when another), plus
     * totals.
     */
    private void annotateAttempts(TrackEvent.Builder event) {
      if (pendingSize == 0) {
        return;
      }
      int pulled = 0;
      for (int k = 0; k < pendingSize; k++) {
        int a = pending[k];
        int dst = r.value(a);
        String domain = r.domainName(dst, r.attemptLevel(a));
        String key = dst == r.cpu(a) ? domain : "cpu" + dst + "." + domain;
        BalanceOutcome result = r.attemptOutcome(a);
        int moved = r.attemptMoved(a);
        pulled += moved;
        String value =
            result == BalanceOutcome.PULLED
                ? "pulled " + moved + (moved == 1 ? " task" : " tasks") + " from CPU " + r.other(a)
                : result.description();
        event.addDebugAnnotations(text(key, value));
      }
      event.addDebugAnnotations(number("attempts", pendingSize));
      event.addDebugAnnotations(number("pulled", pulled));
      event.addDebugAnnotations(text("idle", r.attemptIdle(pending[0]).name()));
    }

    private FtraceEvent.Builder switchEvent(int i, int cpu) {
      int prev = r.other(i);
      int next = r.value(i);
      long state =
          switch (r.prevState(i)) {
            case Recording.PREV_SLEEPING -> STATE_SLEEPING;
            case Recording.PREV_EXITED -> STATE_DEAD;
            default -> STATE_PREEMPTED;
          };
      FtraceEvent.Builder event =
          FtraceEvent.newBuilder()
              .setSchedSwitch(
                  SchedSwitchFtraceEvent.newBuilder()
                      .setPrevComm(comm(prev, cpu))
                      .setPrevPid(tid(prev))
                      .setPrevPrio(prio(prev))
                      .setPrevState(prev < 0 ? STATE_RUNNING : state)
                      .setNextComm(comm(next, cpu))
                      .setNextPid(tid(next))
                      .setNextPrio(prio(next)));
      // The event's pid is the task switched from; the CPU runs next from now on.
      event.setPid(tid(prev));
      current[cpu] = tid(next);
      return event;
    }

    private void wakeup(int i, int cpu) throws IOException {
      int task = r.value(i);
      int target = r.other(i);
      if (r.wakeupIsFork(i)) {
        sched(
            cpu,
            r.time(i),
            FtraceEvent.newBuilder()
                .setPid(current[cpu])
                .setSchedWakeupNew(
                    SchedWakeupNewFtraceEvent.newBuilder()
                        .setComm(comm(task, cpu))
                        .setPid(tid(task))
                        .setPrio(prio(task))
                        .setSuccess(1)
                        .setTargetCpu(target)));
        return;
      }
      sched(
          cpu,
          r.time(i),
          FtraceEvent.newBuilder()
              .setPid(current[cpu])
              .setSchedWaking(
                  SchedWakingFtraceEvent.newBuilder()
                      .setComm(comm(task, cpu))
                      .setPid(tid(task))
                      .setPrio(prio(task))
                      .setSuccess(1)
                      .setTargetCpu(r.wakeupPrevCpu(i))));
      sched(
          cpu,
          r.time(i),
          FtraceEvent.newBuilder()
              .setPid(current[cpu])
              .setSchedWakeup(
                  SchedWakeupFtraceEvent.newBuilder()
                      .setComm(comm(task, cpu))
                      .setPid(tid(task))
                      .setPrio(prio(task))
                      .setSuccess(1)
                      .setTargetCpu(target)));
    }

    private void migration(int i, int cpu) throws IOException {
      int task = r.other(i);
      sched(
          cpu,
          r.time(i),
          FtraceEvent.newBuilder()
              .setPid(current[cpu])
              .setSchedMigrateTask(
                  SchedMigrateTaskFtraceEvent.newBuilder()
                      .setComm(comm(task, cpu))
                      .setPid(tid(task))
                      .setPrio(prio(task))
                      .setOrigCpu(cpu)
                      .setDestCpu(r.value(i))));
    }

    private String comm(int task, int cpu) {
      return task < 0 ? "swapper/" + cpu : names.get(task);
    }

    private int prio(int task) {
      return task < 0 ? PRIO : PRIO + r.nice(task);
    }

    private static int tid(int task) {
      return task < 0 ? 0 : task + PID;
    }

    /** Adds an ftrace event to {@code cpu}'s bundle. */
    private void sched(int cpu, long ns, FtraceEvent.Builder event) throws IOException {
      if (bundle != null && (bundleCpu != cpu || bundle.getEventCount() >= MAX_BUNDLE)) {
        flushBundle();
      }
      if (bundle == null) {
        bundle = FtraceEventBundle.newBuilder().setCpu(cpu);
        bundleCpu = cpu;
      }
      bundle.addEvent(event.setTimestamp(ns));
    }

    private void flushBundle() throws IOException {
      if (bundle == null) {
        return;
      }
      packet(TracePacket.newBuilder().setFtraceEvents(bundle));
      bundle = null;
      bundleCpu = -1;
    }

    private void counter(long ns, long track, int value) throws IOException {
      trackEvent(
          ns,
          TrackEvent.newBuilder()
              .setType(TrackEvent.Type.TYPE_COUNTER)
              .setTrackUuid(track)
              .setCounterValue(value));
    }

    private void trackEvent(long ns, TrackEvent.Builder event) throws IOException {
      // The ftrace events before it go first: the file stays in the order things happened.
      flushBundle();
      packet(
          TracePacket.newBuilder()
              .setTimestamp(ns)
              .setTrustedPacketSequenceId(SEQUENCE)
              .setTrackEvent(event));
    }

    private void packet(TracePacket.Builder packet) throws IOException {
      // Trace.packet is field 1: a file of packets is a Trace message.
      out.writeMessage(1, packet.build());
    }

    private void writeProcessTree() throws IOException {
      ProcessTree.Builder tree =
          ProcessTree.newBuilder()
              .addProcesses(
                  ProcessTree.Process.newBuilder()
                      .setPid(PID)
                      .setPpid(1)
                      .addCmdline(scenario.workload().id()));
      for (int task = 0; task < names.size(); task++) {
        tree.addThreads(
            ProcessTree.Thread.newBuilder()
                .setTid(tid(task))
                .setTgid(PID)
                .setName(names.get(task)));
      }
      packet(TracePacket.newBuilder().setTimestamp(0).setProcessTree(tree));
    }

    private void writeTracks() throws IOException {
      String variant = outcome.spec().variant().name();
      // The first packet of the track-event sequence, as Perfetto's own writers mark it.
      packet(
          TracePacket.newBuilder()
              .setTimestamp(0)
              .setTrustedPacketSequenceId(SEQUENCE)
              .setSequenceFlags(TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED_VALUE)
              .setTrackDescriptor(
                  TrackDescriptor.newBuilder()
                      .setUuid(ROOT_UUID)
                      .setName("schedlab " + variant)
                      .setDescription(scenario.describe())
                      .setChildOrdering(TrackDescriptor.ChildTracksOrdering.EXPLICIT)));
      CpuMask online = topology.onlineMask();
      int rank = 0;
      track(
          TrackDescriptor.newBuilder()
              .setUuid(NOHZ_UUID)
              .setParentUuid(ROOT_UUID)
              .setName("nohz.idle_cpus_mask weight")
              .setSiblingOrderRank(rank++)
              .setCounter(CounterDescriptor.newBuilder().setUnitName("CPUs")));
      for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
        track(
            TrackDescriptor.newBuilder()
                .setUuid(balanceTrack(cpu))
                .setParentUuid(ROOT_UUID)
                .setName("CPU " + cpu + " balancing")
                .setSiblingOrderRank(rank++));
        track(
            TrackDescriptor.newBuilder()
                .setUuid(nrRunningTrack(cpu))
                .setParentUuid(ROOT_UUID)
                .setName("CPU " + cpu + " nr_running")
                .setSiblingOrderRank(rank++)
                .setCounter(
                    CounterDescriptor.newBuilder().setUnit(CounterDescriptor.Unit.UNIT_COUNT)));
      }
    }

    private void track(TrackDescriptor.Builder track) throws IOException {
      packet(
          TracePacket.newBuilder()
              .setTimestamp(0)
              .setTrustedPacketSequenceId(SEQUENCE)
              .setTrackDescriptor(track));
    }

    /** The run's scenario, as an instant at 0 on the root track. */
    private void writeScenario() throws IOException {
      trackEvent(
          0,
          TrackEvent.newBuilder()
              .setType(TrackEvent.Type.TYPE_INSTANT)
              .setTrackUuid(ROOT_UUID)
              .setName("scenario")
              .addDebugAnnotations(text("machine", scenario.describe()))
              .addDebugAnnotations(text("variant", outcome.spec().variant().name()))
              .addDebugAnnotations(text("definition", outcome.spec().variant().definition()))
              .addDebugAnnotations(number("seed", outcome.spec().seed()))
              .addDebugAnnotations(number("duration_ns", scenario.durationNs())));
    }
  }

  /** The note a truncated trace carries, as the Chrome trace words it. */
  static String truncationNote(Recording r) {
    return "event log full ("
        + r.maxEvents()
        + " events) at "
        + TraceWriter.micros(r.truncatedAtNs())
        + " us; later events are missing";
  }

  private static DebugAnnotation text(String name, String value) {
    return DebugAnnotation.newBuilder().setName(name).setStringValue(value).build();
  }

  private static DebugAnnotation number(String name, long value) {
    return DebugAnnotation.newBuilder().setName(name).setIntValue(value).build();
  }

  /**
   * The order the trace is written in: by time; at one instant slice ends first, then the other
   * events in the order they happened, then per CPU its balancing attempts followed by the
   * balancing slice they open. An item is a log index times two, plus one for a slice's end.
   */
  static final class TimeOrder {
    private final Recording r;

    private TimeOrder(Recording r) {
      this.r = r;
    }

    static int[] sort(Recording r) {
      int n = 0;
      for (int i = 0; i < r.size(); i++) {
        n += isSlice(r.kind(i)) ? 2 : 1;
      }
      int[] items = new int[n];
      int k = 0;
      for (int i = 0; i < r.size(); i++) {
        items[k++] = i << 1;
        if (isSlice(r.kind(i))) {
          items[k++] = i << 1 | 1;
        }
      }
      new TimeOrder(r).mergeSort(items, new int[n], 0, n);
      return items;
    }

    private static boolean isSlice(int kind) {
      return kind == Recording.SLICE_BALANCE || kind == Recording.SLICE_ILB;
    }

    private long ts(int item) {
      int i = item >> 1;
      return (item & 1) != 0 ? r.end(i) : r.time(i);
    }

    /** 0 a slice's end, 1 an event, 2 a balancing attempt or a slice's start. */
    private int rank(int item) {
      if ((item & 1) != 0) {
        return 0;
      }
      int kind = r.kind(item >> 1);
      return kind == Recording.BALANCE_ATTEMPT || isSlice(kind) ? 2 : 1;
    }

    int compare(int a, int b) {
      int c = Long.compare(ts(a), ts(b));
      if (c != 0) {
        return c;
      }
      int ra = rank(a);
      int rb = rank(b);
      if (ra != rb) {
        return ra - rb;
      }
      if (ra == 2) {
        c = Integer.compare(r.cpu(a >> 1), r.cpu(b >> 1));
        if (c != 0) {
          return c;
        }
        boolean sa = isSlice(r.kind(a >> 1));
        boolean sb = isSlice(r.kind(b >> 1));
        if (sa != sb) {
          return sa ? 1 : -1;
        }
      }
      return Integer.compare(a, b);
    }

    /** A stable merge sort of {@code items[from, to)}, {@code tmp} as wide. */
    private void mergeSort(int[] items, int[] tmp, int from, int to) {
      if (to - from < 2) {
        return;
      }
      int mid = (from + to) >>> 1;
      mergeSort(items, tmp, from, mid);
      mergeSort(items, tmp, mid, to);
      if (compare(items[mid - 1], items[mid]) <= 0) {
        return;
      }
      System.arraycopy(items, from, tmp, from, to - from);
      int i = from;
      int j = mid;
      for (int k = from; k < to; k++) {
        if (j >= to || i < mid && compare(tmp[i], tmp[j]) <= 0) {
          items[k] = tmp[i++];
        } else {
          items[k] = tmp[j++];
        }
      }
    }
  }
}
