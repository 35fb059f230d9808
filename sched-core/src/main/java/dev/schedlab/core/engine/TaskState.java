package dev.schedlab.core.engine;

/** Life-cycle states of a simulated task. */
enum TaskState {
  /** Created, queued, not yet run. */
  NEW,
  /** On a runqueue, waiting for the CPU. */
  QUEUED,
  /** On a runqueue and running ({@code rq->curr}). */
  RUNNING,
  /** Off the runqueue until a timer fires ({@code TaskControl.sleep}). */
  SLEEPING,
  /** Off the runqueue until another task wakes it ({@code TaskControl.block}). */
  BLOCKED,
  /** Gone. */
  EXITED
}
