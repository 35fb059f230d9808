package dev.schedlab.core.balance;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.function.ToLongFunction;
import java.util.random.RandomGenerator;

/**
 * A hand-driven {@link BalanceHost} for balancer tests: runqueues are explicit task lists, PELT
 * averages are sums of per-task values (or fixed per CPU), time moves only when a test says so.
 *
 * <p>Each CPU's {@code cfs_tasks} list is kept tail first ({@code list.get(0)} is the tail). A task
 * added with {@link #addTask} goes to the head, as an enqueue does; the first task added to an
 * empty CPU is its running task, and the running task is kept at the head, as {@code
 * set_next_task_fair()} keeps it. So after adding A, B, C to one CPU the list from the tail is B,
 * C, A: {@code detach_tasks()} looks at B first.
 *
 * <p>Migrations check affinity and that the task is queued and not running (the stopper, see {@link
 * #stopperCpu}, preempts the running task first, as the engine does) and throw otherwise, so a
 * balancer bug fails the test.
 */
final class FakeHost implements BalanceHost {

  /** Default CPU-bound task: load, util and runnable of a nice-0 hog. */
  static final int HOG = 1024;

  final Topology topology;
  final SchedDomains domains;
  final int hz;
  long nowNs;

  final List<FakeTask> tasks = new ArrayList<>();
  final List<List<Integer>> cfsTasks = new ArrayList<>();
  final int[] running;
  final long[] capacity;
  final long[] misfit;
  final boolean[] ttwuPending;
  final long[] avgIdleNs;
  final long[] fixedLoad;
  final long[] fixedUtil;
  final long[] fixedRunnable;
  final int[] blockedAverageUpdates;
  final List<int[]> migrations = new ArrayList<>();

  /** Told of each migration's two CPUs when set (a balancer with the group statistics cache). */
  GroupStamps stamps;

  final List<int[]> activeBalanceRequests = new ArrayList<>();
  final boolean[] activeBalancePending;
  final Deque<Integer> randomValues = new ArrayDeque<>();
  int randomDraws;

  /** The CPU whose stopper runs now: its running task counts as preempted and may move. */
  int stopperCpu = -1;

  private final State state = new State();

  FakeHost(Topology topology, int hz) {
    this.topology = topology;
    this.domains = SchedDomains.build(topology);
    this.hz = hz;
    int n = topology.nrCpuIds();
    for (int cpu = 0; cpu < n; cpu++) {
      cfsTasks.add(new ArrayList<>());
    }
    running = new int[n];
    Arrays.fill(running, -1);
    capacity = new long[n];
    for (int cpu = 0; cpu < n; cpu++) {
      capacity[cpu] = topology.capacity(cpu);
    }
    misfit = new long[n];
    ttwuPending = new boolean[n];
    avgIdleNs = new long[n];
    Arrays.fill(avgIdleNs, 1_000_000L);
    fixedLoad = new long[n];
    fixedUtil = new long[n];
    fixedRunnable = new long[n];
    Arrays.fill(fixedLoad, -1);
    Arrays.fill(fixedUtil, -1);
    Arrays.fill(fixedRunnable, -1);
    blockedAverageUpdates = new int[n];
    activeBalancePending = new boolean[n];
  }

  /** A machine from a shape string with adjacent sibling numbering, HZ 1000. */
  static FakeHost of(String shape) {
    return new FakeHost(Shape.parse(shape).toTopology(SiblingNumbering.ADJACENT), 1000);
  }

  /** The balancer's pieces with default options (NI_RANDOM off) and cost model, no plugins. */
  BalancerPieces balancer() {
    return balancer(BalancerOptions.defaults().withNiRandom(false));
  }

  BalancerPieces balancer(BalancerOptions options) {
    return new BalancerPieces(this, options, List.of());
  }

  /** The engine's entry point with default options (NI_RANDOM off), cost model, no plugins. */
  LoadBalancer loadBalancer() {
    return new LoadBalancer(
        this,
        List.of(),
        BalancerOptions.defaults().withNiRandom(false),
        BalanceCostModel.defaults(),
        LoadBalancer.newStats(domains));
  }

  SchedDomain domain(int cpu, int level) {
    return domains.domains(cpu).get(level);
  }

  /** Adds a CPU hog allowed everywhere whose exec_start is 0 (cache-cold once time passed). */
  FakeTask addTask(int cpu) {
    return addTask(cpu, CpusMask.all(topology));
  }

  FakeTask addTask(int cpu, CpuMask allowed) {
    FakeTask task = new FakeTask(tasks.size(), cpu, allowed);
    tasks.add(task);
    enqueueAtHead(cpu, task.id);
    if (running[cpu] < 0) {
      running[cpu] = task.id;
    }
    keepRunningAtHead(cpu);
    return task;
  }

  /** Dequeues a task for good (it exits); the next queued task runs if it was running. */
  void removeTask(int taskId) {
    FakeTask task = tasks.get(taskId);
    List<Integer> list = cfsTasks.get(task.cpu);
    list.remove(Integer.valueOf(taskId));
    if (running[task.cpu] == taskId) {
      running[task.cpu] = list.isEmpty() ? -1 : list.get(list.size() - 1);
    }
  }

  /** Adds {@code count} hogs to {@code cpu}. */
  void addTasks(int cpu, int count) {
    for (int k = 0; k < count; k++) {
      addTask(cpu);
    }
  }

  ImmutableCpuMask mask(int... cpus) {
    return CpusMask.of(topology, cpus);
  }

  /** The task ids of {@code cpu}'s list, from the tail. */
  List<Integer> fromTail(int cpu) {
    return List.copyOf(cfsTasks.get(cpu));
  }

  void advanceMs(long ms) {
    nowNs += ms * 1_000_000L;
  }

  void setNowMs(long ms) {
    nowNs = ms * 1_000_000L;
  }

  private void enqueueAtHead(int cpu, int task) {
    cfsTasks.get(cpu).add(task);
  }

  private void keepRunningAtHead(int cpu) {
    List<Integer> list = cfsTasks.get(cpu);
    int current = running[cpu];
    if (current >= 0 && list.remove(Integer.valueOf(current))) {
      list.add(current);
    }
  }

  // --- BalanceHost

  @Override
  public long nowNs() {
    return nowNs;
  }

  @Override
  public long jiffies() {
    return nowNs / (1_000_000_000L / hz);
  }

  @Override
  public int hz() {
    return hz;
  }

  @Override
  public Topology topology() {
    return topology;
  }

  @Override
  public SchedDomains domains() {
    return domains;
  }

  @Override
  public CpuStateView state() {
    return state;
  }

  @Override
  public CpuMask activeMask() {
    return topology.onlineMask();
  }

  @Override
  public long misfitTaskLoad(int cpu) {
    return misfit[cpu];
  }

  @Override
  public boolean ttwuPending(int cpu) {
    return ttwuPending[cpu];
  }

  @Override
  public long avgIdleNs(int cpu) {
    return avgIdleNs[cpu];
  }

  @Override
  public int cfsTaskCount(int cpu) {
    return cfsTasks.get(cpu).size();
  }

  @Override
  public int cfsTaskFromTail(int cpu, int indexFromTail) {
    return cfsTasks.get(cpu).get(indexFromTail);
  }

  @Override
  public void rotateToHead(int cpu, int taskId) {
    List<Integer> list = cfsTasks.get(cpu);
    if (!list.remove(Integer.valueOf(taskId))) {
      throw new AssertionError("task " + taskId + " is not on CPU " + cpu);
    }
    list.add(taskId);
  }

  @Override
  public TaskView task(int taskId) {
    return tasks.get(taskId);
  }

  @Override
  public long execStartNs(int taskId) {
    return tasks.get(taskId).execStartNs;
  }

  @Override
  public long taskHLoad(int taskId) {
    return tasks.get(taskId).load;
  }

  @Override
  public long taskUtilEst(int taskId) {
    return tasks.get(taskId).util;
  }

  @Override
  public void migrateTask(int taskId, int dstCpu, int level) {
    FakeTask task = tasks.get(taskId);
    int src = task.cpu;
    if (!task.allowed.test(dstCpu)) {
      throw new AssertionError("affinity violated: task " + taskId + " moved to CPU " + dstCpu);
    }
    if (running[src] == taskId && stopperCpu != src) {
      throw new AssertionError("running task " + taskId + " migrated");
    }
    if (!cfsTasks.get(src).remove(Integer.valueOf(taskId))) {
      throw new AssertionError("task " + taskId + " not queued on CPU " + src);
    }
    if (running[src] == taskId) {
      running[src] = -1;
    }
    task.cpu = dstCpu;
    enqueueAtHead(dstCpu, taskId);
    if (running[dstCpu] < 0 && dstCpu != stopperCpu) {
      running[dstCpu] = taskId;
    }
    keepRunningAtHead(dstCpu);
    migrations.add(new int[] {taskId, src, dstCpu, level});
    if (stamps != null) {
      stamps.cpuChanged(src);
      stamps.cpuChanged(dstCpu);
    }
  }

  @Override
  public boolean requestActiveBalance(int busiestCpu, int targetCpu) {
    if (activeBalancePending[busiestCpu]) {
      return false;
    }
    activeBalancePending[busiestCpu] = true;
    activeBalanceRequests.add(new int[] {busiestCpu, targetCpu});
    return true;
  }

  /** Runs the requested stopper work as the engine would: the stopper preempts the running task. */
  void runActiveBalance(BalancerPieces balancer, int busiestCpu, int targetCpu, BalanceCost cost) {
    stopperCpu = busiestCpu;
    try {
      balancer.activeBalance.activeLoadBalanceCpuStop(busiestCpu, targetCpu, cost);
    } finally {
      stopperCpu = -1;
      activeBalancePending[busiestCpu] = false;
      if (running[busiestCpu] < 0 && !cfsTasks.get(busiestCpu).isEmpty()) {
        running[busiestCpu] = cfsTasks.get(busiestCpu).get(cfsTasks.get(busiestCpu).size() - 1);
      }
    }
  }

  @Override
  public void updateBlockedAverages(int cpu) {
    blockedAverageUpdates[cpu]++;
  }

  @Override
  public RandomGenerator random(int cpu) {
    return new RandomGenerator() {
      @Override
      public long nextLong() {
        return ((long) nextInt()) << 32;
      }

      @Override
      public int nextInt() {
        randomDraws++;
        Integer value = randomValues.poll();
        if (value == null) {
          throw new AssertionError("unexpected random draw");
        }
        return value;
      }
    };
  }

  // --- the CPU state view

  private long sum(int cpu, ToLongFunction<FakeTask> field) {
    long total = 0;
    for (int id : cfsTasks.get(cpu)) {
      total += field.applyAsLong(tasks.get(id));
    }
    return total;
  }

  boolean idle(int cpu) {
    return cfsTasks.get(cpu).isEmpty() && !ttwuPending[cpu];
  }

  private final class State implements CpuStateView {
    @Override
    public long nowNs() {
      return nowNs;
    }

    @Override
    public boolean isIdle(int cpu) {
      return idle(cpu);
    }

    @Override
    public boolean isCoreIdle(int cpu) {
      CpuMask siblings = topology.smtSiblings(cpu);
      for (int other = siblings.first(); other != CpuMask.NO_CPU; other = siblings.next(other)) {
        if (other != cpu && !idle(other)) {
          return false;
        }
      }
      return true;
    }

    /** Computed on demand (allocates). */
    @Override
    public CpuMask idleMask() {
      MutableCpuMask mask = CpuMasks.mutable(topology.nrCpuIds());
      for (int cpu = 0; cpu < topology.nrCpuIds(); cpu++) {
        if (topology.isPossible(cpu) && isIdle(cpu)) {
          mask.set(cpu);
        }
      }
      return mask;
    }

    /** Computed on demand (allocates). */
    @Override
    public CpuMask idleCoreMask() {
      MutableCpuMask mask = CpuMasks.mutable(topology.nrCpuIds());
      for (int cpu = 0; cpu < topology.nrCpuIds(); cpu++) {
        if (topology.isPossible(cpu) && isIdle(cpu) && isCoreIdle(cpu)) {
          mask.set(cpu);
        }
      }
      return mask;
    }

    @Override
    public boolean smtActive() {
      return topology.isSmt();
    }

    @Override
    public int nrRunning(int cpu) {
      return cfsTasks.get(cpu).size();
    }

    @Override
    public int cfsNrRunnable(int cpu) {
      return cfsTasks.get(cpu).size();
    }

    @Override
    public boolean isSchedIdleRq(int cpu) {
      List<Integer> list = cfsTasks.get(cpu);
      return !list.isEmpty()
          && list.stream().allMatch(id -> tasks.get(id).policy == SchedPolicy.IDLE);
    }

    @Override
    public long runnableAvg(int cpu) {
      return fixedRunnable[cpu] >= 0 ? fixedRunnable[cpu] : sum(cpu, t -> t.runnable);
    }

    @Override
    public long utilAvg(int cpu) {
      long util = fixedUtil[cpu] >= 0 ? fixedUtil[cpu] : sum(cpu, t -> t.util);
      return Math.min(util, topology.capacity(cpu));
    }

    @Override
    public long loadAvg(int cpu) {
      return fixedLoad[cpu] >= 0 ? fixedLoad[cpu] : sum(cpu, t -> t.load);
    }

    @Override
    public long capacityOf(int cpu) {
      return capacity[cpu];
    }

    @Override
    public boolean isActive(int cpu) {
      return topology.isOnline(cpu);
    }

    @Override
    public boolean isTickStopped(int cpu) {
      return false;
    }

    @Override
    public CpuMask nohzIdleMask() {
      return CpuMasks.empty(topology.nrCpuIds());
    }

    @Override
    public long totalNrRunning() {
      long total = 0;
      for (List<Integer> list : cfsTasks) {
        total += list.size();
      }
      return total;
    }

    @Override
    public int activeCpuCount() {
      return topology.cpuCount();
    }
  }

  /** A task: a nice-0 hog unless a test changes its fields. */
  final class FakeTask implements TaskView {
    final int id;
    int cpu;
    CpuMask allowed;
    SchedPolicy policy = SchedPolicy.NORMAL;
    long load = HOG;
    long util = HOG;
    long runnable = HOG;
    long execStartNs;

    FakeTask(int id, int cpu, CpuMask allowed) {
      this.id = id;
      this.cpu = cpu;
      this.allowed = allowed;
    }

    @Override
    public int id() {
      return id;
    }

    @Override
    public String name() {
      return "task" + id;
    }

    @Override
    public SchedPolicy policy() {
      return policy;
    }

    @Override
    public int nice() {
      return 0;
    }

    @Override
    public int weight() {
      return policy == SchedPolicy.IDLE ? 3 : 1024;
    }

    @Override
    public CpuMask allowedCpus() {
      return allowed;
    }

    @Override
    public int cpu() {
      return cpu;
    }

    /** False under the stopper, which has preempted the running task, as the engine models it. */
    @Override
    public boolean isRunning() {
      return running[cpu] == id && stopperCpu != cpu;
    }

    @Override
    public boolean isQueued() {
      return cfsTasks.get(cpu).contains(id);
    }

    @Override
    public int utilAvg() {
      return (int) util;
    }

    @Override
    public long loadAvg() {
      return load;
    }

    @Override
    public WorkClass workClass() {
      return WorkClass.COMPUTE;
    }
  }

  /** Mask helpers. */
  static final class CpusMask {
    private CpusMask() {}

    static ImmutableCpuMask all(Topology topology) {
      return CpuMasks.full(topology.nrCpuIds());
    }

    static ImmutableCpuMask of(Topology topology, int... cpus) {
      return CpuMasks.of(topology.nrCpuIds(), cpus);
    }
  }
}
