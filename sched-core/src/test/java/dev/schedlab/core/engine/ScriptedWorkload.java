package dev.schedlab.core.engine;

import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import java.util.Map;
import java.util.function.Consumer;

/** A workload whose start is a test's lambda, with a few task programs tests reuse. */
final class ScriptedWorkload implements WorkloadProvider {

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder("test.scripted", PluginKind.WORKLOAD)
          .description("tasks created by a test")
          .build();

  private final Consumer<WorkloadHost> start;

  ScriptedWorkload(Consumer<WorkloadHost> start) {
    this.start = start;
  }

  static PolicyBinding<WorkloadProvider> of(Consumer<WorkloadHost> start) {
    return PolicyBinding.withDefaults(new ScriptedWorkload(start));
  }

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    return new Workload() {
      @Override
      public void start(WorkloadHost host) {
        start.accept(host);
      }

      @Override
      public WorkloadResult result(long simulatedNs) {
        return new WorkloadResult("none", 0, "", true, Map.of());
      }
    };
  }

  /** Runs 1 s chunks forever. */
  static TaskProgram spin() {
    return control -> control.run(1e9);
  }

  /** Blocks at once and whenever woken. */
  static TaskProgram blockForever() {
    return TaskControl::block;
  }

  /** Runs {@code workNs}, then sleeps {@code sleepNs}, forever. */
  static TaskProgram runSleep(double workNs, long sleepNs) {
    return new TaskProgram() {
      private boolean ran;

      @Override
      public void next(TaskControl control) {
        if (ran) {
          ran = false;
          control.sleep(sleepNs);
        } else {
          ran = true;
          control.run(workNs);
        }
      }
    };
  }

  /** Runs {@code workNs} once, then blocks forever. */
  static TaskProgram runOnceThenBlock(double workNs) {
    return new TaskProgram() {
      private boolean ran;

      @Override
      public void next(TaskControl control) {
        if (ran) {
          control.block();
        } else {
          ran = true;
          control.run(workNs);
        }
      }
    };
  }
}
