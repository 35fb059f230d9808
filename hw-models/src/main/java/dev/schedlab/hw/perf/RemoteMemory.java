package dev.schedlab.hw.perf;

import dev.schedlab.topology.Topology;

/**
 * Where a memory-bound thread's bandwidth comes from and what reaching it from another node costs.
 *
 * <p>{@link Placement#FIRST_TOUCH} (default): a thread's pages live on its home node, the node it
 * first ran on (STREAM's threads initialise their own slices of the arrays in a parallel loop, so
 * Linux's first-touch policy places each slice on the toucher's node), and stay there for the run:
 * no NUMA-balancing page migration ({@code numa_balancing} off, or a run shorter than its scan
 * period). The thread shares its home node's bandwidth with the other running threads homed there,
 * wherever they run, and running on another node slows it by {@link #factor(int, int)}: a remote
 * thread asks its home node for that fraction of a local thread's bandwidth, the home node shares
 * its bandwidth in proportion to what the running threads ask, so the node still delivers {@code
 * min(bandwidth, total demand)}: remote access costs throughput only while the home node is not
 * saturated. {@link Placement#RUNNING_NODE}: the older rule, bandwidth from the node the thread
 * runs on and no remote cost (as if pages followed the thread instantly).
 *
 * <p>Remote speed, an assumption: a streaming thread keeps a fixed number of cache misses in
 * flight, so by Little's law its bandwidth is inversely proportional to memory latency, and the
 * ACPI SLIT gives latency relative to local access (local = 10). So by default a thread running on
 * node {@code r} with memory on node {@code h} runs at {@code 10 / distance(r, h)} of its local
 * speed (0.625 at distance 16, 0.3125 at 32 on hw.hygon-7447v). Measured Zen 1 numbers agree in
 * order of magnitude (AnandTech's EPYC 7000 analysis: one die-to-die Infinity Fabric hop adds
 * latency, 42.6 GB/s per link; Dell's R7425 STREAM study measures remote-node STREAM well below
 * local). A fixed factor can replace the SLIT rule. Not modelled: the fabric links' own bandwidth
 * limit (42.6 GB/s per die-to-die link on Zen 1 per AnandTech, above one die's 25.6 GB/s here).
 */
public final class RemoteMemory {

  /** Where memory-bound threads' pages are. */
  public enum Placement {
    /** On the node where the thread first ran, for the whole run. */
    FIRST_TOUCH,
    /** On the node where the thread runs now. */
    RUNNING_NODE
  }

  private final Placement placement;

  /** Speed factor indexed [running node][home node] by node id. */
  private final double[][] factor;

  private RemoteMemory(Placement placement, double[][] factor) {
    this.placement = placement;
    this.factor = factor;
  }

  /**
   * The rule for {@code topology}.
   *
   * @param remoteSpeed speed of a thread whose memory is on another node, in (0, 1]; 0 selects the
   *     SLIT rule {@code LOCAL_DISTANCE / distance}
   * @throws IllegalArgumentException if {@code remoteSpeed} is outside [0, 1]
   */
  public static RemoteMemory of(Topology topology, Placement placement, double remoteSpeed) {
    if (!(remoteSpeed >= 0 && remoteSpeed <= 1)) {
      throw new IllegalArgumentException(
          "remote memory speed " + remoteSpeed + " outside the allowed range 0..1 (0 = SLIT rule)");
    }
    int maxNode = 0;
    for (int node : topology.nodes()) {
      maxNode = Math.max(maxNode, node);
    }
    double[][] table = new double[maxNode + 1][maxNode + 1];
    for (int r : topology.nodes()) {
      for (int h : topology.nodes()) {
        if (r == h) {
          table[r][h] = 1.0;
        } else if (remoteSpeed > 0) {
          table[r][h] = remoteSpeed;
        } else {
          table[r][h] = (double) Topology.LOCAL_DISTANCE / topology.distance(r, h);
        }
      }
    }
    return new RemoteMemory(placement, table);
  }

  /** The rule where pages follow the thread: no homes, no remote cost. */
  public static RemoteMemory runningNode(Topology topology) {
    return of(topology, Placement.RUNNING_NODE, 1);
  }

  /** Where pages are. */
  public Placement placement() {
    return placement;
  }

  /** Every node id with a row in the table (for summing demand per home node). */
  public int nodeSlots() {
    return factor.length;
  }

  /** Speed factor of a thread running on node {@code running} whose memory is on {@code home}. */
  public double factor(int running, int home) {
    return factor[running][home];
  }
}
