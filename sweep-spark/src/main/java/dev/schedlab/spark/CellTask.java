package dev.schedlab.spark;

import dev.schedlab.cli.sweep.SweepPlan;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.broadcast.Broadcast;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

/**
 * The work of one Spark task: the cells of its partition (one, as the sweep partitions them), each
 * derived from the broadcast plan by its number and run against the executor's plugins. A cell that
 * is given bad input answers with the message; any other failure is thrown, so that Spark retries
 * the task (a cell is deterministic: a retry gives the same row).
 */
final class CellTask extends AbstractFunction1<Iterator<Object>, CellResult[]>
    implements Serializable {

  private static final long serialVersionUID = 1L;

  private final Broadcast<SweepPlan> plan;
  private final Broadcast<long[]> todo;

  /**
   * @param plan the sweep
   * @param todo the numbers of the cells to run, by position; null when every cell runs
   */
  CellTask(Broadcast<SweepPlan> plan, Broadcast<long[]> todo) {
    this.plan = plan;
    this.todo = todo;
  }

  @Override
  public CellResult[] apply(Iterator<Object> positions) {
    SweepPlan sweep = plan.value();
    List<CellResult> results = new ArrayList<>();
    while (positions.hasNext()) {
      long position = (Long) positions.next();
      long cell = todo == null ? position : todo.value()[(int) position];
      try {
        results.add(
            new CellResult(
                cell, sweep.cell(cell).run(ExecutorPlugins.registry(), sweep.metrics()), null));
      } catch (IllegalArgumentException e) {
        results.add(new CellResult(cell, null, e.getMessage()));
      }
    }
    return results.toArray(CellResult[]::new);
  }
}
