package dev.schedlab.spi;

import dev.schedlab.topology.Topology;

/** A machine: its topology, how fast threads run on it, and the numbers workloads need. */
public interface HardwareModel {

  /** The machine's CPUs, caches, packages and NUMA nodes. */
  Topology topology();

  /** How fast a thread runs on a CPU given what else runs nearby. */
  PerformanceModel performanceModel();

  /** Clock, FLOP/cycle, memory bandwidth. */
  MachineFacts facts();
}
