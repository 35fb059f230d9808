package dev.schedlab.spi;

/** One run of a workload: creates tasks at start, reports its metric at the end. */
public interface Workload {

  /** Creates the initial tasks. */
  void start(WorkloadHost host);

  /** The metric after {@code simulatedNs} nanoseconds of simulated time. */
  WorkloadResult result(long simulatedNs);
}
