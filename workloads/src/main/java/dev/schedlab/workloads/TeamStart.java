package dev.schedlab.workloads;

import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import java.util.function.IntFunction;

/**
 * The start of a thread team as a runtime creates it ({@code gomp_team_start()} in libgomp, {@code
 * ggml_threadpool_new()} in ggml): thread 0, the master, creates threads 1..n-1 one after another,
 * spending {@code createWork} of its own CPU time before each {@code pthread_create()}; each new
 * thread is placed by the fork path from the master's CPU at that instant. Then the master runs its
 * own program as thread 0.
 *
 * <p>The created threads' programs should begin by waiting for the whole team (a barrier generation
 * without work, see {@link SpinThenBlockBarrier.Phases#work}): while the master is still creating,
 * the early threads spin and then sleep, their CPUs are idle again, and the fork path sees them as
 * such when it places the later ones, as on a real machine.
 */
final class TeamStart implements TaskProgram {

  private final int threads;
  private final double createWork;
  private final IntFunction<TaskSpec> spec;
  private final IntFunction<TaskProgram> program;
  private final TaskProgram master;
  private int created = 1;
  private boolean creating;

  /**
   * @param threads team size, the master included
   * @param createWork the master's work units per {@code pthread_create()}; below 1, all at once
   * @param spec the task of thread {@code i}
   * @param program the program of thread {@code i}; {@code program.apply(0)} is the master's own
   */
  TeamStart(
      int threads,
      double createWork,
      IntFunction<TaskSpec> spec,
      IntFunction<TaskProgram> program) {
    this.threads = threads;
    this.createWork = createWork;
    this.spec = spec;
    this.program = program;
    this.master = program.apply(0);
  }

  /** Thread 0's task. */
  TaskSpec masterSpec() {
    return spec.apply(0);
  }

  @Override
  public void next(TaskControl control) {
    if (creating) {
      creating = false;
      create(control);
    }
    if (created < threads && createWork >= 1) {
      creating = true;
      control.run(createWork);
      return;
    }
    while (created < threads) {
      create(control);
    }
    master.next(control);
  }

  private void create(TaskControl control) {
    control.spawn(spec.apply(created), program.apply(created));
    created++;
  }
}
