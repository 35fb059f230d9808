package dev.schedlab.hw;

import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.topology.Topology;
import java.util.Objects;

/**
 * A hardware model as the providers of this module build it: a topology, a performance model and
 * the machine facts, all fixed at creation.
 *
 * @param topology the CPUs, caches, packages and nodes
 * @param performanceModel how fast threads run
 * @param facts clock, FLOP/cycle, memory bandwidth and the notes stating the assumptions
 */
public record Machine(Topology topology, PerformanceModel performanceModel, MachineFacts facts)
    implements HardwareModel {

  public Machine {
    Objects.requireNonNull(topology, "topology");
    Objects.requireNonNull(performanceModel, "performanceModel");
    Objects.requireNonNull(facts, "facts");
  }
}
