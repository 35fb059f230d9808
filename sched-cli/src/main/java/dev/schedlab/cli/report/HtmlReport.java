package dev.schedlab.cli.report;

import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.core.stats.Log2Histogram;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.Topology;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML page (no scripts, styles inline, nothing fetched) with the comparison table
 * and three kinds of inline SVG chart: metric bars per variant, a per-CPU busy heat map over time
 * for each variant (from the runs' {@link Recording}s), and the log2 histograms of ILB pass
 * duration and rq-lock hold.
 */
public final class HtmlReport {

  private static final String[] COLORS = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"
  };

  private HtmlReport() {}

  /** The page for {@code report}. */
  public static String render(ComparisonReport report) {
    StringBuilder out = new StringBuilder(1 << 16);
    Scenario scenario = report.scenario();
    out.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>schedlab: ")
        .append(escape(scenario.describe()))
        .append("</title>\n")
        .append("<style>body{font-family:sans-serif;margin:2em;max-width:1200px}")
        .append("table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}")
        .append("td:first-child,th:first-child{text-align:left}")
        .append("tr:nth-child(even){background:#f4f4f4}")
        .append("pre{background:#f8f8f8;padding:8px;overflow-x:auto}")
        .append("svg{display:block;margin:1em 0}")
        .append("</style></head><body>\n");
    out.append("<h1>schedlab comparison</h1>\n<p>")
        .append(escape(scenario.describe()))
        .append(
            String.format(
                Locale.ROOT,
                "; %s s simulated, seed %d, HZ %d</p>\n",
                TextTable.number(scenario.durationNs() / 1e9),
                scenario.seed(),
                scenario.hz()));
    out.append("<ul>\n");
    for (int i = 0; i < report.outcomes().size(); i++) {
      Variant v = report.outcomes().get(i).spec().variant();
      out.append("<li><span style=\"color:")
          .append(color(i))
          .append("\">&#9632;</span> <b>")
          .append(escape(v.name()))
          .append("</b> = ")
          .append(escape(String.join(" + ", v.pluginNames())))
          .append("</li>\n");
    }
    out.append("</ul>\n");
    out.append("<h2>Metrics</h2>\n").append(metricBars(report));
    out.append("<h2>Per-CPU busy time</h2>\n").append(heatMaps(report));
    out.append("<h2>Histograms</h2>\n");
    out.append(histogram(report, "ILB pass duration (us)", true));
    out.append(histogram(report, "rq-lock hold during balancing (us)", false));
    out.append("<h2>Report</h2>\n<pre>").append(escape(report.table())).append("</pre>\n");
    out.append("</body></html>\n");
    return out.toString();
  }

  private static String metricBars(ComparisonReport report) {
    List<Map<String, Object>> metrics = report.metrics();
    int variants = metrics.size();
    int labelWidth = 260;
    int barArea = 600;
    int barHeight = 14;
    int rowHeight = variants * barHeight + 10;
    int height = Metrics.CHART.size() * rowHeight + 10;
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg class=\"metrics\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-size=\"12\">%n",
            labelWidth + barArea + 120,
            height));
    for (int m = 0; m < Metrics.CHART.size(); m++) {
      String key = Metrics.CHART.get(m);
      double max = 0;
      for (Map<String, Object> values : metrics) {
        max = Math.max(max, Math.abs(Metrics.number(values, key)));
      }
      int y = 5 + m * rowHeight;
      String label =
          key.equals("throughput")
              ? "throughput (" + metrics.get(0).get("throughput_unit") + ")"
              : key;
      svg.append(
          String.format(
              Locale.ROOT, "<text x=\"0\" y=\"%d\">%s</text>%n", y + rowHeight / 2, escape(label)));
      for (int v = 0; v < variants; v++) {
        double value = Metrics.number(metrics.get(v), key);
        double width = max == 0 || Double.isNaN(value) ? 0 : Math.abs(value) / max * barArea;
        int by = y + v * barHeight;
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"%d\">%s</text>%n",
                labelWidth,
                by,
                width,
                barHeight - 2,
                color(v),
                labelWidth + width + 4,
                by + barHeight - 4,
                escape(TextTable.number(value))));
      }
    }
    return svg.append("</svg>\n").toString();
  }

  private static String heatMaps(ComparisonReport report) {
    StringBuilder out = new StringBuilder();
    Topology topology = report.scenario().hardware().topology();
    CpuMask online = topology.onlineMask();
    int cpus = online.weight();
    int rowHeight = cpus > 512 ? 1 : cpus > 128 ? 2 : cpus > 32 ? 4 : 8;
    for (RunOutcome o : report.outcomes()) {
      Recording r = o.recording();
      out.append("<h3>").append(escape(o.spec().variant().name())).append("</h3>\n");
      int buckets = r.bucketCount();
      int cellWidth = Math.max(2, 600 / buckets);
      int width = 60 + buckets * cellWidth;
      int height = cpus * rowHeight + 30;
      out.append(
          String.format(
              Locale.ROOT,
              "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                  + " font-size=\"11\">%n",
              width,
              height));
      int row = 0;
      for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu), row++) {
        int y = row * rowHeight;
        // Adjacent cells of one shade merge into one rectangle, keeping big machines small.
        int runStart = 0;
        int runShade = -1;
        for (int b = 0; b <= buckets; b++) {
          int shade = b == buckets ? -2 : shade(r.busyFraction(cpu, b));
          if (shade != runShade) {
            if (runShade > 0) {
              out.append(
                  String.format(
                      Locale.ROOT,
                      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>",
                      60 + runStart * cellWidth,
                      y,
                      (b - runStart) * cellWidth,
                      rowHeight,
                      shadeColor(runShade)));
            }
            runStart = b;
            runShade = shade;
          }
        }
        if (row % Math.max(1, 16 / rowHeight) == 0) {
          out.append(
              String.format(
                  Locale.ROOT,
                  "<text x=\"0\" y=\"%d\">CPU %d</text>",
                  y + Math.max(rowHeight, 9),
                  cpu));
        }
        out.append('\n');
      }
      String axis =
          "time: 0 to "
              + TextTable.number(report.scenario().durationNs() / 1e9)
              + " s; darker = busier (task or balancing)";
      out.append(
          String.format(
              Locale.ROOT,
              "<text x=\"60\" y=\"%d\">%s</text>%n",
              cpus * rowHeight + 20,
              escape(axis)));
      out.append("</svg>\n");
    }
    return out.toString();
  }

  /** 0 (idle) to 10 (fully busy). */
  private static int shade(double fraction) {
    return (int) Math.round(Math.max(0, Math.min(1, fraction)) * 10);
  }

  private static String shadeColor(int shade) {
    int level = 255 - shade * 22;
    return String.format(Locale.ROOT, "rgb(%d,%d,255)", level, level);
  }

  private static String histogram(ComparisonReport report, String title, boolean ilb) {
    List<RunOutcome> outcomes = report.outcomes();
    int first = Log2Histogram.BUCKETS;
    int last = -1;
    long peak = 1;
    for (RunOutcome o : outcomes) {
      Log2Histogram h = ilb ? o.result().ilbDuration() : o.result().rqLockHold();
      for (int b = 0; b < Log2Histogram.BUCKETS; b++) {
        if (h.bucket(b) != 0) {
          first = Math.min(first, b);
          last = Math.max(last, b);
          peak = Math.max(peak, h.bucket(b));
        }
      }
    }
    StringBuilder svg = new StringBuilder();
    String css = ilb ? "histogram ilb" : "histogram rqlock";
    if (last < 0) {
      return svg.append("<svg class=\"")
          .append(css)
          .append("\" xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"30\"")
          .append(" font-size=\"12\"><text x=\"0\" y=\"20\">")
          .append(escape(title))
          .append(": no samples</text></svg>\n")
          .toString();
    }
    int groups = last - first + 1;
    int barWidth = 12;
    int groupWidth = outcomes.size() * barWidth + 16;
    int plotHeight = 160;
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg class=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-size=\"11\">%n<text x=\"0\" y=\"14\">%s</text>%n",
            css,
            50 + groups * groupWidth,
            plotHeight + 60,
            escape(title)));
    for (int g = 0; g < groups; g++) {
      int bucket = first + g;
      int x = 50 + g * groupWidth;
      for (int v = 0; v < outcomes.size(); v++) {
        Log2Histogram h =
            ilb ? outcomes.get(v).result().ilbDuration() : outcomes.get(v).result().rqLockHold();
        double height = (double) h.bucket(bucket) / peak * plotHeight;
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\">"
                    + "<title>%s: %d</title></rect>",
                x + v * barWidth,
                20 + plotHeight - height,
                barWidth - 1,
                height,
                color(v),
                escape(outcomes.get(v).spec().variant().name()),
                h.bucket(bucket)));
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\">[%d,%d)</text>%n",
              x,
              plotHeight + 36 + (g % 2) * 12,
              Log2Histogram.lowerBoundUs(bucket),
              Log2Histogram.upperBoundUs(bucket)));
    }
    return svg.append("</svg>\n").toString();
  }

  private static String color(int index) {
    return COLORS[index % COLORS.length];
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
