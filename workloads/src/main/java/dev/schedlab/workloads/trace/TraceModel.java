package dev.schedlab.workloads.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A recorded workload as task programs: what {@code wl.trace} replays and {@code schedlab trace
 * import} writes. Checked on construction: every block is released by exactly one wake of another
 * task, every forked task is forked exactly once by one traced task, and initial tasks are not
 * forked.
 *
 * @param source the file it came from
 * @param format how it was read ({@code perf script}, {@code ftrace text}, {@code trace-cmd
 *     report})
 * @param recordedOn the recording machine as the import knew it
 * @param cpus CPUs of the recording (declared in its header, else the highest CPU seen + 1)
 * @param durationNs first to last event
 * @param tasks the traced tasks
 * @param counts what the import found
 * @param notes what the import assumed or could not do, one sentence each
 * @param migrations {@code sched_migrate_task} counts as triples (from CPU, to CPU, count)
 */
public record TraceModel(
    String source,
    String format,
    String recordedOn,
    int cpus,
    long durationNs,
    List<TraceTask> tasks,
    Counts counts,
    List<String> notes,
    long[] migrations) {

  /**
   * What the import found.
   *
   * @param events scheduler events read
   * @param switches {@code sched_switch} events (context switches, to and from idle included)
   * @param bursts CPU bursts (switch-in to switch-out)
   * @param edges wakeups by a traced task: the woken task waits for its waker's recorded point
   * @param timedWakeups wakeups from interrupts, timers or untraced context: timed sleeps
   * @param sleepsWithoutWakeup sleeps that ended with no wakeup event seen (replayed as timed)
   * @param forks traced forks
   * @param exits tasks that exited
   * @param execs {@code execve()}s (counted; the replay has no exec balancing)
   * @param preemptions switches out of a runnable task (left to the replay's scheduler)
   * @param pidReuses pids that named a second task
   * @param inconsistencies events that contradicted what the import followed (lost events)
   * @param gaps {@code [LOST]} and {@code buffer started} marks
   */
  public record Counts(
      long events,
      long switches,
      long bursts,
      long edges,
      long timedWakeups,
      long sleepsWithoutWakeup,
      long forks,
      long exits,
      long execs,
      long preemptions,
      long pidReuses,
      long inconsistencies,
      long gaps) {}

  public TraceModel {
    tasks = List.copyOf(tasks);
    notes = List.copyOf(notes);
    migrations = migrations.clone();
    check(tasks);
  }

  @Override
  public long[] migrations() {
    return migrations.clone();
  }

  /** Blocks (sleeps that wait for a traced waker). */
  public int blocks() {
    int blocks = 0;
    for (TraceTask task : tasks) {
      for (int i = 0; i < task.length(); i++) {
        blocks += TraceOps.kind(task.op(i)) == TraceOps.BLOCK ? 1 : 0;
      }
    }
    return blocks;
  }

  /** Work units of every run step, summed. */
  public double totalWork() {
    double work = 0;
    for (TraceTask task : tasks) {
      for (int i = 0; i < task.length(); i++) {
        if (TraceOps.kind(task.op(i)) == TraceOps.RUN) {
          work += TraceOps.argument(task.op(i));
        }
      }
    }
    return work;
  }

  /** One line for reports: where it came from and what it holds. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "replay of %s (%s, recorded on %s, %d CPUs, %.3f s): %d tasks, %d bursts, %d wake"
            + " edges, %d timed wakeups, %d forks, %d exits",
        source,
        format,
        recordedOn,
        cpus,
        durationNs / 1e9,
        tasks.size(),
        counts.bursts(),
        counts.edges(),
        counts.timedWakeups() + counts.sleepsWithoutWakeup(),
        counts.forks(),
        counts.exits());
  }

  private static void check(List<TraceTask> tasks) {
    List<Integer> blockOwner = new ArrayList<>();
    List<Integer> wakeCount = new ArrayList<>();
    int[] forkedBy = new int[tasks.size()];
    java.util.Arrays.fill(forkedBy, -1);
    for (int t = 0; t < tasks.size(); t++) {
      TraceTask task = tasks.get(t);
      for (int i = 0; i < task.length(); i++) {
        long op = task.op(i);
        int kind = TraceOps.kind(op);
        long argument = TraceOps.argument(op);
        if (kind == TraceOps.BLOCK || kind == TraceOps.WAKE) {
          if (argument > 50_000_000) {
            throw new IllegalArgumentException(
                "task " + task.name() + ": block " + argument + " out of range");
          }
          int id = (int) argument;
          while (blockOwner.size() <= id) {
            blockOwner.add(-1);
            wakeCount.add(0);
          }
          if (kind == TraceOps.BLOCK) {
            if (blockOwner.get(id) >= 0) {
              throw new IllegalArgumentException(
                  "block "
                      + id
                      + " appears in tasks "
                      + tasks.get(blockOwner.get(id)).name()
                      + " and "
                      + task.name());
            }
            blockOwner.set(id, t);
          } else {
            wakeCount.set(id, wakeCount.get(id) + 1);
          }
        } else if (kind == TraceOps.SPAWN) {
          if (argument >= tasks.size()
              || tasks.get((int) argument).initial()
              || forkedBy[(int) argument] >= 0
              || argument == t) {
            throw new IllegalArgumentException(
                "task "
                    + task.name()
                    + " forks task number "
                    + argument
                    + ", which is not a forked task of the trace or is forked twice");
          }
          forkedBy[(int) argument] = t;
        } else if (kind == TraceOps.PENDING) {
          throw new IllegalArgumentException("task " + task.name() + " has an unresolved step");
        }
      }
    }
    for (int id = 0; id < blockOwner.size(); id++) {
      if (blockOwner.get(id) < 0 || wakeCount.get(id) != 1) {
        throw new IllegalArgumentException(
            "block "
                + id
                + " has "
                + wakeCount.get(id)
                + " wakes and "
                + (blockOwner.get(id) < 0 ? "no" : "one")
                + " blocked task;"
                + " expected one of each");
      }
    }
    for (int t = 0; t < tasks.size(); t++) {
      if (!tasks.get(t).initial() && forkedBy[t] < 0) {
        throw new IllegalArgumentException(
            "task " + tasks.get(t).name() + " is neither initial nor forked by a traced task");
      }
    }
  }
}
