package dev.schedlab.spi;

/** Provider of a named workload ({@code wl.gemm}). */
public interface WorkloadProvider extends PluginProvider {

  /** A workload instance for one simulation. */
  Workload create(WorkloadContext context);

  /**
   * What the workload is beyond its id, for report headers (a replayed trace names its recording
   * and what it holds); empty for workloads whose id and parameters say it all.
   *
   * @param parameters the parameters the runs were made with
   */
  default String describe(Parameters parameters) {
    return "";
  }
}
