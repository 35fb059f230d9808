package dev.schedlab.spark;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.workloads.SchbenchWorkloadProvider;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.TaskContext;

/**
 * {@code test.flaky}: schbench, except that inside a Spark task's first attempt it fails as a lost
 * executor or a full disk would, once per cell; retried, or run outside Spark, it is schbench.
 */
@AutoService(WorkloadProvider.class)
public final class FlakyWorkloadProvider implements WorkloadProvider {

  /** First attempts that failed, in this JVM. */
  static final AtomicInteger FAILED_FIRST_ATTEMPTS = new AtomicInteger();

  private static final WorkloadProvider SCHBENCH = new SchbenchWorkloadProvider();

  private static final PluginDescriptor DESCRIPTOR =
      new PluginDescriptor(
          "test.flaky",
          SCHBENCH.descriptor().kind(),
          "schbench failing a Spark task's first attempt",
          "sweep-spark's tests",
          SCHBENCH.descriptor().parameters(),
          SCHBENCH.descriptor().capabilities());

  /** Called by {@link java.util.ServiceLoader}. */
  public FlakyWorkloadProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    TaskContext task = TaskContext.get();
    if (task != null && task.attemptNumber() == 0) {
      FAILED_FIRST_ATTEMPTS.incrementAndGet();
      throw new IllegalStateException("test.flaky: the first attempt fails");
    }
    return SCHBENCH.create(context);
  }
}
