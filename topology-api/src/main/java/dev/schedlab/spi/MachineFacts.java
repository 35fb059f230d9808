package dev.schedlab.spi;

/**
 * Numbers about a machine that workloads and reports need. Every one is an assumption unless the
 * provider's source says otherwise, and every one is an overridable provider parameter.
 *
 * @param clockHz core clock in Hz (used for cycle-based rules and FLOP/s)
 * @param flopPerCycle double-precision FLOP per cycle per hardware thread running alone
 * @param memoryBandwidthPerNode sustainable memory bandwidth per NUMA node, bytes per second
 * @param notes one paragraph stating the assumptions and their sources
 */
public record MachineFacts(
    double clockHz, double flopPerCycle, double memoryBandwidthPerNode, String notes) {

  public MachineFacts {
    if (!(clockHz > 0) || !(flopPerCycle > 0) || !(memoryBandwidthPerNode > 0)) {
      throw new IllegalArgumentException(
          "machine facts must be positive: clockHz="
              + clockHz
              + ", flopPerCycle="
              + flopPerCycle
              + ", memoryBandwidthPerNode="
              + memoryBandwidthPerNode);
    }
  }
}
