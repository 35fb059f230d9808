package dev.schedlab.spark;

import dev.schedlab.cli.Main;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The main class for spark-submit: {@code spark-submit --class dev.schedlab.spark.SparkSweep
 * schedlab-spark.jar sweep ARGS}, where ARGS are those of {@code schedlab sweep}. It runs the
 * command line with the Spark engine as the sweep's default, in the session spark-submit set up,
 * and exits as {@code schedlab} does (2 on bad input, with one line on stderr).
 */
public final class SparkSweep {

  private SparkSweep() {}

  /** Runs {@code sweep ARGS} on Spark. */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    int code = Main.run(arguments(args), out, System.err);
    out.flush();
    System.exit(code);
  }

  /**
   * {@code args} with {@code --engine spark} after {@code sweep}; a later {@code --engine} in
   * {@code args} still wins, as the last value of a repeated option does.
   */
  static String[] arguments(String[] args) {
    List<String> list = new ArrayList<>(List.of(args));
    if (!list.isEmpty() && list.get(0).equals("sweep")) {
      list.addAll(1, List.of("--engine", "spark"));
    }
    return list.toArray(String[]::new);
  }
}
