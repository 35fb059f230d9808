package dev.schedlab.core.engine;

import dev.schedlab.spi.Counter;
import java.util.LinkedHashMap;
import java.util.Map;

/** The plugin counters of one run, by full name ({@code <plugin id>.<name>}), in creation order. */
final class CounterRegistry {

  private final Map<String, Counter> counters = new LinkedHashMap<>();

  /** The counter called {@code fullName}, created on first use. */
  Counter counter(String fullName) {
    return counters.computeIfAbsent(fullName, Counter::new);
  }

  /** Name → value, in creation order. */
  Map<String, Long> snapshot() {
    Map<String, Long> values = new LinkedHashMap<>();
    counters.forEach((name, counter) -> values.put(name, counter.get()));
    return values;
  }
}
