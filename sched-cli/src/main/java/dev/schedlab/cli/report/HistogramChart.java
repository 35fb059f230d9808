package dev.schedlab.cli.report;

import dev.schedlab.core.stats.Log2Histogram;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * A {@link Log2Histogram} per variant as grouped bars: the non-empty range of power-of-two
 * microsecond buckets across, labelled {@code [lo, hi)} as bpftrace's {@code hist()} prints them,
 * the count of samples up, one bar colour per variant with a legend.
 */
final class HistogramChart {

  static final int WIDTH = 1120;

  private HistogramChart() {}

  /**
   * The chart of {@code histograms} (one per variant, in the order of {@code variants}), or a line
   * saying there were no samples.
   *
   * @param what what the histogram holds, for the title ({@code ILB pass duration})
   * @param counted what one sample is, for the count axis ({@code passes})
   */
  static String render(
      String what,
      String counted,
      List<String> variants,
      List<Log2Histogram> histograms,
      String cssClass) {
    int first = Log2Histogram.BUCKETS;
    int last = -1;
    for (Log2Histogram h : histograms) {
      for (int b = 0; b < Log2Histogram.BUCKETS; b++) {
        if (h.bucket(b) != 0) {
          first = Math.min(first, b);
          last = Math.max(last, b);
        }
      }
    }
    if (last < 0) {
      return "<p class=\"" + cssClass + "\">" + HtmlReport.escape(what) + ": no samples</p>\n";
    }
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (int v = 0; v < variants.size(); v++) {
      for (int b = first; b <= last; b++) {
        String bucket =
            "[" + Log2Histogram.lowerBoundUs(b) + ", " + Log2Histogram.upperBoundUs(b) + ")";
        data.addValue(histograms.get(v).bucket(b), variants.get(v), bucket);
      }
    }
    CategoryAxis buckets = SvgChart.axis(new CategoryAxis(what + " (us, log2 buckets)"));
    if (last - first + 1 > 8) {
      buckets.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
    }
    NumberAxis counts = SvgChart.axis(new NumberAxis(counted));
    counts.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    BarRenderer bars = new BarRenderer();
    bars.setBarPainter(new StandardBarPainter());
    bars.setShadowVisible(false);
    bars.setItemMargin(0.05);
    for (int v = 0; v < variants.size(); v++) {
      bars.setSeriesPaint(v, HtmlReport.color(v));
    }
    CategoryPlot plot = new CategoryPlot(data, buckets, counts, bars);
    plot.setRangeGridlinePaint(SvgChart.GRID);
    JFreeChart chart = new JFreeChart(what, SvgChart.TITLE, plot, true);
    LegendTitle legend = chart.getLegend();
    legend.setPosition(RectangleEdge.TOP);
    SvgChart.style(chart, null);
    return SvgChart.render(chart, WIDTH, 340, cssClass.replace(' ', '-'), cssClass);
  }
}
