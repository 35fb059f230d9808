package dev.schedlab.spi;

import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.random.RandomGenerator;

/**
 * Everything a policy receives when it is created: the machine, its sched domains, its resolved
 * parameters, the live state view, a random stream derived from the run's master seed, the per-CPU
 * scratch masks, and a place to report counters.
 */
public interface PolicyContext {

  /** The simulated machine. */
  Topology topology();

  /** Its sched domains. */
  SchedDomains domains();

  /** This plugin's resolved parameters. */
  Parameters parameters();

  /** Live, read-only state of CPUs and NOHZ bookkeeping. */
  CpuStateView state();

  /** A random stream for this plugin, derived from the run's master seed. */
  RandomGenerator random();

  /** Per-CPU scratch masks (equivalent of the kernel's per-CPU temporary cpumasks). */
  ScratchMaskPool scratchMasks();

  /** A counter reported under {@code <plugin id>.<name>} in the run's results. */
  Counter counter(String name);
}
