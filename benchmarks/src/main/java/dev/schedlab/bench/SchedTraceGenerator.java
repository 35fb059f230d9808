package dev.schedlab.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Writes a synthetic tracefs {@code trace} file of the eight scheduler events' kind that {@code
 * wl.trace} imports, for measuring the import and the replay at scale (a 10-second, 1,000-task
 * trace): every task exists at the start, each CPU runs its queue's tasks in bursts of 20-400 µs, a
 * burst ends blocked ({@code prev_state=S}, 70 %) or preempted ({@code R}), and the running task
 * wakes a sleeper at the end of most bursts ({@code sched_waking}, {@code sched_migrate_task} when
 * the sleeper moves, {@code sched_wakeup}): a wake edge. An idle CPU's timer wakes a sleeper from
 * the idle task every 50-1,000 µs (a timed sleep). Events are in time order; times are whole
 * microseconds. Deterministic for a seed.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.schedlab.bench.SchedTraceGenerator OUT [TASKS]
 * [CPUS] [SECONDS] [SEED]} (defaults 1000 8 10 1).
 */
public final class SchedTraceGenerator {

  private final int tasks;
  private final int cpus;
  private final long endUs;
  private final SplittableRandom random;

  private final int[] curr;
  private final long[] nextUs;
  private final int[] lastCpu;
  private final ArrayDeque<Integer>[] queues;
  private final int[] sleepers;
  private int sleeperCount;
  private long events;

  /**
   * A generator.
   *
   * @param tasks tasks in the trace
   * @param cpus CPUs of the recording
   * @param seconds the trace's length
   * @param seed the random seed
   */
  @SuppressWarnings("unchecked")
  public SchedTraceGenerator(int tasks, int cpus, double seconds, long seed) {
    this.tasks = tasks;
    this.cpus = cpus;
    this.endUs = Math.round(seconds * 1e6);
    this.random = new SplittableRandom(seed);
    this.curr = new int[cpus];
    this.nextUs = new long[cpus];
    this.lastCpu = new int[tasks];
    this.queues = new ArrayDeque[cpus];
    this.sleepers = new int[tasks];
    for (int cpu = 0; cpu < cpus; cpu++) {
      queues[cpu] = new ArrayDeque<>();
      curr[cpu] = -1;
    }
    // Half the tasks start runnable, spread over the CPUs; the rest sleep.
    for (int t = 0; t < tasks; t++) {
      lastCpu[t] = t % cpus;
      if (t % 2 == 0) {
        queues[t % cpus].add(t);
      } else {
        sleepers[sleeperCount++] = t;
      }
    }
  }

  /** Writes the trace; returns the number of events written. */
  public long write(OutputStream out) throws IOException {
    Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.US_ASCII), 1 << 16);
    w.write("# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:" + cpus + "\n#\n");
    PriorityQueue<long[]> due =
        new PriorityQueue<>(
            (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    long startUs = 1_000_000;
    for (int cpu = 0; cpu < cpus; cpu++) {
      nextUs[cpu] = startUs;
      due.add(new long[] {startUs, cpu});
    }
    while (!due.isEmpty()) {
      long[] head = due.poll();
      int cpu = (int) head[1];
      long now = head[0];
      if (now != nextUs[cpu]) {
        continue;
      }
      if (now > startUs + endUs) {
        break;
      }
      int running = curr[cpu];
      if (running >= 0) {
        if (sleeperCount > 0 && random.nextInt(10) < 8) {
          wake(w, now, cpu, running, due);
        }
        boolean preempted = random.nextInt(10) < 3;
        int next = queues[cpu].isEmpty() ? -1 : queues[cpu].poll();
        if (preempted && next < 0) {
          next = running;
        } else if (preempted) {
          queues[cpu].add(running);
        } else {
          sleepers[sleeperCount++] = running;
        }
        if (next != running) {
          switchLine(w, now, cpu, running, preempted ? "R" : "S", next);
        }
        run(cpu, next, now);
      } else if (!queues[cpu].isEmpty()) {
        int next = queues[cpu].poll();
        switchLine(w, now, cpu, -1, "R", next);
        run(cpu, next, now);
      } else {
        // The idle CPU's timer: a timed wakeup from the idle task, the woken task runs here.
        if (sleeperCount > 0) {
          int woken = takeSleeper();
          wakeLines(w, now, cpu, -1, woken, cpu);
          switchLine(w, now, cpu, -1, "R", woken);
          run(cpu, woken, now);
        } else {
          nextUs[cpu] = now + 50 + random.nextInt(951);
        }
      }
      due.add(new long[] {nextUs[cpu], cpu});
    }
    w.flush();
    return events;
  }

  private void run(int cpu, int task, long now) {
    curr[cpu] = task;
    if (task >= 0) {
      lastCpu[task] = cpu;
      nextUs[cpu] = now + 20 + random.nextInt(381);
    } else {
      nextUs[cpu] = now + 50 + random.nextInt(951);
    }
  }

  private int takeSleeper() {
    int i = random.nextInt(sleeperCount);
    int task = sleepers[i];
    sleepers[i] = sleepers[--sleeperCount];
    return task;
  }

  /** The running task wakes a sleeper onto its last CPU or, one time in four, another. */
  private void wake(Writer w, long now, int cpu, int waker, PriorityQueue<long[]> due)
      throws IOException {
    int woken = takeSleeper();
    int target = random.nextInt(4) == 0 ? random.nextInt(cpus) : lastCpu[woken];
    wakeLines(w, now, cpu, waker, woken, target);
    queues[target].add(woken);
    if (curr[target] < 0 && target != cpu && nextUs[target] > now) {
      nextUs[target] = now;
      due.add(new long[] {now, target});
    }
  }

  private void wakeLines(Writer w, long now, int cpu, int waker, int woken, int target)
      throws IOException {
    String comm = comm(woken);
    int pid = pid(woken);
    prefix(w, now, cpu, waker, waker < 0 ? "dNh2." : "d..3.");
    w.write(
        String.format(
            Locale.ROOT,
            "sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d%n",
            comm,
            pid,
            target));
    if (target != lastCpu[woken]) {
      prefix(w, now, cpu, waker, "d..4.");
      w.write(
          String.format(
              Locale.ROOT,
              "sched_migrate_task: comm=%s pid=%d prio=120" + " orig_cpu=%d dest_cpu=%d%n",
              comm,
              pid,
              lastCpu[woken],
              target));
      events++;
    }
    prefix(w, now, cpu, waker, "d..3.");
    w.write(
        String.format(
            Locale.ROOT,
            "sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d%n",
            comm,
            pid,
            target));
    events += 2;
  }

  private void switchLine(Writer w, long now, int cpu, int prev, String state, int next)
      throws IOException {
    prefix(w, now, cpu, prev, "d..2.");
    w.write(
        String.format(
            Locale.ROOT,
            "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120"
                + " prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120%n",
            prev < 0 ? "swapper/" + cpu : comm(prev),
            prev < 0 ? 0 : pid(prev),
            state,
            next < 0 ? "swapper/" + cpu : comm(next),
            next < 0 ? 0 : pid(next)));
    events++;
  }

  private void prefix(Writer w, long now, int cpu, int task, String flags) throws IOException {
    String who = task < 0 ? "<idle>-0" : comm(task) + "-" + pid(task);
    w.write(
        String.format(
            Locale.ROOT,
            "%16s [%03d] %s %6d.%06d: ",
            who,
            cpu,
            flags,
            now / 1_000_000,
            now % 1_000_000));
  }

  private static String comm(int task) {
    return "worker" + task;
  }

  private static int pid(int task) {
    return 1000 + task;
  }

  /** Writes a trace file: {@code OUT [TASKS] [CPUS] [SECONDS] [SEED]}. */
  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: SchedTraceGenerator OUT [TASKS] [CPUS] [SECONDS] [SEED]");
      System.exit(2);
    }
    int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    int cpus = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    double seconds = args.length > 3 ? Double.parseDouble(args[3]) : 10;
    long seed = args.length > 4 ? Long.parseLong(args[4]) : 1;
    try (OutputStream out = Files.newOutputStream(Path.of(args[0]))) {
      long events = new SchedTraceGenerator(tasks, cpus, seconds, seed).write(out);
      System.out.println(
          args[0]
              + ": "
              + events
              + " events, "
              + tasks
              + " tasks, "
              + cpus
              + " CPUs, "
              + seconds
              + " s");
    }
  }
}
