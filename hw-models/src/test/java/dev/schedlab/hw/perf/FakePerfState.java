package dev.schedlab.hw.perf;

import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.view.WorkClass;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** A hand-driven {@link PerfStateView}: tests set the clock and each CPU's busy/idle edges. */
final class FakePerfState implements PerfStateView {

  long now;
  private final boolean[] busy;
  private final long[] busySince;
  private final long[] idleSince;
  private final Map<Integer, Integer> distance = new HashMap<>();
  private final Map<Integer, Long> migratedAt = new HashMap<>();
  private final Map<Integer, WorkClass> workClass = new HashMap<>();
  private final Map<Integer, Integer> memoryBound = new HashMap<>();
  private final Map<Integer, Integer> memoryHome = new HashMap<>();
  private final Map<Integer, Integer> memoryHomed = new HashMap<>();
  private final Map<Long, Integer> memoryHomedOn = new HashMap<>();

  FakePerfState(int cpus) {
    busy = new boolean[cpus];
    busySince = new long[cpus];
    idleSince = new long[cpus];
    Arrays.fill(idleSince, Long.MIN_VALUE);
  }

  FakePerfState at(long ns) {
    now = ns;
    return this;
  }

  /** {@code cpu} becomes busy now. */
  FakePerfState wake(int cpu) {
    busy[cpu] = true;
    busySince[cpu] = now;
    return this;
  }

  /** {@code cpu} becomes idle now. */
  FakePerfState sleep(int cpu) {
    busy[cpu] = false;
    idleSince[cpu] = now;
    return this;
  }

  /** Task {@code task} migrated over {@code d} now and has run ever since. */
  FakePerfState migrated(int task, int d) {
    distance.put(task, d);
    migratedAt.put(task, now);
    return this;
  }

  FakePerfState workClass(int task, WorkClass wc) {
    workClass.put(task, wc);
    return this;
  }

  FakePerfState memoryBoundRunning(int node, int n) {
    memoryBound.put(node, n);
    return this;
  }

  /** Task {@code task}'s memory is on {@code node}. */
  FakePerfState memoryHome(int task, int node) {
    memoryHome.put(task, node);
    return this;
  }

  /** {@code n} memory-bound tasks whose memory is on {@code home} run now on {@code running}. */
  FakePerfState memoryBoundHomedRunning(int home, int running, int n) {
    memoryHomedOn.put(((long) home << 32) | running, n);
    memoryHomed.merge(home, n, Integer::sum);
    return this;
  }

  @Override
  public long nowNs() {
    return now;
  }

  @Override
  public boolean isBusy(int cpu) {
    return busy[cpu];
  }

  @Override
  public long busySinceNs(int cpu) {
    return busySince[cpu];
  }

  @Override
  public long idleSinceNs(int cpu) {
    return busy[cpu] ? 0 : idleSince[cpu];
  }

  @Override
  public int lastMigrationDistance(int taskId) {
    return distance.getOrDefault(taskId, 0);
  }

  @Override
  public long runTimeSinceMigrationNs(int taskId) {
    return migratedAt.containsKey(taskId) ? now - migratedAt.get(taskId) : Long.MAX_VALUE / 2;
  }

  @Override
  public WorkClass workClass(int taskId) {
    return workClass.getOrDefault(taskId, WorkClass.COMPUTE);
  }

  @Override
  public int memoryBoundRunning(int node) {
    return memoryBound.getOrDefault(node, 0);
  }

  @Override
  public int memoryHomeNode(int taskId) {
    return memoryHome.getOrDefault(taskId, -1);
  }

  @Override
  public int memoryBoundHomedRunning(int node) {
    return memoryHomed.getOrDefault(node, 0);
  }

  @Override
  public int memoryBoundHomedRunning(int home, int running) {
    return memoryHomedOn.getOrDefault(((long) home << 32) | running, 0);
  }
}
