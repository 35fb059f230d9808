package dev.schedlab.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.report.Metric.Better;
import dev.schedlab.cli.report.Metric.Use;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The metric tables of {@code docs/reports.md} (the comparison table's rows, the other JSON/CSV
 * keys, sweep's default metrics) are the catalogue rendered: the page's generated sections equal
 * what {@link Metrics#CATALOGUE} says now, so a metric added, renamed or redocumented in the
 * catalogue fails here until the page follows. With {@code -Dschedlab.writeDocs=true} the test
 * rewrites the sections first: {@code mvn -o test -pl sched-cli -am -Dtest=MetricDocTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dschedlab.writeDocs=true}.
 */
final class MetricDocTest {

  /** The page, from sched-cli's directory (surefire's working directory). */
  private static final Path PAGE = Path.of("..", "docs", "reports.md");

  @Test
  void reportsPage_generatedSections_matchTheCatalogue() throws IOException {
    String page = Files.readString(PAGE);
    String expected = render(page);
    if (Boolean.getBoolean("schedlab.writeDocs") && !expected.equals(page)) {
      Files.writeString(PAGE, expected);
      page = expected;
    }

    assertThat(page)
        .as(
            "docs/reports.md's metric tables are generated from Metrics.CATALOGUE; rerun with"
                + " -Dschedlab.writeDocs=true to rewrite them")
        .isEqualTo(expected);
  }

  @Test
  void catalogue_keysUnique_everyFigureDocumented_rowsAndNumbersLabelled() {
    Set<String> keys = new HashSet<>();
    for (Metric m : Metrics.METRICS) {
      assertThat(keys.add(m.key())).as("key %s declared once", m.key()).isTrue();
      assertThat(m.counts()).as("what %s counts", m.key()).isNotBlank();
      assertThat(m.kernel()).as("kernel counterpart of %s", m.key()).isNotBlank();
      if (m.is(Use.TABLE)) {
        assertThat(m.label()).as("%s, a row, has a label", m.key()).isNotNull();
      }
      if (m.is(Use.NUMBER) && m.better() != Metric.Better.WORKLOAD) {
        // A sweep's --metric row names it: no raw key in a table.
        assertThat(m.label()).as("%s, a number, has a label", m.key()).isNotNull();
      }
    }
    for (Metrics.Family f : Metrics.FAMILIES) {
      assertThat(f.counts()).as("what %s counts", f.patterns()).isNotBlank();
      assertThat(f.prefixes()).allMatch(p -> !p.isEmpty() && p.endsWith("_"));
    }
    assertThat(Metrics.SWEEP_DEFAULTS).allMatch(Metrics.NUMBERS::contains);
    assertThat(Metrics.CHART).allMatch(Metrics.NUMBERS::contains);
  }

  /** {@code page} with its generated sections replaced by the catalogue's. */
  static String render(String page) {
    String out = replace(page, "metrics:table", tableRows());
    out = replace(out, "metrics:other", otherKeys());
    return replace(out, "metrics:sweep", sweepDefaults());
  }

  private static String tableRows() {
    StringBuilder out =
        new StringBuilder(
            "| row | key | better | what it counts | kernel counterpart |\n|---|---|---|---|---|\n");
    for (Metric m : Metrics.METRICS) {
      if (m.is(Use.TABLE)) {
        out.append(row(m.label(), code(m.key()), better(m.better()), m.counts(), m.kernel()));
      }
    }
    return out.toString();
  }

  private static String otherKeys() {
    StringBuilder out =
        new StringBuilder(
            "| key | unit | what it counts | kernel counterpart |\n|---|---|---|---|\n");
    Set<String> families = new LinkedHashSet<>();
    for (Metrics.Entry entry : Metrics.CATALOGUE) {
      if (entry instanceof Metric m && !m.is(Use.TABLE)) {
        if (m.family() == null) {
          out.append(row(code(m.key()), m.unit(), m.counts(), m.kernel()));
        } else if (families.add(m.family())) {
          out.append(row(code(m.family()), m.unit(), m.counts(), m.kernel()));
        }
      } else if (entry instanceof Metrics.Family f) {
        out.append(
            row(
                String.join(", ", f.patterns().stream().map(MetricDocTest::code).toList()),
                "",
                f.counts(),
                f.kernel()));
      }
    }
    return out.toString();
  }

  private static String sweepDefaults() {
    List<String> keys = Metrics.SWEEP_DEFAULTS.stream().map(MetricDocTest::code).toList();
    return "The default metrics are "
        + String.join(", ", keys.subList(0, keys.size() - 1))
        + " and "
        + keys.get(keys.size() - 1)
        + ".\n";
  }

  private static String replace(String page, String section, String body) {
    String open = "<!-- " + section + " ";
    String close = "<!-- /" + section + " -->";
    int start = page.indexOf(open);
    int end = page.indexOf(close);
    assertThat(start).as("docs/reports.md has the section %s", section).isNotNegative();
    assertThat(end).as("docs/reports.md closes the section %s", section).isGreaterThan(start);
    int bodyStart = page.indexOf('\n', start) + 1;
    return page.substring(0, bodyStart) + body + page.substring(end);
  }

  private static String row(String... cells) {
    StringBuilder out = new StringBuilder("|");
    for (String cell : cells) {
      out.append(' ').append(cell.isEmpty() ? "—" : cell).append(" |");
    }
    return out.append('\n').toString();
  }

  private static String code(String key) {
    return "`" + key + "`";
  }

  private static String better(Better better) {
    return switch (better) {
      case HIGHER -> "higher";
      case LOWER -> "lower";
      case NEITHER -> "—";
      case WORKLOAD -> "as the workload says";
    };
  }
}
