/**
 * Statistics a simulation run produces: power-of-two histograms, latency summaries, per-CPU
 * schedstat counters and the {@code /proc/schedstat} version 17 text writer.
 */
package dev.schedlab.core.stats;
