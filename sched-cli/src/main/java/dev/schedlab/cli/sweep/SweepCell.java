package dev.schedlab.cli.sweep;

import dev.schedlab.cli.args.EngineSettings;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.ScenarioOptions;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.report.Metrics;
import dev.schedlab.core.Simulations;
import dev.schedlab.spi.PluginRegistry;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * One cell of a sweep (grid point × variant × seed) as plain data: everything its run needs,
 * resolved wherever it runs against the plugins found there. A cell is a pure function of this
 * data, so running it again, on any machine, gives the same row.
 *
 * @param index the cell's number in its plan
 * @param point the grid point's values ({@code M.key}, {@code E.key} and workload keys)
 * @param variant the variant as typed, {@code NAME=SPEC}
 * @param seed the run's master seed
 * @param options the scenario options the point's values apply to
 */
public record SweepCell(
    long index, Map<String, String> point, String variant, long seed, ScenarioOptions options)
    implements Serializable {

  public SweepCell {
    point = Map.copyOf(point);
  }

  /** The cell's scenario: the options with the point's values. */
  public Scenario scenario(PluginRegistry registry) {
    return Scenario.resolve(
        registry,
        options,
        SweepPlan.part(point, SweepPlan.MACHINE_PREFIX),
        SweepPlan.part(point, ""),
        EngineSettings.parse(SweepPlan.items(SweepPlan.part(point, SweepPlan.ENGINE_PREFIX))));
  }

  /**
   * Runs the cell.
   *
   * @param metrics the metrics its row keeps
   * @throws IllegalArgumentException for bad input (an unknown plugin, a value out of range)
   */
  public SweepRow run(PluginRegistry registry, List<String> metrics) {
    Variant parsed = Variant.parseAll(List.of(variant), registry).get(0);
    return SweepRow.of(
        index,
        Metrics.of(Simulations.run(scenario(registry).config(registry, parsed, seed))),
        metrics);
  }
}
