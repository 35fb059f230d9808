package dev.schedlab.testkit;

import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.spi.WorkloadProvider;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A workload the kit runs plugins under: a provider with small parameter overrides.
 *
 * @param provider the workload provider
 * @param overrides parameter name → raw value
 */
public record CannedWorkload(WorkloadProvider provider, Map<String, String> overrides) {

  public CannedWorkload {
    Objects.requireNonNull(provider, "provider");
    overrides = Map.copyOf(overrides);
  }

  /** The provider bound to its resolved parameters. */
  public PolicyBinding<WorkloadProvider> binding() {
    return new PolicyBinding<>(provider, provider.descriptor().resolve(overrides));
  }

  @Override
  public String toString() {
    return provider.id()
        + (overrides.isEmpty()
            ? ""
            : overrides.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(",", " ", "")));
  }
}
