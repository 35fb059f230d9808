package dev.schedlab.hw.perf;

/**
 * Memory-bound threads of one NUMA node share its bandwidth. A memory-bound thread alone draws
 * {@code threadDemand} bytes/s at full speed; with {@code n} of them running on the node, each gets
 * {@code min(1, nodeBandwidth / (n × threadDemand))} of its speed, so the node's delivered
 * bandwidth grows linearly until it saturates at {@code nodeBandwidth} and stays flat after.
 */
public final class MemoryBandwidthShare {

  private final double nodeBandwidth;
  private final double threadDemand;

  /**
   * @param nodeBandwidth sustainable bandwidth of one node, bytes/s
   * @param threadDemand bandwidth one memory-bound thread draws running alone, bytes/s
   */
  public MemoryBandwidthShare(double nodeBandwidth, double threadDemand) {
    if (!(nodeBandwidth > 0) || !(threadDemand > 0)) {
      throw new IllegalArgumentException(
          "bandwidths must be positive: node " + nodeBandwidth + ", thread " + threadDemand);
    }
    this.nodeBandwidth = nodeBandwidth;
    this.threadDemand = threadDemand;
  }

  /** Speed factor of each of {@code running} memory-bound threads on one node. */
  public double factor(int running) {
    if (running <= 0) {
      return 1.0;
    }
    return Math.min(1.0, nodeBandwidth / (running * threadDemand));
  }

  /**
   * Share factor when the running threads together ask for {@code demandThreads} × the demand of
   * one full-speed thread (threads slowed by remote latency ask for less): {@code min(1,
   * nodeBandwidth / (demandThreads × threadDemand))}. Every thread then gets that fraction of its
   * own demand, so the node delivers {@code min(nodeBandwidth, total demand)}.
   */
  public double factor(double demandThreads) {
    if (demandThreads <= 0) {
      return 1.0;
    }
    return Math.min(1.0, nodeBandwidth / (demandThreads * threadDemand));
  }
}
