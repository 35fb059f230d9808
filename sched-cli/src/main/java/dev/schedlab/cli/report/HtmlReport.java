package dev.schedlab.cli.report;

import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.core.stats.Log2Histogram;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML page (no scripts, styles inline, nothing fetched) with the comparison table
 * and three kinds of inline SVG chart drawn with JFreeChart through JFreeSVG ({@link SvgChart}): a
 * bar chart per metric with its unit, better direction and change against the first variant ({@link
 * MetricChart}), a per-CPU busy heat map over simulated time for each variant with its colour scale
 * ({@link BusyHeatMap}, from the runs' {@link Recording}s), and the log2 histograms of ILB pass
 * duration and rq-lock hold ({@link HistogramChart}). The same runs give the same bytes.
 */
public final class HtmlReport {

  private static final String[] COLORS = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"
  };

  private HtmlReport() {}

  /** The page for {@code report}. */
  public static String render(ComparisonReport report) {
    // Before the first chart class loads AWT: no display is needed, or looked for.
    System.setProperty("java.awt.headless", "true");
    StringBuilder out = new StringBuilder(1 << 18);
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
        .append(".charts{display:flex;flex-wrap:wrap;gap:8px}")
        .append("svg{display:block;margin:0.5em 0}")
        // No anti-aliased seams between the heat map's adjacent blocks.
        .append("svg.heatmap rect{shape-rendering:crispEdges}")
        .append("</style></head><body>\n");
    out.append(
            report.outcomes().size() == 1
                ? "<h1>schedlab run</h1>\n<p>"
                : "<h1>schedlab comparison</h1>\n<p>")
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
          .append(cssColor(i))
          .append("\">&#9632;</span> <b>")
          .append(escape(v.name()))
          .append("</b> = ")
          .append(escape(String.join(" + ", v.pluginNames())))
          .append("</li>\n");
    }
    out.append("</ul>\n");
    List<String> variants = new ArrayList<>();
    for (RunOutcome o : report.outcomes()) {
      variants.add(o.spec().variant().name());
    }
    out.append("<h2 id=\"metrics\">Metrics</h2>\n<div class=\"charts\">\n");
    List<Map<String, Object>> metrics = report.metrics();
    for (int m = 0; m < Metrics.CHART.size(); m++) {
      out.append(MetricChart.render(Metrics.CHART.get(m), variants, metrics, m));
    }
    out.append("</div>\n<h2 id=\"busy\">Per-CPU busy time</h2>\n").append(heatMaps(report));
    out.append("<h2 id=\"histograms\">Histograms</h2>\n");
    List<Log2Histogram> ilb = new ArrayList<>();
    List<Log2Histogram> lock = new ArrayList<>();
    for (RunOutcome o : report.outcomes()) {
      ilb.add(o.result().ilbDuration());
      lock.add(o.result().rqLockHold());
    }
    out.append(
        HistogramChart.render("ILB pass duration", "passes", variants, ilb, "histogram ilb"));
    out.append(
        HistogramChart.render(
            "rq-lock hold during balancing", "holds", variants, lock, "histogram rqlock"));
    out.append("<h2 id=\"report\">Report</h2>\n<pre>")
        .append(escape(report.table()))
        .append("</pre>\n");
    out.append("</body></html>\n");
    return out.toString();
  }

  private static String heatMaps(ComparisonReport report) {
    StringBuilder out = new StringBuilder();
    Topology topology = report.scenario().hardware().topology();
    CpuMask online = topology.onlineMask();
    long durationNs = report.scenario().durationNs();
    List<RunOutcome> outcomes = report.outcomes();
    for (int v = 0; v < outcomes.size(); v++) {
      Recording r = outcomes.get(v).recording();
      int buckets = r.bucketCount();
      double[][] busy = new double[topology.nrCpuIds()][];
      for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
        busy[cpu] = new double[buckets];
        for (int b = 0; b < buckets; b++) {
          busy[cpu][b] = r.busyFraction(cpu, b);
        }
      }
      // The recording's bucket: the run's time in Recording.BUCKETS parts, rounded up to a ns.
      long bucketNs = Math.max(1, (durationNs + Recording.BUCKETS - 1) / Recording.BUCKETS);
      String title = "per-CPU busy time: " + outcomes.get(v).spec().variant().name();
      out.append(BusyHeatMap.render(title, busy, bucketNs / 1e9, durationNs / 1e9, v));
    }
    return out.toString();
  }

  /** The colour of variant {@code index}, the same in the legend and every chart. */
  static java.awt.Color color(int index) {
    return java.awt.Color.decode(COLORS[index % COLORS.length]);
  }

  private static String cssColor(int index) {
    return COLORS[index % COLORS.length];
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
