package dev.schedlab.workloads.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Follows a trace's events and writes each task's program (see {@link TraceOps}). Per CPU it
 * follows which task runs since when (the line's task column says so even before the CPU's first
 * switch) and accounts the running task's work at the speed {@link RecordingMachine} gives that
 * CPU, recomputed whenever an SMT sibling becomes busy or idle. Per task it follows the kernel's
 * states: a switch out with {@code prev_state} R is a preemption (the work continues, the replay's
 * scheduler decides), S/D and the other sleeping states end a run and open a sleep, X/Z end the
 * task.
 *
 * <p>How a sleep ends is read from the wakeup that ends it: a {@code sched_waking} (or, in traces
 * without it, {@code sched_wakeup}) logged while a traced task ran on that CPU, outside interrupt
 * context, is a wake edge: the waker's program wakes the sleeper at that point of its work, so the
 * sleeper waits for its waker, as {@code try_to_wake_up()} made it. A wakeup from the idle task,
 * from interrupt context or of a task whose sleep ended with no wakeup event is a timed sleep of
 * the recorded length. A fork ({@code sched_process_fork}) is a step of the parent's program at
 * that point of its work.
 *
 * <p>Tasks seen running at a CPU's first event existed at the trace's start and start running at
 * once; tasks seen first being woken, or first switched in later, slept until then (a timed sleep
 * from the start: the trace cannot tell a late fork from a long sleep or wait). Events that
 * contradict what was followed (lost events, PID reuse without an exit) are counted and the state
 * re-read from them.
 */
final class TraceModelBuilder implements SchedEventSink, RecordingMachine.BusyState {

  private static final int IDLE = -1;
  private static final int UNKNOWN = -2;

  private static final int FRESH = 0;
  private static final int NEW = 1;
  private static final int RUNNABLE = 2;
  private static final int RUNNING = 3;
  private static final int BLOCKED = 4;
  private static final int DEAD = 5;

  /** Per-CPU kernel threads, bound to the CPU their name carries. */
  private static final Pattern PER_CPU_THREAD =
      Pattern.compile(
          "(?:ksoftirqd|migration|cpuhp|idle_inject|watchdog|rcuc|kworker)/(\\d+)(?::\\d+H?)?");

  /** A task as the import follows it. */
  private static final class Draft {
    final int index;
    final int pid;
    final boolean initial;
    String comm;
    int prio = 120;
    int state = FRESH;
    int cpu = -1;
    long runSince;
    double work;
    long[] ops = new long[8];
    int size;
    int pendingOp = -1;
    long blockedAt;
    boolean exiting;
    long cpuNs;
    long switchIns;
    long blocked;
    long preempted;
    long wakeups;
    long migrations;

    Draft(int index, int pid, String comm, boolean initial) {
      this.index = index;
      this.pid = pid;
      this.comm = comm;
      this.initial = initial;
    }

    int add(int kind, long argument) {
      if (size == ops.length) {
        ops = Arrays.copyOf(ops, size * 2);
      }
      ops[size] = TraceOps.op(kind, argument);
      return size++;
    }
  }

  private final RecordingMachine machine;
  private final TraceFacts facts;
  private final boolean constantSpeed;
  private final List<Draft> tasks = new ArrayList<>();
  private int[] pidToTask = new int[1 << 16];

  private int[] curr = new int[0];
  private long[] accountedUntil = new long[0];
  private double[] speed = new double[0];
  private boolean[] busy = new boolean[0];
  private long[] busySince = new long[0];
  private long[] idleSince = new long[0];
  private boolean[] started = new boolean[0];
  private boolean[] gapPending = new boolean[0];

  private final Map<Long, long[]> migrationCounts = new HashMap<>();
  private long startNs = Long.MIN_VALUE;
  private long nowNs;
  private int blockIds;

  private long events;
  private long switches;
  private long bursts;
  private long edges;
  private long timedWakeups;
  private long sleepsWithoutWakeup;
  private long forks;
  private long exits;
  private long execs;
  private long preemptions;
  private long pidReuses;
  private long inconsistencies;
  private long gaps;

  TraceModelBuilder(RecordingMachine machine, TraceFacts facts) {
    this.machine = machine;
    this.facts = facts;
    this.constantSpeed = machine.neighbours(0).length == 0 && machine.cpuCount() == 0;
    Arrays.fill(pidToTask, -1);
  }

  // ---------------------------------------------------------------------------------------
  // BusyState for the recording machine's speed

  @Override
  public long nowNs() {
    return nowNs;
  }

  @Override
  public boolean isBusy(int cpu) {
    return cpu < busy.length && busy[cpu];
  }

  @Override
  public long busySinceNs(int cpu) {
    return cpu < busy.length ? busySince[cpu] : 0;
  }

  @Override
  public long idleSinceNs(int cpu) {
    return cpu < busy.length ? idleSince[cpu] : Long.MIN_VALUE;
  }

  // ---------------------------------------------------------------------------------------
  // Events

  @Override
  public void schedSwitch(
      int line,
      long timeNs,
      int cpu,
      int prevPid,
      String prevComm,
      int prevPrio,
      LeaveState prevState,
      int nextPid,
      String nextComm,
      int nextPrio) {
    begin(line, timeNs, cpu, prevPid);
    switches++;
    Draft prev = prevPid == 0 ? null : taskFor(prevPid, prevComm);
    int expected = prev == null ? IDLE : prev.index;
    if (curr[cpu] != expected) {
      inconsistencies++;
      advanceAround(cpu, timeNs);
      stopQuietly(cpu);
      if (prev != null) {
        claim(prev, cpu, timeNs, timeNs);
      }
    }
    advanceAround(cpu, timeNs);
    if (prev != null) {
      named(prev, prevComm, prevPrio);
      prev.cpuNs += timeNs - prev.runSince;
      bursts++;
      prev.cpu = -1;
      switch (prevState) {
        case PREEMPTED -> {
          prev.state = RUNNABLE;
          prev.preempted++;
          preemptions++;
        }
        case BLOCKED -> {
          flushWork(prev);
          prev.pendingOp = prev.add(TraceOps.PENDING, 0);
          prev.blockedAt = timeNs;
          prev.state = BLOCKED;
          prev.blocked++;
        }
        default -> {
          flushWork(prev);
          prev.add(TraceOps.EXIT, 0);
          prev.state = DEAD;
          prev.blocked++;
          exits++;
          pidToTask[prev.pid] = -1;
        }
      }
    }
    curr[cpu] = IDLE;
    if (nextPid != 0) {
      Draft next = taskFor(nextPid, nextComm);
      named(next, nextComm, nextPrio);
      claim(next, cpu, timeNs, timeNs);
      next.switchIns++;
    }
    busyChanged(cpu, timeNs, nextPid != 0);
  }

  @Override
  public void wakeup(
      int line,
      long timeNs,
      int cpu,
      int currentPid,
      boolean inInterrupt,
      int pid,
      String comm,
      int prio,
      boolean waking) {
    begin(line, timeNs, cpu, currentPid);
    if (pid == 0) {
      return;
    }
    Draft woken = taskFor(pid, comm);
    named(woken, comm, prio);
    if (woken.state == FRESH) {
      // First seen being woken: it slept since the trace began.
      sleepSinceStart(woken);
    }
    if (woken.state != BLOCKED) {
      return;
    }
    int waker =
        currentPid == 0 || inInterrupt || currentPid >= pidToTask.length
            ? -1
            : pidToTask[currentPid];
    Draft from = waker >= 0 ? tasks.get(waker) : null;
    if (from != null && from != woken && from.state == RUNNING && from.cpu == cpu) {
      advanceAround(cpu, timeNs);
      flushWork(from);
      int block = blockIds++;
      from.add(TraceOps.WAKE, block);
      woken.ops[woken.pendingOp] = TraceOps.op(TraceOps.BLOCK, block);
      woken.pendingOp = -1;
      woken.state = RUNNABLE;
      edges++;
    } else {
      timedWakeups++;
      endSleep(woken, timeNs);
    }
    woken.wakeups++;
  }

  @Override
  public void wakeupNew(int line, long timeNs, int cpu, int pid, String comm, int prio) {
    begin(line, timeNs, cpu, -1);
    Draft task = taskFor(pid, comm);
    named(task, comm, prio);
    if (task.state == FRESH) {
      // Its fork was not traced: it appears at this point of the recording.
      sleepSinceStart(task);
      endSleep(task, timeNs);
    } else if (task.state == NEW) {
      task.state = RUNNABLE;
    }
  }

  @Override
  public void fork(
      int line,
      long timeNs,
      int cpu,
      int parentPid,
      String parentComm,
      int childPid,
      String childComm) {
    begin(line, timeNs, cpu, parentPid);
    Draft parent = taskFor(parentPid, parentComm);
    if (childPid <= 0) {
      return;
    }
    if (childPid < pidToTask.length && pidToTask[childPid] >= 0) {
      pidReuses++;
      pidToTask[childPid] = -1;
    }
    boolean traced = parent.state == RUNNING && parent.cpu == cpu;
    Draft child = newTask(childPid, childComm, !traced);
    child.prio = parent.prio;
    child.state = NEW;
    if (traced) {
      advanceAround(cpu, timeNs);
      flushWork(parent);
      parent.add(TraceOps.SPAWN, child.index);
      forks++;
    } else {
      inconsistencies++;
      if (timeNs > startNs) {
        child.add(TraceOps.SLEEP, timeNs - startNs);
      }
    }
  }

  @Override
  public void exec(int line, long timeNs, int cpu, int pid, String filename) {
    begin(line, timeNs, cpu, -1);
    Draft task =
        pid < pidToTask.length && pid > 0 && pidToTask[pid] >= 0 ? tasks.get(pidToTask[pid]) : null;
    if (task != null) {
      String base = filename.substring(filename.lastIndexOf('/') + 1);
      task.comm = base.length() > 15 ? base.substring(0, 15) : base;
    }
    execs++;
  }

  @Override
  public void exit(int line, long timeNs, int cpu, int pid, String comm) {
    begin(line, timeNs, cpu, -1);
    if (pid > 0 && pid < pidToTask.length && pidToTask[pid] >= 0) {
      tasks.get(pidToTask[pid]).exiting = true;
    }
  }

  @Override
  public void migrate(int line, long timeNs, int pid, int origCpu, int destCpu) {
    begin(timeNs);
    if (origCpu < 0 || destCpu < 0) {
      return;
    }
    migrationCounts
        .computeIfAbsent((long) origCpu << 32 | destCpu, k -> new long[] {origCpu, destCpu, 0})[
        2]++;
    if (pid > 0 && pid < pidToTask.length && pidToTask[pid] >= 0) {
      tasks.get(pidToTask[pid]).migrations++;
    }
  }

  @Override
  public void gap(int line, int cpu) {
    ensureCpu(cpu);
    gaps++;
    gapPending[cpu] = true;
  }

  // ---------------------------------------------------------------------------------------
  // The end

  /**
   * Closes every open run and sleep at the last event and returns the model.
   *
   * @param endNs the last event's time
   */
  TraceModel finish(
      String source, String format, String recordedOn, int cpus, long endNs, List<String> notes) {
    nowNs = endNs;
    for (int cpu = 0; cpu < curr.length; cpu++) {
      if (curr[cpu] >= 0) {
        advance(cpu, endNs);
        Draft task = tasks.get(curr[cpu]);
        task.cpuNs += endNs - task.runSince;
      }
    }
    List<TraceTask> out = new ArrayList<>(tasks.size());
    Map<String, Integer> names = new HashMap<>();
    int realTime = 0;
    for (Draft task : tasks) {
      switch (task.state) {
        case BLOCKED ->
            task.ops[task.pendingOp] = TraceOps.op(task.exiting ? TraceOps.EXIT : TraceOps.PARK, 0);
        case DEAD -> {
          // Its program ends with its exit.
        }
        default -> {
          flushWork(task);
          if (task.exiting) {
            task.add(TraceOps.EXIT, 0);
            exits++;
          }
        }
      }
      String base = task.comm + "-" + task.pid;
      int seen = names.merge(base, 1, Integer::sum);
      String name = seen == 1 ? base : base + "." + seen;
      Matcher m = PER_CPU_THREAD.matcher(task.comm);
      int pinned = m.matches() ? Integer.parseInt(m.group(1)) : -1;
      realTime += task.prio < 100 ? 1 : 0;
      out.add(
          new TraceTask(
              name,
              task.pid,
              task.comm,
              task.prio,
              pinned,
              task.initial,
              compact(task),
              new TraceTask.Recorded(
                  task.cpuNs,
                  task.switchIns,
                  task.blocked,
                  task.preempted,
                  task.wakeups,
                  task.migrations)));
    }
    List<String> allNotes = new ArrayList<>(notes);
    if (realTime > 0) {
      allNotes.add(
          realTime
              + " real-time or deadline tasks (prio below 100) are replayed as"
              + " SCHED_NORMAL nice -20: the engine models the fair class only");
    }
    if (inconsistencies > 0) {
      allNotes.add(
          inconsistencies
              + " events contradicted the state followed so far (lost"
              + " events or an untraced start); the state was re-read from them");
    }
    long[] migrations = new long[migrationCounts.size() * 3];
    int k = 0;
    for (long[] triple :
        migrationCounts.values().stream()
            .sorted((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]))
            .toList()) {
      migrations[k++] = triple[0];
      migrations[k++] = triple[1];
      migrations[k++] = triple[2];
    }
    TraceModel.Counts counts =
        new TraceModel.Counts(
            events,
            switches,
            bursts,
            edges,
            timedWakeups,
            sleepsWithoutWakeup,
            forks,
            exits,
            execs,
            preemptions,
            pidReuses,
            inconsistencies,
            gaps);
    long duration = startNs == Long.MIN_VALUE ? 0 : endNs - startNs;
    return new TraceModel(
        source, format, recordedOn, cpus, duration, out, counts, allNotes, migrations);
  }

  private static long[] compact(Draft task) {
    int n = 0;
    for (int i = 0; i < task.size; i++) {
      n += TraceOps.kind(task.ops[i]) == TraceOps.NOP ? 0 : 1;
    }
    long[] ops = new long[n];
    int k = 0;
    for (int i = 0; i < task.size; i++) {
      if (TraceOps.kind(task.ops[i]) != TraceOps.NOP) {
        ops[k++] = task.ops[i];
      }
    }
    return ops;
  }

  // ---------------------------------------------------------------------------------------
  // Following the state

  /** Every event: its time, its CPU's first sight or the end of a gap there. */
  private void begin(int line, long timeNs, int cpu, int currentPid) {
    events++;
    if (startNs == Long.MIN_VALUE) {
      startNs = timeNs;
    }
    nowNs = timeNs;
    ensureCpu(cpu);
    if (gapPending[cpu]) {
      gapPending[cpu] = false;
      if (curr[cpu] >= 0) {
        // What ran during the gap is unknown: the task stops being accounted where it was.
        stopQuietly(cpu);
      }
      curr[cpu] = UNKNOWN;
      started[cpu] = true;
    }
    if (curr[cpu] != UNKNOWN || currentPid < 0) {
      return;
    }
    // A CPU's first event tells what ran there since the trace began, unless the ring buffer
    // overwrote older events.
    long since = started[cpu] || facts.wrapped() ? timeNs : startNs;
    started[cpu] = true;
    accountedUntil[cpu] = since;
    curr[cpu] = IDLE;
    if (currentPid != 0) {
      claim(taskFor(currentPid, null), cpu, since, timeNs);
      busyChanged(cpu, since, true);
    }
  }

  /** Events without a CPU of their own ({@code sched_migrate_task}). */
  private void begin(long timeNs) {
    events++;
    if (startNs == Long.MIN_VALUE) {
      startNs = timeNs;
    }
    nowNs = timeNs;
  }

  /**
   * {@code task} runs on {@code cpu} since {@code sinceNs}: a sleep it was in ends there (no wakeup
   * event was seen), a CPU it was followed on loses it.
   */
  private void claim(Draft task, int cpu, long sinceNs, long atNs) {
    if (task.state == FRESH && sinceNs > startNs) {
      // First seen being switched in after the trace began: it slept, waited or was forked
      // untraced until then, so the replay starts it there rather than at the start.
      sleepSinceStart(task);
    }
    if (task.state == BLOCKED) {
      sleepsWithoutWakeup++;
      endSleep(task, sinceNs);
    } else if (task.state == RUNNING && task.cpu != cpu) {
      inconsistencies++;
      int other = task.cpu;
      advanceAround(other, atNs);
      stopQuietly(other);
      curr[other] = UNKNOWN;
    }
    run(task, cpu, sinceNs);
  }

  private void ensureCpu(int cpu) {
    if (cpu < curr.length && (machine.cpuCount() == 0 || cpu < machine.cpuCount())) {
      return;
    }
    if (machine.cpuCount() > 0 && cpu >= machine.cpuCount()) {
      throw new IllegalArgumentException(
          "the trace has CPU "
              + cpu
              + " but the recording"
              + " machine "
              + machine.name()
              + " has "
              + machine.cpuCount()
              + " CPUs (0-"
              + (machine.cpuCount() - 1)
              + ")");
    }
    int old = curr.length;
    int n = Math.max(cpu + 1, Math.max(8, old * 2));
    curr = Arrays.copyOf(curr, n);
    accountedUntil = Arrays.copyOf(accountedUntil, n);
    speed = Arrays.copyOf(speed, n);
    busy = Arrays.copyOf(busy, n);
    busySince = Arrays.copyOf(busySince, n);
    idleSince = Arrays.copyOf(idleSince, n);
    started = Arrays.copyOf(started, n);
    gapPending = Arrays.copyOf(gapPending, n);
    for (int c = old; c < n; c++) {
      curr[c] = UNKNOWN;
      idleSince[c] = Long.MIN_VALUE;
    }
    for (int c = old; c < n; c++) {
      speed[c] = machine.cpuCount() > 0 && c >= machine.cpuCount() ? 1.0 : machine.speed(c, this);
    }
  }

  private Draft taskFor(int pid, String comm) {
    if (pid >= pidToTask.length) {
      int old = pidToTask.length;
      pidToTask = Arrays.copyOf(pidToTask, Math.max(pid + 1, old * 2));
      Arrays.fill(pidToTask, old, pidToTask.length, -1);
    }
    int index = pidToTask[pid];
    return index >= 0 ? tasks.get(index) : newTask(pid, comm, true);
  }

  private Draft newTask(int pid, String comm, boolean initial) {
    if (pid >= pidToTask.length) {
      taskFor(pid, comm);
    }
    Draft task =
        new Draft(tasks.size(), pid, comm == null || comm.startsWith("<") ? "pid" : comm, initial);
    tasks.add(task);
    pidToTask[pid] = task.index;
    return task;
  }

  private static void named(Draft task, String comm, int prio) {
    if (comm != null && !comm.isEmpty() && !comm.startsWith("<")) {
      task.comm = comm;
    }
    task.prio = prio;
  }

  private void sleepSinceStart(Draft task) {
    task.pendingOp = task.add(TraceOps.PENDING, 0);
    task.blockedAt = startNs;
    task.state = BLOCKED;
  }

  /** A sleep ended at {@code timeNs} without a traced waker: a timed sleep of its length. */
  private void endSleep(Draft task, long timeNs) {
    long length = timeNs - task.blockedAt;
    task.ops[task.pendingOp] =
        length > 0 ? TraceOps.op(TraceOps.SLEEP, length) : TraceOps.op(TraceOps.NOP, 0);
    task.pendingOp = -1;
    task.state = RUNNABLE;
  }

  private void run(Draft task, int cpu, long sinceNs) {
    task.state = RUNNING;
    task.cpu = cpu;
    task.runSince = sinceNs;
    curr[cpu] = task.index;
  }

  /** The CPU's task stops being followed there (no burst counted): it is runnable elsewhere. */
  private void stopQuietly(int cpu) {
    if (curr[cpu] >= 0) {
      Draft task = tasks.get(curr[cpu]);
      if (task.state == RUNNING && task.cpu == cpu) {
        task.cpuNs += Math.max(0, accountedUntil[cpu] - task.runSince);
        task.state = RUNNABLE;
        task.cpu = -1;
      }
    }
    curr[cpu] = IDLE;
  }

  private void flushWork(Draft task) {
    long units = Math.round(task.work);
    if (units > 0) {
      task.add(TraceOps.RUN, units);
      task.work -= units;
    }
  }

  /** Accounts the work of the task on {@code cpu} up to {@code timeNs}. */
  private void advance(int cpu, long timeNs) {
    if (cpu < 0 || cpu >= curr.length) {
      return;
    }
    int index = curr[cpu];
    if (index >= 0 && timeNs > accountedUntil[cpu]) {
      tasks.get(index).work += (timeNs - accountedUntil[cpu]) * speed[cpu];
    }
    if (curr[cpu] != UNKNOWN) {
      accountedUntil[cpu] = Math.max(accountedUntil[cpu], timeNs);
    }
  }

  /** {@link #advance} for {@code cpu} and the CPUs whose speed its state changes. */
  private void advanceAround(int cpu, long timeNs) {
    advance(cpu, timeNs);
    if (!constantSpeed) {
      for (int other : machine.neighbours(cpu)) {
        advance(other, timeNs);
      }
    }
  }

  private void busyChanged(int cpu, long timeNs, boolean nowBusy) {
    if (busy[cpu] == nowBusy) {
      return;
    }
    busy[cpu] = nowBusy;
    if (nowBusy) {
      busySince[cpu] = timeNs;
    } else {
      idleSince[cpu] = timeNs;
    }
    if (!constantSpeed) {
      for (int other : machine.neighbours(cpu)) {
        if (other < curr.length) {
          advance(other, timeNs);
          speed[other] = machine.speed(other, this);
        }
      }
      speed[cpu] = machine.speed(cpu, this);
    }
  }
}
