package dev.schedlab.cli.command;

import dev.schedlab.cli.args.RunSpec;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.report.Metrics;
import dev.schedlab.cli.sweep.SweepCell;
import dev.schedlab.cli.sweep.SweepContext;
import dev.schedlab.cli.sweep.SweepEngine;
import dev.schedlab.cli.sweep.SweepPlan;
import dev.schedlab.cli.sweep.SweepRow;
import dev.schedlab.spi.PluginRegistry;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code --engine local}: the cells on this machine's cores, through the same {@link Runner} as
 * {@code compare}, with every grid point's scenario resolved by the command beforehand.
 */
final class LocalSweepEngine implements SweepEngine {

  private final Cli cli;
  private final PluginRegistry registry;
  private final List<Scenario> scenarios;
  private final List<Variant> variants;

  /**
   * @param scenarios each grid point's scenario, in plan order
   * @param variants the plan's variants, parsed
   */
  LocalSweepEngine(
      Cli cli, PluginRegistry registry, List<Scenario> scenarios, List<Variant> variants) {
    this.cli = cli;
    this.registry = registry;
    this.scenarios = scenarios;
    this.variants = variants;
  }

  @Override
  public String id() {
    return "local";
  }

  @Override
  public void run(SweepPlan plan, BitSet done, Consumer<SweepRow> rows, SweepContext context) {
    List<RunSpec> specs = new ArrayList<>();
    List<Long> cells = new ArrayList<>();
    int perPoint = variants.size() * plan.seedCount();
    for (long index = done.nextClearBit(0);
        index < plan.cellCount();
        index = done.nextClearBit((int) index + 1)) {
      SweepCell cell = plan.cell(index);
      int point = (int) (index / perPoint);
      Variant variant = variants.get((int) (index % perPoint) / plan.seedCount());
      specs.add(new RunSpec(variant, cell.seed(), cell.point(), scenarios.get(point)));
      cells.add(index);
    }
    int threads =
        context.threads() == null ? Runtime.getRuntime().availableProcessors() : context.threads();
    boolean progress = context.interactive() && !context.quiet();
    Object lock = new Object();
    Runner.run(
        cli,
        registry,
        scenarios.get(0),
        specs,
        threads,
        Runner.Record.NONE,
        progress,
        (i, outcome) -> {
          SweepRow row = SweepRow.of(cells.get(i), Metrics.of(outcome.result()), plan.metrics());
          synchronized (lock) {
            rows.accept(row);
          }
        });
  }
}
