package dev.schedlab.workloads;

import com.google.auto.service.AutoService;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@value #ID}: hackbench (rt-tests), the message-passing workload of the SMT_BUDDY_ASSIST and NOHZ
 * threads. {@code groups} groups of {@code fds} receivers and {@code fds} senders, forked from one
 * CPU; every sender writes {@code loops} messages to each receiver of its group, round robin, and
 * every receiver reads {@code fds × loops} messages. A write costs {@code send_work}, then puts the
 * message in the receiver's buffer and wakes the receiver if it sleeps on an empty buffer; a full
 * buffer puts the writer to sleep until the receiver takes a message. A read costs {@code
 * receive_work}.
 *
 * <p>Both wakeups are synchronous ({@code WF_SYNC}), as in the kernel: a write wakes the reader
 * with {@code wake_up_interruptible_sync_poll()} from {@code sock_def_readable()} (sockets) or
 * {@code pipe_write()} (pipes), and a read that makes room wakes a writer the same way from {@code
 * unix_write_space()} or {@code pipe_read()}.
 *
 * <p>Buffer capacity in messages, an assumption: a pipe holds 16 pages of 4 KiB, small writes
 * merged, so {@code 16 × floor(4096 / datasize)}; a socket (hackbench's default) holds the default
 * send buffer of 212992 bytes charged {@code datasize + 640} bytes per message (skb overhead).
 *
 * <p>{@code start_pipe} (default true, as hackbench and {@code perf bench sched messaging} run)
 * models hackbench's start protocol: a parent task forks every receiver and sender (from the CPU it
 * runs on), each child writes one byte to the parent's ready pipe ({@code ready()}, waking the
 * parent if it sleeps on it) and blocks in {@code poll()} on the start pipe; when all are ready the
 * parent takes the start time and writes the start byte, which wakes every child, each as a sync
 * wakeup ({@code pipe_write()} wakes the pollers with {@code wake_up_interruptible_sync_poll()},
 * {@code pollwake()} passes the sync hint on), then the parent leaves the run (it only waits for
 * its children). With {@code start_pipe=false} (the model before 2026-11-30), each child starts
 * writing or reading as soon as it is forked and the clock starts with the workload. The parent's
 * reads and its one write cost no modelled CPU time.
 *
 * <p>Metric {@code time} in s (lower is better): from the start (the start byte with {@code
 * start_pipe}) until the last receiver has read its last message, as hackbench reports. If the run
 * ends first, the metric is {@code throughput} in messages/s instead and extra {@code completed} is
 * 0.
 */
@AutoService(WorkloadProvider.class)
public final class HackbenchWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.hackbench";

  private static final int PIPE_PAGES = 16;
  private static final int PAGE_SIZE = 4096;
  private static final int SOCKET_SEND_BUFFER = 212_992;
  private static final int SKB_OVERHEAD = 640;

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "hackbench-like groups of senders and receivers passing messages over sockets or"
                  + " pipes; completion time")
          .source(
              "hackbench (rt-tests) defaults -g 10 -f 20 -l 100, datasize 100; run on Hygon and"
                  + " Altra in the SMT_BUDDY_ASSIST and NOHZ threads (seeds-digest §3, §4);"
                  + " per-message work is an assumption")
          .parameter(ParameterSpec.ofInt("groups", "groups (-g)", 10, 1, 100_000))
          .parameter(
              ParameterSpec.ofInt("fds", "senders and receivers per group (-f)", 20, 1, 10_000))
          .parameter(
              ParameterSpec.ofInt(
                  "loops",
                  "messages each sender writes to each receiver (-l)",
                  100,
                  1,
                  1_000_000_000))
          .parameter(
              ParameterSpec.ofBoolean(
                  "pipe", "pipes instead of UNIX sockets (-p): a different buffer capacity", false))
          .parameter(
              ParameterSpec.ofInt(
                  "datasize",
                  "bytes per message (-s); sets the buffer capacity in messages",
                  100,
                  1,
                  65_536))
          .parameter(
              ParameterSpec.ofDuration(
                  "send_work",
                  "CPU work of one write, as time alone on a full CPU; assumption",
                  "3us",
                  1,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofDuration(
                  "receive_work",
                  "CPU work of one read, as time alone on a full CPU; assumption",
                  "3us",
                  1,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofBoolean(
                  "start_pipe",
                  "hackbench's start protocol: a parent forks all tasks, waits until each is ready,"
                      + " then wakes them together (sync) and starts the clock; false: every task"
                      + " starts when forked",
                  true))
          .parameter(WorkloadCpus.affinityParameter("senders and receivers"))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public HackbenchWorkloadProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    Parameters p = context.parameters();
    CpuMask affinity = WorkloadCpus.affinity(ID, context);
    long groups = p.getInt("groups");
    long fds = p.getInt("fds");
    if (groups * fds * 2 > 10_000_000) {
      throw new IllegalArgumentException(
          ID + ": groups × fds × 2 = " + groups * fds * 2 + " tasks; allowed at most 10000000");
    }
    return new Hackbench(
        affinity,
        (int) groups,
        (int) fds,
        p.getInt("loops"),
        capacity(p.getBoolean("pipe"), p.getInt("datasize")),
        p.getLong("send_work"),
        p.getLong("receive_work"),
        p.getBoolean("start_pipe"));
  }

  /** Buffer capacity in messages for the given mode and message size (for tests). */
  static int capacity(boolean pipe, int datasize) {
    return pipe
        ? PIPE_PAGES * Math.max(1, PAGE_SIZE / datasize)
        : Math.max(1, SOCKET_SEND_BUFFER / (datasize + SKB_OVERHEAD));
  }

  private static final class Hackbench implements Workload {
    private final CpuMask affinity;
    private final int groups;
    private final int fds;
    private final int loops;
    private final int capacity;
    private final double sendWork;
    private final double receiveWork;
    private final boolean startPipe;

    // The start protocol (start_pipe): the parent task, whether it sleeps on the ready pipe, the
    // children ready so far and, in the order they started polling, their task ids.
    private int parentTask = -1;
    private boolean parentSleeping;
    private int ready;
    private final int[] pollers;

    // Per receiver r = group × fds + index: its buffer, whether it sleeps on it, how many
    // writers sleep on it and where the search for the next one to wake starts.
    private final int[] queued;
    private final boolean[] readerSleeping;
    private final int[] receiverTask;
    private final int[] sleepingWriters;
    private final int[] nextWriterToWake;
    // Per sender s = group × fds + index: its task and the receiver it sleeps on, or -1.
    private final int[] senderTask;
    private final int[] senderWaitsFor;

    private long startNs;
    private long finishNs = -1;
    private long received;
    private int receiversDone;
    private long writerSleeps;
    private long readerSleeps;

    Hackbench(
        CpuMask affinity,
        int groups,
        int fds,
        int loops,
        int capacity,
        double sendWork,
        double receiveWork,
        boolean startPipe) {
      this.affinity = affinity;
      this.groups = groups;
      this.fds = fds;
      this.loops = loops;
      this.capacity = capacity;
      this.sendWork = sendWork;
      this.receiveWork = receiveWork;
      this.startPipe = startPipe;
      int receivers = groups * fds;
      this.pollers = new int[startPipe ? 2 * receivers : 0];
      this.queued = new int[receivers];
      this.readerSleeping = new boolean[receivers];
      this.receiverTask = new int[receivers];
      this.sleepingWriters = new int[receivers];
      this.nextWriterToWake = new int[receivers];
      this.senderTask = new int[receivers];
      this.senderWaitsFor = new int[receivers];
      Arrays.fill(senderWaitsFor, -1);
    }

    @Override
    public void start(WorkloadHost host) {
      startNs = host.nowNs();
      int parentCpu = affinity.first();
      if (startPipe) {
        host.spawn(
            new TaskSpec("hackbench/parent", SchedPolicy.NORMAL, 0, affinity, WorkClass.COMPUTE),
            new Parent(),
            parentCpu);
        return;
      }
      for (int g = 0; g < groups; g++) {
        forkGroup(g, (spec, program) -> host.spawn(spec, program, parentCpu));
      }
    }

    /** Forks one group as hackbench's {@code group()} does: its receivers, then its senders. */
    private void forkGroup(int g, Forker forker) {
      for (int i = 0; i < fds; i++) {
        int r = g * fds + i;
        receiverTask[r] =
            forker.fork(
                new TaskSpec(
                    "hackbench/recv/" + r, SchedPolicy.NORMAL, 0, affinity, WorkClass.COMPUTE),
                new Receiver(r));
      }
      for (int i = 0; i < fds; i++) {
        int s = g * fds + i;
        senderTask[s] =
            forker.fork(
                new TaskSpec(
                    "hackbench/send/" + s, SchedPolicy.NORMAL, 0, affinity, WorkClass.COMPUTE),
                new Sender(s, g));
      }
    }

    /** Forks a task, from the workload's start or from the parent task. */
    private interface Forker {
      int fork(TaskSpec spec, TaskProgram program);
    }

    /**
     * A child's {@code ready()}: one byte to the ready pipe (waking the parent if it sleeps on it),
     * then {@code poll()} on the start pipe until the parent writes.
     */
    private void ready(TaskControl control) {
      pollers[ready++] = control.taskId();
      if (parentSleeping) {
        parentSleeping = false;
        control.wake(parentTask, true);
      }
      control.block();
    }

    /**
     * hackbench's parent with the start protocol: forks every group, reads the ready pipe until
     * every child is ready, then takes the start time, writes the start byte and leaves.
     */
    private final class Parent implements TaskProgram {
      private boolean forked;

      @Override
      public void next(TaskControl control) {
        if (!forked) {
          forked = true;
          // From the task itself: the engine may run this step before spawn() has returned.
          parentTask = control.taskId();
          for (int g = 0; g < groups; g++) {
            forkGroup(g, control::spawn);
          }
        }
        if (ready < pollers.length) {
          parentSleeping = true;
          control.block();
          return;
        }
        startNs = control.nowNs();
        for (int id : pollers) {
          control.wake(id, true);
        }
        control.exit();
      }
    }

    /** Writes {@code loops} messages to each receiver of its group, round robin. */
    private final class Sender implements TaskProgram {
      private static final int STARTING = 0;
      private static final int WRITING = 1;
      private static final int WAITING_FOR_ROOM = 2;
      private static final int READY = 3;

      private final int index;
      private final int firstReceiver;
      private final long total;
      private long sent;
      private int state = startPipe ? READY : STARTING;

      Sender(int index, int group) {
        this.index = index;
        this.firstReceiver = group * fds;
        this.total = (long) loops * fds;
      }

      @Override
      public void next(TaskControl control) {
        if (state == READY) {
          state = STARTING;
          ready(control);
        } else if (state == STARTING) {
          write(control);
        } else {
          // A write finished, or the receiver made room: the message goes into the buffer.
          deliver(control);
        }
      }

      private void write(TaskControl control) {
        state = WRITING;
        control.run(sendWork);
      }

      private void deliver(TaskControl control) {
        int r = firstReceiver + (int) (sent % fds);
        if (queued[r] == capacity) {
          state = WAITING_FOR_ROOM;
          writerSleeps++;
          senderWaitsFor[index] = r;
          sleepingWriters[r]++;
          control.block();
          return;
        }
        queued[r]++;
        if (readerSleeping[r]) {
          readerSleeping[r] = false;
          control.wake(receiverTask[r], true);
        }
        if (++sent == total) {
          control.exit();
          return;
        }
        write(control);
      }
    }

    /** Reads {@code fds × loops} messages from its buffer, sleeping while it is empty. */
    private final class Receiver implements TaskProgram {
      private final int r;
      private final long expected;
      private long count;
      private boolean reading;
      private boolean waitsForStart = startPipe;

      Receiver(int r) {
        this.r = r;
        this.expected = (long) fds * loops;
      }

      @Override
      public void next(TaskControl control) {
        if (waitsForStart) {
          waitsForStart = false;
          ready(control);
          return;
        }
        if (reading) {
          reading = false;
          count++;
          received++;
          if (count == expected) {
            if (++receiversDone == receiverTask.length) {
              finishNs = control.nowNs();
            }
            control.exit();
            return;
          }
        }
        if (queued[r] == 0) {
          readerSleeps++;
          readerSleeping[r] = true;
          control.block();
          return;
        }
        queued[r]--;
        if (sleepingWriters[r] > 0) {
          wakeOneWriter(control);
        }
        reading = true;
        control.run(receiveWork);
      }

      /** Wakes the next writer sleeping on this buffer, round robin over the group's senders. */
      private void wakeOneWriter(TaskControl control) {
        int firstSender = r - r % fds;
        for (int k = 0; k < fds; k++) {
          int i = (nextWriterToWake[r] + k) % fds;
          if (senderWaitsFor[firstSender + i] == r) {
            senderWaitsFor[firstSender + i] = -1;
            sleepingWriters[r]--;
            nextWriterToWake[r] = (i + 1) % fds;
            control.wake(senderTask[firstSender + i], true);
            return;
          }
        }
        throw new IllegalStateException("no writer sleeps on buffer " + r);
      }
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      long total = (long) groups * fds * fds * loops;
      boolean completed = finishNs >= 0;
      long elapsedNs = (completed ? finishNs : simulatedNs) - startNs;
      double messagesPerSecond = elapsedNs <= 0 ? 0 : received * 1e9 / elapsedNs;
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("completed", completed ? 1.0 : 0.0);
      extra.put("start_ms", startNs / 1e6);
      extra.put("tasks", (double) groups * fds * 2);
      extra.put("messages", (double) received);
      extra.put("messages_total", (double) total);
      extra.put("messages_per_s", messagesPerSecond);
      extra.put("buffer_messages", (double) capacity);
      extra.put("writer_sleeps", (double) writerSleeps);
      extra.put("reader_sleeps", (double) readerSleeps);
      if (completed) {
        return new WorkloadResult("time", elapsedNs / 1e9, "s", false, extra);
      }
      return new WorkloadResult("throughput", messagesPerSecond, "messages/s", true, extra);
    }
  }
}
