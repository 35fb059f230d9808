/**
 * Machines for the simulator: built-in hardware models, topology importers and performance models,
 * all reachable through the {@link dev.schedlab.spi.HardwareModelProvider} SPI.
 */
package dev.schedlab.hw;
