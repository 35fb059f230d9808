package dev.schedlab.spi;

import dev.schedlab.topology.Topology;
import java.util.random.RandomGenerator;

/** What a workload receives when created. */
public interface WorkloadContext {

  /** The simulated machine. */
  Topology topology();

  /** Its clock, FLOP/cycle and memory bandwidth. */
  MachineFacts machine();

  /** The workload's resolved parameters. */
  Parameters parameters();

  /** A random stream derived from the run's master seed. */
  RandomGenerator random();
}
