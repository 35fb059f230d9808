package dev.schedlab.core.engine;

import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.topology.Topology;
import java.util.random.RandomGenerator;

/** The {@link WorkloadContext} the engine hands the workload. */
record EngineWorkloadContext(
    Topology topology, MachineFacts machine, Parameters parameters, RandomGenerator random)
    implements WorkloadContext {}
