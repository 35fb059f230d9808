package dev.schedlab.cli.report;

import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a replay did per task, as a trace of it would show: CPU time, switches in (a CPU going to
 * this task from idle or from another task; balancing phases in between do not count), the context
 * switches of every CPU ({@code sched_switch} events: task to task, task to idle, idle to task) and
 * migrations ({@code set_task_cpu()} to another CPU, as {@code sched_migrate_task} logs them) by
 * the lowest sched-domain level spanning both CPUs. Not thread-safe: one run.
 */
public final class ReplayRecording implements SimulationListener {

  private final int nrCpuIds;
  private final List<String> names = new ArrayList<>();
  private long[] cpuNs = new long[64];
  private long[] switchIns = new long[64];
  private long[] migrations = new long[64];
  private final int[] running;
  private final int[] lastTask;
  private final long[] since;

  /** Migration counts by (from CPU << 32 | to CPU): a matrix would be N² on 8192 CPUs. */
  private final Map<Long, long[]> moves = new HashMap<>();

  private long contextSwitches;

  public ReplayRecording(int nrCpuIds) {
    this.nrCpuIds = nrCpuIds;
    this.running = new int[nrCpuIds];
    this.lastTask = new int[nrCpuIds];
    this.since = new long[nrCpuIds];
    Arrays.fill(running, -1);
    Arrays.fill(lastTask, -1);
  }

  @Override
  public void taskCreated(long nowNs, int taskId, String name) {
    while (names.size() <= taskId) {
      names.add(null);
    }
    names.set(taskId, name);
    if (taskId >= cpuNs.length) {
      int n = Math.max(taskId + 1, cpuNs.length * 2);
      cpuNs = Arrays.copyOf(cpuNs, n);
      switchIns = Arrays.copyOf(switchIns, n);
      migrations = Arrays.copyOf(migrations, n);
    }
  }

  @Override
  public void cpuActivity(long nowNs, int cpu, CpuActivity activity, int taskId) {
    close(cpu, nowNs);
    switch (activity) {
      case TASK -> {
        if (lastTask[cpu] != taskId) {
          switchIns[taskId]++;
          contextSwitches++;
          lastTask[cpu] = taskId;
        }
        running[cpu] = taskId;
        since[cpu] = nowNs;
      }
      case IDLE -> {
        if (lastTask[cpu] != -1) {
          contextSwitches++;
          lastTask[cpu] = -1;
        }
      }
      default -> {
        // Balancing on the CPU: the task it interrupts (if any) stays its current task.
      }
    }
  }

  @Override
  public void migration(long nowNs, int taskId, int fromCpu, int toCpu) {
    moves.computeIfAbsent((long) fromCpu << 32 | toCpu, k -> new long[1])[0]++;
    migrations[taskId]++;
  }

  /** Closes the open CPU time at the end of the run. */
  public void finish(long endNs) {
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      close(cpu, endNs);
    }
  }

  private void close(int cpu, long nowNs) {
    if (running[cpu] >= 0) {
      cpuNs[running[cpu]] += nowNs - since[cpu];
      running[cpu] = -1;
    }
  }

  /** Task ids by name. */
  public Map<String, Integer> tasksByName() {
    Map<String, Integer> byName = new HashMap<>();
    for (int id = 0; id < names.size(); id++) {
      if (names.get(id) != null) {
        byName.put(names.get(id), id);
      }
    }
    return byName;
  }

  public long cpuNs(int taskId) {
    return cpuNs[taskId];
  }

  public long switchIns(int taskId) {
    return switchIns[taskId];
  }

  public long migrations(int taskId) {
    return migrations[taskId];
  }

  /** {@code sched_switch} events the replay would have logged. */
  public long contextSwitches() {
    return contextSwitches;
  }

  /** Migrations as (from, to, count) triples, as the trace import keeps them. */
  public long[] moves() {
    long[] triples = new long[moves.size() * 3];
    int i = 0;
    for (long key : moves.keySet().stream().sorted().toList()) {
      triples[i++] = key >>> 32;
      triples[i++] = key & 0xffff_ffffL;
      triples[i++] = moves.get(key)[0];
    }
    return triples;
  }

  /**
   * Counts of (from, to, count) triples by the lowest sched-domain level of {@code from} that spans
   * {@code to}: the level's name, numbered from the second time a name repeats ({@code NUMA2});
   * {@code other} for CPUs the machine does not have or no level spans.
   */
  public static Map<String, Long> byLevel(long[] triples, SchedDomains domains) {
    Map<String, Long> counts = new LinkedHashMap<>();
    int cpus = domains.topology().nrCpuIds();
    for (int i = 0; i + 2 < triples.length; i += 3) {
      int from = (int) triples[i];
      int to = (int) triples[i + 1];
      String level = "other";
      if (from < cpus && to < cpus) {
        Map<String, Integer> seen = new HashMap<>();
        for (SchedDomain sd : domains.domains(from)) {
          int n = seen.merge(sd.name(), 1, Integer::sum);
          if (sd.span().test(to)) {
            level = n == 1 ? sd.name() : sd.name() + n;
            break;
          }
        }
      }
      counts.merge(level, triples[i + 2], Long::sum);
    }
    return counts;
  }
}
