package dev.schedlab.spark;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Counts the tasks of sweeps (Spark job groups {@code schedlab-sweep-*}) started since the last
 * {@link #reset}: those that succeeded and the attempts that threw. Other jobs (Parquet reads and
 * writes) and the late tasks of an earlier, cancelled sweep do not count.
 */
final class TaskCounter extends SparkListener {

  private final Map<Integer, String> stageGroups = new HashMap<>();
  private final Map<String, int[]> counts = new HashMap<>();

  @Override
  public synchronized void onJobStart(SparkListenerJobStart jobStart) {
    String group =
        jobStart.properties() == null
            ? null
            : jobStart.properties().getProperty("spark.jobGroup.id");
    if (group == null || !group.startsWith("schedlab-sweep-")) {
      return;
    }
    counts.putIfAbsent(group, new int[2]);
    scala.collection.Iterator<Object> ids = jobStart.stageIds().iterator();
    while (ids.hasNext()) {
      stageGroups.put((Integer) ids.next(), group);
    }
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    int[] count = counts.get(stageGroups.get(taskEnd.stageId()));
    if (count == null) {
      return;
    }
    if (taskEnd.reason() == Success$.MODULE$) {
      count[0]++;
    } else if (taskEnd.reason() instanceof ExceptionFailure) {
      count[1]++;
    }
  }

  /** Tasks of the sweeps since the last reset that succeeded. */
  synchronized int succeeded() {
    return counts.values().stream().mapToInt(c -> c[0]).sum();
  }

  /** Attempts of the sweeps since the last reset that threw. */
  synchronized int failed() {
    return counts.values().stream().mapToInt(c -> c[1]).sum();
  }

  synchronized void reset() {
    counts.clear();
  }
}
