package dev.schedlab.oracle;

import dev.schedlab.oracle.compare.DomainComparison;
import dev.schedlab.oracle.guest.Accelerator;
import dev.schedlab.oracle.guest.OracleException;
import dev.schedlab.oracle.guest.RandomShapes;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The random-shape domain suite: boots each drawn shape, compares its domains and writes one line
 * per shape (shape, kernel arguments, CPUs, outcome, boot seconds, first unexplained difference) to
 * a TSV file as it goes, then a summary: shapes tried, booted, matched, and every kind of
 * difference with its count.
 */
public final class DomainSuite {

  private final KernelOracle oracle;
  private final Path workRoot;

  /** A suite booting with {@code oracle}, each shape's files under {@code workRoot}. */
  public DomainSuite(KernelOracle oracle, Path workRoot) {
    this.oracle = oracle;
    this.workRoot = workRoot;
  }

  /**
   * The outcome of one shape.
   *
   * @param drawn the shape and its arguments
   * @param outcome {@code match}, {@code differ} or {@code no-boot}
   * @param bootSeconds the boot's wall time, NaN without one
   * @param detail the first unexplained difference or the failure
   * @param differenceFields the fields that differ (unexplained), for the summary
   */
  public record Outcome(
      RandomShapes.Drawn drawn,
      String outcome,
      double bootSeconds,
      String detail,
      List<String> differenceFields) {}

  /** Runs every shape, appending each outcome to {@code tsv}; returns the summary text. */
  public String run(List<RandomShapes.Drawn> shapes, Path tsv, PrintStream progress) {
    List<Outcome> outcomes = new ArrayList<>();
    try {
      Files.createDirectories(workRoot);
      Files.writeString(tsv, "shape\tkernel_args\tcpus\toutcome\tboot_s\tdetail\n");
      int n = 0;
      for (RandomShapes.Drawn d : shapes) {
        n++;
        Outcome o = runOne(d, workRoot.resolve("shape-" + n));
        outcomes.add(o);
        String line =
            String.join(
                "\t",
                d.shape().toString(),
                d.kernelArguments(),
                Integer.toString(d.shape().cpus()),
                o.outcome(),
                String.format(Locale.ROOT, "%.1f", o.bootSeconds()),
                o.detail());
        Files.writeString(tsv, line + "\n", java.nio.file.StandardOpenOption.APPEND);
        progress.println("shape " + n + "/" + shapes.size() + ": " + line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return summary(outcomes);
  }

  private Outcome runOne(RandomShapes.Drawn d, Path work) {
    try {
      KernelOracle.DomainResult r =
          oracle.domains(
              new KernelOracle.Request(
                  d.shape(), d.kernelArguments(), null, Accelerator.TCG, work));
      DomainComparison c = r.comparison();
      List<DomainComparison.Difference> bad = c.unexplained();
      double seconds = r.boot().elapsed().toMillis() / 1e3;
      if (bad.isEmpty() && r.kernelDomains().errors().isEmpty()) {
        return new Outcome(
            d,
            "match",
            seconds,
            c.differences().isEmpty() ? "" : c.differences().size() + " explained",
            List.of());
      }
      String detail = bad.isEmpty() ? r.kernelDomains().errors().get(0) : bad.get(0).toString();
      return new Outcome(
          d,
          "differ",
          seconds,
          detail,
          bad.stream().map(DomainComparison.Difference::field).distinct().toList());
    } catch (OracleException e) {
      return new Outcome(d, "no-boot", Double.NaN, e.getMessage(), List.of());
    }
  }

  /** Counts per outcome and per differing field. */
  public static String summary(List<Outcome> outcomes) {
    Map<String, Integer> byOutcome = new LinkedHashMap<>();
    Map<String, Integer> byField = new LinkedHashMap<>();
    for (Outcome o : outcomes) {
      byOutcome.merge(o.outcome(), 1, Integer::sum);
      o.differenceFields().forEach(f -> byField.merge(f, 1, Integer::sum));
    }
    return "shapes tried: " + outcomes.size() + "; " + byOutcome + "; differing fields: " + byField;
  }
}
