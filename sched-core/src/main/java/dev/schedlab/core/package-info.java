/**
 * The public entry points of the simulator: {@link dev.schedlab.core.SimulationConfig} describes a
 * run, {@link dev.schedlab.core.Simulations} runs it and returns a {@link
 * dev.schedlab.core.stats.SimulationResult}.
 */
package dev.schedlab.core;
