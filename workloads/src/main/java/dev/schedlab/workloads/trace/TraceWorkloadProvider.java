package dev.schedlab.workloads.trace;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.Topology;
import java.io.IOException;
import java.lang.ref.SoftReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * {@value #ID}: replays a recorded workload, a {@code perf script} of {@code perf sched record} or
 * ftrace text of the same events, or the program file {@code schedlab trace import} writes, on any
 * machine under any policy. Each traced task becomes a program of its CPU bursts as work, its
 * sleeps, the wakeups it caused at their points of its work and its forks and exit ({@link
 * TraceModelBuilder} says how each is read, {@link TraceReplay} how it runs). The trace's own text
 * carries no machine model, so its bursts count as work on a 1024-capacity CPU running the task
 * alone; {@code schedlab trace import --recorded-on hw.x} scales them by that machine's capacity
 * and SMT co-running instead.
 */
@AutoService(WorkloadProvider.class)
public final class TraceWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.trace";

  /** Imports kept for the runs of one command (a comparison, a sweep's cells). */
  private static final ModelCache MODELS = new ModelCache();

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "replay of a recorded workload: perf script of perf sched record,"
                  + " ftrace or trace-cmd report text, or a schedlab trace import program; time"
                  + " to replay it")
          .source(
              "sched_switch, sched_waking/sched_wakeup(_new), sched_process_fork/exec/exit"
                  + " and sched_migrate_task as include/trace/events/sched.h prints them")
          .parameter(
              ParameterSpec.ofString(
                  "file", "the trace's text or a trace import program file (required)", ""))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public TraceWorkloadProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    return replay(model(context.parameters()), context.topology());
  }

  @Override
  public String describe(Parameters parameters) {
    return model(parameters).describe();
  }

  /**
   * The model {@code file} holds (a trace's text or a program file), read once for every run of a
   * command.
   *
   * @throws IllegalArgumentException with one line naming the file and the problem
   */
  public static TraceModel load(Path file) {
    return MODELS.get(file);
  }

  /** A replay of {@code model} on {@code topology}, for callers that hold a model. */
  public static Workload replay(TraceModel model, Topology topology) {
    return new TraceReplay(model, topology);
  }

  private static TraceModel model(Parameters parameters) {
    String file = parameters.getString("file");
    if (file.isBlank()) {
      throw new IllegalArgumentException(
          ID
              + ": parameter file is required: a perf script or"
              + " ftrace text file, or a schedlab trace import program (-W file=trace.txt)");
    }
    try {
      return MODELS.get(Path.of(file));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ID + ": " + e.getMessage(), e);
    }
  }

  /**
   * The last import, kept while memory allows: every variant and seed of a command replays the same
   * file, and a large trace takes seconds to read. Keyed by the file's path, size and modification
   * time; the model is immutable, so runs on other threads share it safely.
   */
  private static final class ModelCache {
    private Path path;
    private long size;
    private long modified;
    private SoftReference<TraceModel> model = new SoftReference<>(null);

    synchronized TraceModel get(Path file) {
      Path absolute = file.toAbsolutePath().normalize();
      long fileSize;
      long fileModified;
      try {
        BasicFileAttributes attributes = Files.readAttributes(absolute, BasicFileAttributes.class);
        fileSize = attributes.size();
        fileModified = attributes.lastModifiedTime().toMillis();
      } catch (IOException e) {
        throw new IllegalArgumentException(file + ": no such file or not readable", e);
      }
      TraceModel cached = model.get();
      if (cached != null && absolute.equals(path) && fileSize == size && fileModified == modified) {
        return cached;
      }
      TraceModel read = TraceImport.read(file, null);
      path = absolute;
      size = fileSize;
      modified = fileModified;
      model = new SoftReference<>(read);
      return read;
    }
  }
}
