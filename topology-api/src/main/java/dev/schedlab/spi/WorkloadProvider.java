package dev.schedlab.spi;

/** Provider of a named workload ({@code wl.gemm}). */
public interface WorkloadProvider extends PluginProvider {

  /** A workload instance for one simulation. */
  Workload create(WorkloadContext context);
}
