package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.sweep.SweepEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The sweep engines other than the local one, found through {@link ServiceLoader} on the class
 * path: the plain CLI jar has none, sweep-spark's jar adds {@code spark}.
 */
final class SweepEngines {

  private SweepEngines() {}

  /**
   * The engine named {@code id}.
   *
   * @throws BadInputException naming the engines there are, and for {@code spark} how to get it
   */
  static SweepEngine find(String id) {
    List<String> known = new ArrayList<>(List.of(SweepCommand.LOCAL));
    for (SweepEngine engine :
        ServiceLoader.load(SweepEngine.class, SweepEngines.class.getClassLoader())) {
      if (engine.id().equals(id)) {
        return engine;
      }
      known.add(engine.id());
    }
    String hint =
        id.equals("spark") && !known.contains("spark")
            ? "; Spark is not on this class path: run `./schedlab sweep --engine spark ...`, which"
                + " adds sweep-spark's, or spark-submit sweep-spark/target/schedlab-spark.jar"
            : "";
    throw new BadInputException(
        "--engine " + id + ": unknown; allowed: " + String.join(", ", known) + hint);
  }
}
