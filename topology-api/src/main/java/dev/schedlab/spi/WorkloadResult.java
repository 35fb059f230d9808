package dev.schedlab.spi;

import java.util.Map;

/**
 * A workload's own metric, e.g. {@code throughput = 9.4e12 FLOP/s}, plus secondary figures.
 *
 * @param metric name of the main metric ({@code throughput}, {@code time}, {@code p99_latency})
 * @param value its value
 * @param unit its unit ({@code FLOP/s}, {@code s}, {@code us})
 * @param higherIsBetter direction of improvement
 * @param extra secondary figures by name (insertion order kept)
 */
public record WorkloadResult(
    String metric, double value, String unit, boolean higherIsBetter, Map<String, Double> extra) {

  public WorkloadResult {
    extra = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(extra));
  }
}
