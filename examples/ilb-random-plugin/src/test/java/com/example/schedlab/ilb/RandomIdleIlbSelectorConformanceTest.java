package com.example.schedlab.ilb;

import dev.schedlab.testkit.PluginConformance;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The selector conforms to schedlab's plugin contract: its descriptor is complete and enforces its
 * ranges, and it runs with the engine's invariants on (the ILB it picks is always idle and a
 * housekeeping CPU) on every canned machine, deterministically for a given seed.
 */
final class RandomIdleIlbSelectorConformanceTest {

  @TestFactory
  Stream<DynamicNode> randomIdle_conformsOnCannedMachines() {
    return PluginConformance.dynamicTests(new RandomIdleIlbSelectorProvider());
  }
}
