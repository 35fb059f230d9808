package dev.schedlab.cli.report;

import dev.schedlab.cli.report.Metric.Better;
import java.awt.Paint;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * One metric of the comparison as a horizontal bar per variant: the metric's label as the title,
 * its better direction and the baseline in the subtitle, the value axis in the metric's unit, and
 * each bar labelled with its value and its change against the first variant, as the comparison
 * table prints them.
 */
final class MetricChart {

  static final int WIDTH = 560;

  private MetricChart() {}

  /** The chart of {@code key} over the variants' {@code metrics}, as SVG. */
  static String render(
      String key, List<String> variants, List<Map<String, Object>> metrics, int index) {
    Metric metric = metric(key);
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (int v = 0; v < variants.size(); v++) {
      double value = Metrics.number(metrics.get(v), key);
      data.addValue(Double.isNaN(value) ? null : value, key, variants.get(v));
    }
    double base = Metrics.number(metrics.get(0), key);

    CategoryAxis categories = SvgChart.axis(new CategoryAxis("variant"));
    NumberAxis values = SvgChart.axis(new NumberAxis(unitLabel(key, metric, metrics.get(0))));
    values.setAutoRangeIncludesZero(true);
    values.setNumberFormatOverride(SvgChart.NUMBER);
    if (metric.unit().isEmpty() && metric.better() != Better.WORKLOAD) {
      values.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    }
    if (allZero(metrics, key)) {
      // All bars empty: a unit range rather than JFreeChart's +-5e-9 around zero.
      values.setRange(0, 1);
    }
    // Room for the bar labels to the right of the longest bar.
    values.setUpperMargin(0.35);
    BarRenderer bars = new VariantBarRenderer();
    bars.setBarPainter(new StandardBarPainter());
    bars.setShadowVisible(false);
    bars.setMaximumBarWidth(0.6);
    bars.setDefaultItemLabelFont(SvgChart.TICK);
    bars.setDefaultItemLabelsVisible(true);
    bars.setDefaultItemLabelGenerator(new ValueAndChange(base));
    bars.setDefaultPositiveItemLabelPosition(
        new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3, TextAnchor.CENTER_LEFT));
    bars.setDefaultNegativeItemLabelPosition(
        new ItemLabelPosition(ItemLabelAnchor.OUTSIDE9, TextAnchor.CENTER_RIGHT));
    CategoryPlot plot = new CategoryPlot(data, categories, values, bars);
    plot.setOrientation(PlotOrientation.HORIZONTAL);
    plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
    plot.setRangeGridlinePaint(SvgChart.GRID);
    JFreeChart chart =
        new JFreeChart(title(key, metric, metrics.get(0)), SvgChart.TITLE, plot, false);
    SvgChart.style(
        chart,
        direction(metric, metrics.get(0))
            + (variants.size() > 1 ? "; change vs " + variants.get(0) : ""));
    int height = 90 + 26 * variants.size();
    return SvgChart.render(chart, WIDTH, height, "metric" + index, "metric " + key);
  }

  private static boolean allZero(List<Map<String, Object>> metrics, String key) {
    for (Map<String, Object> run : metrics) {
      double value = Metrics.number(run, key);
      if (value != 0 && !Double.isNaN(value)) {
        return false;
      }
    }
    return true;
  }

  /** The catalogue entry of {@code key}. */
  static Metric metric(String key) {
    for (Metric m : Metrics.METRICS) {
      if (m.key().equals(key)) {
        return m;
      }
    }
    throw new IllegalArgumentException("no metric " + key + " in the catalogue");
  }

  /** The title: the table's label, or for the workload's own metric its name. */
  static String title(String key, Metric metric, Map<String, Object> run) {
    if (metric.better() == Better.WORKLOAD) {
      return Metrics.workloadName(run);
    }
    return metric.label() != null ? metric.label() : key;
  }

  /** The value axis's label: the unit, or what is counted when a figure has no unit. */
  static String unitLabel(String key, Metric metric, Map<String, Object> run) {
    if (metric.better() == Better.WORKLOAD) {
      return String.valueOf(run.get("throughput_unit"));
    }
    return metric.unit().isEmpty() ? "count" : metric.unit();
  }

  /** Which way the figure improves, in words. */
  static String direction(Metric metric, Map<String, Object> run) {
    Better better = metric.better();
    if (better == Better.WORKLOAD) {
      better = Boolean.TRUE.equals(run.get("higher_is_better")) ? Better.HIGHER : Better.LOWER;
    }
    return switch (better) {
      case HIGHER -> "higher is better";
      case LOWER -> "lower is better";
      default -> "neither direction is better";
    };
  }

  /** Bars in the variant's colour of the page's legend, one category per variant. */
  private static final class VariantBarRenderer extends BarRenderer {
    private static final long serialVersionUID = 1L;

    @Override
    public Paint getItemPaint(int row, int column) {
      return HtmlReport.color(column);
    }
  }

  /** {@code 1.234 G (+5.1 %)}: the value as the table prints it and the change from the first. */
  private static final class ValueAndChange extends StandardCategoryItemLabelGenerator {
    private static final long serialVersionUID = 1L;
    private final double base;

    ValueAndChange(double base) {
      this.base = base;
    }

    @Override
    public String generateLabel(CategoryDataset dataset, int row, int column) {
      Number value = dataset.getValue(row, column);
      if (value == null) {
        return "-";
      }
      String text = TextTable.number(value.doubleValue());
      return column == 0 ? text : text + " (" + TextTable.change(base, value.doubleValue()) + ")";
    }
  }
}
