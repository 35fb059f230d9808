package dev.schedlab.cli.args;

import java.util.Map;

/**
 * One run to do: a variant and a seed, within a sweep also a grid point and its own scenario.
 *
 * @param variant the policies
 * @param seed its master seed
 * @param gridPoint the values of a sweep point, for progress labels (empty outside sweeps)
 * @param scenario a sweep point's own scenario (its {@code -M}, {@code -W} and {@code -E} values),
 *     or null to run the scenario the runner is given
 */
public record RunSpec(
    Variant variant, long seed, Map<String, String> gridPoint, Scenario scenario) {

  public RunSpec {
    gridPoint = Map.copyOf(gridPoint);
  }

  /** A run of the scenario the runner is given. */
  public RunSpec(Variant variant, long seed) {
    this(variant, seed, Map.of(), null);
  }

  /** {@code variant seed N [grid point]}, for progress lines. */
  public String label() {
    return variant.name() + " seed " + seed + (gridPoint.isEmpty() ? "" : " " + gridPoint);
  }
}
