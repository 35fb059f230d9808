package dev.schedlab.testkit.fakes;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.BalanceActions;
import java.util.ArrayList;
import java.util.List;

/**
 * Runqueues of fake tasks behind an {@link ArrayCpuState}, moved the way {@code detach_one_task()}
 * moves them: scanning the source's queued, not running tasks from the tail for one whose affinity
 * allows the destination. A move carries the task's runnable contribution from source to
 * destination (as {@code detach/attach_entity_load_avg()} do), so a policy that loops on {@code
 * runnable_avg} sees the effect of its own pushes. Every move and every balance-interval reset is
 * recorded, and so is the number of migration attempts.
 */
public final class FakeBalanceActions implements BalanceActions {

  /** A recorded migration. */
  public record Move(int taskId, int srcCpu, int dstCpu) {}

  private record Task(int id, CpuMask allowed, long runnable) {}

  private final ArrayCpuState state;
  private final List<List<Task>> runqueues = new ArrayList<>();
  private final List<Move> moves = new ArrayList<>();
  private final List<Integer> intervalResets = new ArrayList<>();
  private int nextTaskId;
  private int attempts;

  /** Empty runqueues over {@code state}. */
  public FakeBalanceActions(ArrayCpuState state) {
    this.state = state;
    for (int cpu = 0; cpu < state.nrCpuIds(); cpu++) {
      runqueues.add(new ArrayList<>());
    }
  }

  /**
   * Queues a task on {@code cpu} that may run on {@code allowed} and contributes {@code runnable}
   * to the CPU's runnable average; the first task queued on a CPU is its running task. Updates the
   * state's {@code nr_running} and {@code runnable_avg}.
   *
   * @return the task's id
   */
  public int addTask(int cpu, CpuMask allowed, long runnable) {
    int id = nextTaskId++;
    runqueues.get(cpu).add(new Task(id, allowed, runnable));
    sync(cpu);
    return id;
  }

  @Override
  public boolean migrateOneTask(int srcCpu, int dstCpu) {
    attempts++;
    List<Task> source = runqueues.get(srcCpu);
    for (int i = source.size() - 1; i >= 1; i--) {
      Task task = source.get(i);
      if (task.allowed().test(dstCpu)) {
        source.remove(i);
        runqueues.get(dstCpu).add(task);
        sync(srcCpu);
        sync(dstCpu);
        moves.add(new Move(task.id(), srcCpu, dstCpu));
        return true;
      }
    }
    return false;
  }

  @Override
  public void resetBalanceInterval(int cpu) {
    intervalResets.add(cpu);
  }

  /** Calls of {@link #migrateOneTask}, successful or not. */
  public int attempts() {
    return attempts;
  }

  /** Migrations performed, in order. */
  public List<Move> moves() {
    return List.copyOf(moves);
  }

  /** CPUs whose balance interval was reset, in order. */
  public List<Integer> intervalResets() {
    return List.copyOf(intervalResets);
  }

  /** Ids of the tasks on {@code cpu}, running task first. */
  public List<Integer> tasksOn(int cpu) {
    return runqueues.get(cpu).stream().map(Task::id).toList();
  }

  private void sync(int cpu) {
    List<Task> queue = runqueues.get(cpu);
    long runnable = 0;
    for (Task t : queue) {
      runnable += t.runnable();
    }
    state.nrRunning(cpu, queue.size()).runnableAvg(cpu, runnable);
  }
}
