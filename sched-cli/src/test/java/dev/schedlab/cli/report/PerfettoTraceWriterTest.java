package dev.schedlab.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.args.RunSpec;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.ScenarioOptions;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.DebugAnnotation;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.FtraceEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.FtraceEventBundle;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.SchedSwitchFtraceEvent;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.Trace;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.TracePacket;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.TrackDescriptor;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.TrackEvent;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.PluginRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The Perfetto trace, parsed back with the same generated messages, agrees with the run: as many
 * {@code sched_switch} events as the run's context switches (counted independently by {@link
 * ReplayRecording}), each CPU's switches chained (every switch leaves the task the previous one
 * started) and no task on two CPUs at once, {@code prev_state} S exactly for tasks that are woken
 * before they run again, wakeups that queue the task where it next runs unless it migrates, thread
 * names for every pid, balancing slices that open and close in order on their own tracks with their
 * attempts annotated, {@code nr_running} counters that are 0 exactly when a CPU switches to idle,
 * and a truncated log noted where it stops.
 */
final class PerfettoTraceWriterTest {

  private static final PluginRegistry REGISTRY =
      PluginRegistry.load(PerfettoTraceWriterTest.class.getClassLoader());

  private static final String[] SCENARIO = {
    "--machine",
    "hw.shape",
    "-M",
    "shape=1n2l4c2t",
    "--workload",
    "wl.hackbench",
    "-W",
    "groups=2",
    "--duration",
    "60ms",
    "--seed",
    "3"
  };

  private static Scenario scenario;
  private static Variant variant;
  private static Recording recording;
  private static Trace trace;

  @BeforeAll
  static void runAndParse() throws IOException {
    scenario = scenario(SCENARIO);
    variant = Variant.parseAll(List.of("a=mainline-7.3"), REGISTRY).get(0);
    recording = record(Recording.DEFAULT_MAX_EVENTS);
    trace = write(recording);
  }

  private static Scenario scenario(String... args) {
    ScenarioOptions options = new ScenarioOptions();
    new CommandLine(options).parseArgs(args);
    return Scenario.resolve(
        REGISTRY, options, PluginArguments.keyValues("-W", options.workloadParameters));
  }

  private static Recording record(int maxEvents) {
    Recording r =
        new Recording(
            scenario.hardware().topology(),
            scenario.durationNs(),
            Recording.Detail.SCHED,
            maxEvents);
    r.run(scenario.config(REGISTRY, variant, scenario.seed()));
    return r;
  }

  private static Trace write(Recording r) throws IOException {
    SimulationResult result = Simulations.run(scenario.config(REGISTRY, variant, scenario.seed()));
    RunOutcome outcome = new RunOutcome(new RunSpec(variant, scenario.seed()), result, r);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PerfettoTraceWriter.write(bytes, scenario, outcome);
    return Trace.parseFrom(bytes.toByteArray());
  }

  /** An ftrace event with the CPU of its bundle. */
  private record Sched(int cpu, FtraceEvent event) {}

  /** Every ftrace event of {@code t}, in file order (the order they happened). */
  private static List<Sched> sched(Trace t) {
    List<Sched> events = new ArrayList<>();
    for (TracePacket p : t.getPacketList()) {
      if (p.hasFtraceEvents()) {
        FtraceEventBundle b = p.getFtraceEvents();
        for (FtraceEvent e : b.getEventList()) {
          events.add(new Sched(b.getCpu(), e));
        }
      }
    }
    return events;
  }

  private static List<TracePacket> trackEvents(Trace t) {
    List<TracePacket> events = new ArrayList<>();
    for (TracePacket p : t.getPacketList()) {
      if (p.hasTrackEvent()) {
        events.add(p);
      }
    }
    return events;
  }

  @Test
  void file_isInTimeOrder() {
    long last = 0;
    int packets = 0;
    for (TracePacket p : trace.getPacketList()) {
      if (p.hasFtraceEvents()) {
        for (FtraceEvent e : p.getFtraceEvents().getEventList()) {
          assertThat(e.getTimestamp()).isGreaterThanOrEqualTo(last);
          last = e.getTimestamp();
        }
      } else {
        assertThat(p.getTimestamp()).isGreaterThanOrEqualTo(last);
        last = p.getTimestamp();
      }
      packets++;
    }
    assertThat(packets).isGreaterThan(1000);
    assertThat(last).isLessThanOrEqualTo(scenario.durationNs());
  }

  @Test
  void switches_asManyAsTheRunsContextSwitches() {
    ReplayRecording replay = new ReplayRecording(scenario.hardware().topology().nrCpuIds());
    Simulations.run(scenario.config(REGISTRY, variant, scenario.seed()), replay);
    long switches = sched(trace).stream().filter(s -> s.event().hasSchedSwitch()).count();
    // A task woken elsewhere while its old CPU still balances leaves that CPU early; when the CPU
    // then runs another task, the trace has two switches where the replay counts one.
    assertThat(recording.splitSwitches()).isLessThan(switches / 100);
    assertThat(switches)
        .isGreaterThan(1000)
        .isEqualTo(replay.contextSwitches() + recording.splitSwitches());
    assertThat(recording.truncatedAtNs()).isEqualTo(-1);
  }

  @Test
  void switches_chainPerCpu_andNoTaskRunsOnTwoCpus() {
    assertChained(trace);
  }

  @Test
  void switches_chainPerCpu_whileTheBalancerMovesHogs() throws IOException {
    // Five GEMM threads on four CPUs: the balancer keeps moving the odd one between runqueues.
    Scenario gemm =
        scenario(
            "--machine",
            "hw.shape",
            "-M",
            "shape=1n1l2c2t",
            "--workload",
            "wl.gemm",
            "-W",
            "threads=5",
            "--duration",
            "300ms");
    Recording r =
        new Recording(
            gemm.hardware().topology(),
            gemm.durationNs(),
            Recording.Detail.SCHED,
            Recording.DEFAULT_MAX_EVENTS);
    SimulationResult result = r.run(gemm.config(REGISTRY, variant, gemm.seed()));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PerfettoTraceWriter.write(
        bytes, gemm, new RunOutcome(new RunSpec(variant, gemm.seed()), result, r));
    Trace t = Trace.parseFrom(bytes.toByteArray());
    assertChained(t);
    assertThat(sched(t).stream().filter(s -> s.event().hasSchedMigrateTask()).count()).isPositive();
  }

  private static void assertChained(Trace trace) {
    Map<Integer, Integer> running = new HashMap<>();
    Map<Integer, Integer> cpuOf = new HashMap<>();
    for (Sched s : sched(trace)) {
      FtraceEvent e = s.event();
      int on = running.getOrDefault(s.cpu(), 0);
      // Every event's pid is the task the CPU runs then, as ftrace's common_pid.
      assertThat(e.getPid()).as("pid of an event on CPU %d", s.cpu()).isEqualTo(on);
      if (!e.hasSchedSwitch()) {
        continue;
      }
      SchedSwitchFtraceEvent sw = e.getSchedSwitch();
      assertThat(sw.getPrevPid()).isEqualTo(on).isNotEqualTo(sw.getNextPid());
      assertThat(sw.getPrevComm()).isNotEmpty();
      if (sw.getPrevPid() != 0) {
        cpuOf.remove(sw.getPrevPid());
      }
      if (sw.getNextPid() != 0) {
        Integer other = cpuOf.put(sw.getNextPid(), s.cpu());
        assertThat(other).as("pid %d already running", sw.getNextPid()).isNull();
      } else {
        assertThat(sw.getNextComm()).isEqualTo("swapper/" + s.cpu());
      }
      running.put(s.cpu(), sw.getNextPid());
    }
  }

  @Test
  void prevState_sleepingExactlyWhenWokenBeforeRunningAgain_andWakeupsQueueWhereTheTaskRuns() {
    // Per pid: what its last switch-out said (S or R), and where its last wakeup queued it.
    Map<Integer, Long> outState = new HashMap<>();
    Map<Integer, Integer> queuedOn = new HashMap<>();
    Map<Integer, Integer> current = new HashMap<>();
    int wakings = 0;
    int checkedTargets = 0;
    for (Sched s : sched(trace)) {
      FtraceEvent e = s.event();
      if (e.hasSchedWaking()) {
        int pid = e.getSchedWaking().getPid();
        wakings++;
        // A task still current on a CPU balancing after it slept is woken back onto that CPU.
        if (!current.containsValue(pid)) {
          assertThat(outState.remove(pid)).as("woken pid %d had slept", pid).isEqualTo(1L);
        }
      } else if (e.hasSchedWakeup()) {
        queuedOn.put(e.getSchedWakeup().getPid(), e.getSchedWakeup().getTargetCpu());
      } else if (e.hasSchedWakeupNew()) {
        queuedOn.put(e.getSchedWakeupNew().getPid(), e.getSchedWakeupNew().getTargetCpu());
      } else if (e.hasSchedMigrateTask()) {
        queuedOn.put(e.getSchedMigrateTask().getPid(), e.getSchedMigrateTask().getDestCpu());
      } else if (e.hasSchedSwitch()) {
        SchedSwitchFtraceEvent sw = e.getSchedSwitch();
        current.put(s.cpu(), sw.getNextPid());
        if (sw.getPrevPid() != 0) {
          // R+ (TASK_REPORT_MAX), S, X.
          assertThat(sw.getPrevState()).isIn(0x100L, 1L, 0x10L);
          outState.put(sw.getPrevPid(), sw.getPrevState());
          queuedOn.put(sw.getPrevPid(), s.cpu());
        }
        int next = sw.getNextPid();
        if (next != 0) {
          Long state = outState.remove(next);
          if (state != null) {
            assertThat(state).as("pid %d ran again without a wakeup", next).isNotEqualTo(1L);
          }
          Integer queued = queuedOn.get(next);
          assertThat(queued).as("CPU pid %d was queued on", next).isEqualTo(s.cpu());
          checkedTargets++;
        }
      }
    }
    assertThat(wakings).isGreaterThan(500);
    assertThat(checkedTargets).isGreaterThan(1000);
  }

  @Test
  void systemInfo_first_declaringALinuxRelease() {
    TracePacket first = trace.getPacket(0);
    assertThat(first.hasSystemInfo()).isTrue();
    assertThat(first.getSystemInfo().getUtsname().getSysname()).isEqualTo("Linux");
    assertThat(first.getSystemInfo().getUtsname().getRelease()).matches("\\d+\\.\\d+\\..*");
    // The track-event sequence starts clean, on its first packet only.
    List<TracePacket> flagged =
        trace.getPacketList().stream().filter(TracePacket::hasSequenceFlags).toList();
    assertThat(flagged).hasSize(1);
    assertThat(flagged.get(0).getSequenceFlags())
        .isEqualTo(TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED_VALUE);
    assertThat(flagged.get(0).getTrackDescriptor().getUuid())
        .isEqualTo(PerfettoTraceWriter.ROOT_UUID);
    TracePacket firstOnSequence =
        trace.getPacketList().stream()
            .filter(TracePacket::hasTrustedPacketSequenceId)
            .findFirst()
            .orElseThrow();
    assertThat(firstOnSequence).isSameAs(flagged.get(0));
  }

  @Test
  void processTree_namesEveryPid() {
    Set<Integer> named = new HashSet<>();
    for (TracePacket p : trace.getPacketList()) {
      if (p.hasProcessTree()) {
        assertThat(p.getProcessTree().getProcesses(0).getPid()).isEqualTo(PerfettoTraceWriter.PID);
        assertThat(p.getProcessTree().getProcesses(0).getCmdline(0)).isEqualTo("wl.hackbench");
        p.getProcessTree()
            .getThreadsList()
            .forEach(
                t -> {
                  assertThat(t.getTgid()).isEqualTo(PerfettoTraceWriter.PID);
                  assertThat(t.getName()).isNotEmpty();
                  named.add(t.getTid());
                });
      }
    }
    for (Sched s : sched(trace)) {
      if (s.event().hasSchedSwitch() && s.event().getSchedSwitch().getNextPid() != 0) {
        assertThat(named).contains(s.event().getSchedSwitch().getNextPid());
      }
    }
  }

  @Test
  void balancingSlices_nestOnTheirCpusTracks_withTheirAttempts() {
    Set<Long> tracks = new HashSet<>();
    for (TracePacket p : trace.getPacketList()) {
      if (p.hasTrackDescriptor()) {
        TrackDescriptor d = p.getTrackDescriptor();
        assertThat(tracks.add(d.getUuid())).as("uuid %d twice", d.getUuid()).isTrue();
        if (d.getUuid() != PerfettoTraceWriter.ROOT_UUID) {
          assertThat(d.getParentUuid()).isEqualTo(PerfettoTraceWriter.ROOT_UUID);
        }
      }
    }
    Map<Long, Long> openSince = new HashMap<>();
    Set<String> names = new HashSet<>();
    int annotated = 0;
    int slices = 0;
    for (TracePacket p : trackEvents(trace)) {
      TrackEvent e = p.getTrackEvent();
      assertThat(tracks).contains(e.getTrackUuid());
      switch (e.getType()) {
        case TYPE_SLICE_BEGIN -> {
          assertThat(openSince.put(e.getTrackUuid(), p.getTimestamp()))
              .as("a slice already open on track %d at %d", e.getTrackUuid(), p.getTimestamp())
              .isNull();
          slices++;
          names.add(e.getName());
          if (annotation(e, "attempts") != null) {
            annotated++;
            assertThat(annotation(e, "attempts").getIntValue()).isPositive();
            assertThat(e.getName()).isNotEqualTo("SCHED_SOFTIRQ");
          }
        }
        case TYPE_SLICE_END -> {
          Long since = openSince.remove(e.getTrackUuid());
          assertThat(since).as("an end without a begin").isNotNull();
          assertThat(p.getTimestamp()).isGreaterThan(since);
        }
        default -> {}
      }
    }
    assertThat(slices).isPositive();
    assertThat(annotated).isPositive();
    assertThat(names).contains("sched_balance_newidle", "ILB pass (_nohz_idle_balance)");
    // The recording closes every slice at the end of the run.
    assertThat(openSince).isEmpty();
  }

  @Test
  void nrRunning_positiveWhenACpuRunsATask_zeroWhenItGoesIdle_butForEarlyLeaves() {
    // Counters and switches in file order, which is the order they happened.
    Map<Integer, Long> nr = new HashMap<>();
    int idleSwitches = 0;
    int idleWithTasks = 0;
    int counters = 0;
    for (TracePacket p : trace.getPacketList()) {
      if (p.hasTrackEvent() && p.getTrackEvent().getType() == TrackEvent.Type.TYPE_COUNTER) {
        long track = p.getTrackEvent().getTrackUuid();
        if (track >= PerfettoTraceWriter.NR_RUNNING_UUID_BASE) {
          counters++;
          long value = p.getTrackEvent().getCounterValue();
          assertThat(value).isBetween(0L, 1000L);
          nr.put((int) (track - PerfettoTraceWriter.NR_RUNNING_UUID_BASE), value);
        }
      }
      if (!p.hasFtraceEvents()) {
        continue;
      }
      int cpu = p.getFtraceEvents().getCpu();
      for (FtraceEvent e : p.getFtraceEvents().getEventList()) {
        if (!e.hasSchedSwitch()) {
          continue;
        }
        long running = nr.getOrDefault(cpu, 0L);
        if (e.getSchedSwitch().getNextPid() == 0) {
          idleSwitches++;
          if (running > 0) {
            idleWithTasks++;
          }
        } else {
          assertThat(running).as("CPU %d running at %d", cpu, e.getTimestamp()).isPositive();
        }
      }
    }
    assertThat(idleSwitches).isPositive();
    assertThat(counters).isPositive();
    // Only a CPU that leaves its task early for a balancing phase may have tasks queued then.
    assertThat(idleWithTasks).isLessThanOrEqualTo((int) recording.earlyLeaves());
  }

  @Test
  void fullLog_notedWhereTheTraceStops() throws IOException {
    Recording small = record(2000);
    assertThat(small.truncatedAtNs()).isPositive();
    Trace cut = write(small);
    List<TracePacket> notes =
        trackEvents(cut).stream()
            .filter(p -> p.getTrackEvent().getName().startsWith("event log full"))
            .toList();
    assertThat(notes).hasSize(1);
    assertThat(notes.get(0).getTimestamp()).isEqualTo(small.truncatedAtNs());
    assertThat(annotation(notes.get(0).getTrackEvent(), "note").getStringValue())
        .contains("2000 events", "later events are missing");
    assertThat(sched(cut))
        .allSatisfy(s -> assertThat(s.event().getTimestamp()).isLessThan(small.truncatedAtNs()));
  }

  @Test
  void exitedTasks_switchOutDead_andNeverRunAgain_prioFollowsNice() throws IOException {
    Scenario build =
        scenario(
            "--machine",
            "hw.shape",
            "-M",
            "shape=1n1l4c2t",
            "--workload",
            "wl.build",
            "-W",
            "j=8",
            "-W",
            "jobs=40",
            "-W",
            "nice=5",
            "--duration",
            "100ms");
    Recording r =
        new Recording(
            build.hardware().topology(),
            build.durationNs(),
            Recording.Detail.SCHED,
            Recording.DEFAULT_MAX_EVENTS);
    SimulationResult result = r.run(build.config(REGISTRY, variant, build.seed()));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PerfettoTraceWriter.write(
        bytes, build, new RunOutcome(new RunSpec(variant, build.seed()), result, r));
    Set<Integer> dead = new HashSet<>();
    int nice5 = 0;
    for (Sched s : sched(Trace.parseFrom(bytes.toByteArray()))) {
      if (s.event().hasSchedSwitch()) {
        SchedSwitchFtraceEvent sw = s.event().getSchedSwitch();
        // make and its jobs at nice 5 have prio 125; the machine's kworkers and the idle task 120.
        assertThat(sw.getNextPrio()).isIn(120, 125);
        if (sw.getNextPrio() == 125) {
          nice5++;
        }
        assertThat(dead).doesNotContain(sw.getNextPid());
        if (sw.getPrevState() == PerfettoTraceWriter.STATE_DEAD) {
          dead.add(sw.getPrevPid());
        }
      }
      if (s.event().hasSchedWaking()) {
        assertThat(dead).doesNotContain(s.event().getSchedWaking().getPid());
      }
    }
    assertThat(dead).hasSizeGreaterThan(10);
    assertThat(nice5).isGreaterThan(10);
  }

  private static DebugAnnotation annotation(TrackEvent e, String name) {
    for (DebugAnnotation a : e.getDebugAnnotationsList()) {
      if (a.getName().equals(name)) {
        return a;
      }
    }
    return null;
  }
}
