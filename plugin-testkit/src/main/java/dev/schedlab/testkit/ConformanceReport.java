package dev.schedlab.testkit;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What {@link PluginConformance#run()} found: one outcome per check, in order.
 *
 * @param pluginId the plugin's id, or its class name when its descriptor could not be read
 * @param outcomes the outcomes
 */
public record ConformanceReport(String pluginId, List<Outcome> outcomes) {

  /** How a check ended. */
  public enum Status {
    PASSED,
    FAILED,
    /** Not applicable, e.g. a machine without SMT for a plugin that needs SMT. */
    SKIPPED
  }

  /**
   * One check's result.
   *
   * @param check the check's display name
   * @param status how it ended
   * @param message why it failed or was skipped; empty when it passed
   */
  public record Outcome(String check, Status status, String message) {}

  public ConformanceReport {
    outcomes = List.copyOf(outcomes);
  }

  /** The failed checks. */
  public List<Outcome> failures() {
    return outcomes.stream().filter(o -> o.status() == Status.FAILED).toList();
  }

  /** Whether no check failed. */
  public boolean passed() {
    return failures().isEmpty();
  }

  /** Number of checks with {@code status}. */
  public long count(Status status) {
    return outcomes.stream().filter(o -> o.status() == status).count();
  }

  /**
   * Throws an {@link AssertionError} listing every failed check, one per line.
   *
   * @throws AssertionError when some check failed
   */
  public void assertPassed() {
    List<Outcome> failed = failures();
    if (!failed.isEmpty()) {
      throw new AssertionError(
          "plugin "
              + pluginId
              + " does not conform: "
              + failed.size()
              + " of "
              + outcomes.size()
              + " checks failed\n"
              + failed.stream()
                  .map(o -> "  - " + o.check() + ": " + o.message().replace("\n", "\n    "))
                  .collect(Collectors.joining("\n")));
    }
  }

  @Override
  public String toString() {
    return "conformance of "
        + pluginId
        + ": "
        + count(Status.PASSED)
        + " passed, "
        + count(Status.FAILED)
        + " failed, "
        + count(Status.SKIPPED)
        + " skipped\n"
        + outcomes.stream()
            .map(
                o ->
                    "  "
                        + o.status()
                        + " "
                        + o.check()
                        + (o.message().isEmpty() ? "" : ": " + o.message()))
            .collect(Collectors.joining("\n"));
  }
}
