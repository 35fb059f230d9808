package dev.schedlab.cli.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CrosshairState;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYItemRendererState;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYDataset;
import org.jfree.data.xy.XYZDataset;

/**
 * A variant's per-CPU busy time as a heat map: simulated time in seconds across, CPU ids down, one
 * block per CPU and {@link Recording} bucket shaded by the fraction of the bucket the CPU ran a
 * task or balanced, with the colour scale as a legend. Busy fractions are shown in eleven steps (0,
 * 0.1, ... 1); idle time is the white plot, and adjacent buckets of one shade are one block.
 */
final class BusyHeatMap {

  static final int WIDTH = 1120;

  /** Shades of the colour scale: 0 (idle) to this (fully busy). */
  static final int SHADES = 10;

  private BusyHeatMap() {}

  /**
   * The heat map of {@code busy[cpu][bucket]} (fractions, null for CPUs not online), as SVG.
   *
   * @param bucketSeconds the simulated time a bucket spans
   */
  static String render(
      String title, double[][] busy, double bucketSeconds, double seconds, int id) {
    int firstCpu = -1;
    int lastCpu = -1;
    int runs = 0;
    for (int cpu = 0; cpu < busy.length; cpu++) {
      if (busy[cpu] != null) {
        firstCpu = firstCpu < 0 ? cpu : firstCpu;
        lastCpu = cpu;
        runs += runs(busy[cpu], null, null, 0, cpu, 0);
      }
    }
    // x: where a run of one shade starts (buckets), y: the CPU, z: the shade; widths: its length.
    double[][] series = new double[3][runs];
    double[] widths = new double[runs];
    int at = 0;
    for (int cpu = 0; cpu < busy.length; cpu++) {
      if (busy[cpu] != null) {
        at += runs(busy[cpu], series, widths, at, cpu, bucketSeconds);
      }
    }
    DefaultXYZDataset data = new DefaultXYZDataset();
    data.addSeries("busy", series);

    LookupPaintScale scale = new LookupPaintScale(0, 1.0 + 1e-9, Color.WHITE);
    for (int s = 0; s <= SHADES; s++) {
      scale.add(s == 0 ? 0 : (s - 0.5) / SHADES, shadeColor(s));
    }
    XYBlockRenderer blocksRenderer = new RunRenderer(widths);
    blocksRenderer.setBlockHeight(1);
    blocksRenderer.setBlockAnchor(RectangleAnchor.BOTTOM_LEFT);
    blocksRenderer.setPaintScale(scale);

    NumberAxis time = SvgChart.axis(new NumberAxis("simulated time (s)"));
    time.setRange(0, seconds);
    time.setLowerMargin(0);
    time.setUpperMargin(0);
    NumberAxis cpus = SvgChart.axis(new NumberAxis("CPU"));
    // CPU 0 at the top, as in a listing; block y spans [cpu, cpu + 1).
    cpus.setInverted(true);
    cpus.setRange(firstCpu, lastCpu + 1.0);
    int rows = lastCpu - firstCpu + 1;
    cpus.setTickUnit(new NumberTickUnit(cpuTickStep(rows)));
    XYPlot plot = new XYPlot(data, time, cpus, blocksRenderer);
    plot.setDomainGridlinesVisible(false);
    plot.setRangeGridlinesVisible(false);
    plot.setAxisOffset(RectangleInsets.ZERO_INSETS);

    JFreeChart chart = new JFreeChart(title, SvgChart.TITLE, plot, false);
    SvgChart.style(
        chart,
        "shade: fraction of each "
            + TextTable.number(bucketSeconds * 1e3)
            + " ms bucket the CPU ran a task or balanced; white: idle");
    NumberAxis legendAxis = SvgChart.axis(new NumberAxis("busy fraction"));
    legendAxis.setRange(0, 1);
    legendAxis.setTickUnit(new NumberTickUnit(0.2));
    PaintScaleLegend legend = new PaintScaleLegend(scale, legendAxis);
    legend.setPosition(RectangleEdge.RIGHT);
    legend.setAxisLocation(AxisLocation.BOTTOM_OR_RIGHT);
    legend.setStripWidth(14);
    legend.setStripOutlineVisible(true);
    legend.setSubdivisionCount(SHADES + 1);
    legend.setMargin(new RectangleInsets(30, 10, 50, 10));
    legend.setBackgroundPaint(Color.WHITE);
    chart.addSubtitle(legend);
    int height = 130 + Math.max(160, Math.min(720, rows * 4));
    return SvgChart.render(chart, WIDTH, height, "heatmap" + id, "heatmap");
  }

  /**
   * Counts the runs of one non-zero shade in {@code row}, the buckets of {@code cpu}, and when
   * {@code series} is given writes them to it from {@code at} on.
   */
  private static int runs(
      double[] row, double[][] series, double[] widths, int at, int cpu, double bucketSeconds) {
    int count = 0;
    int start = 0;
    int shade = -1;
    for (int b = 0; b <= row.length; b++) {
      int s = b == row.length ? -1 : shade(row[b]);
      if (s != shade) {
        if (shade > 0) {
          if (series != null) {
            series[0][at + count] = start * bucketSeconds;
            series[1][at + count] = cpu;
            series[2][at + count] = (double) shade / SHADES;
            widths[at + count] = (b - start) * bucketSeconds;
          }
          count++;
        }
        start = b;
        shade = s;
      }
    }
    return count;
  }

  /**
   * XYBlockRenderer with a width per item: a run of buckets of one shade is one block, so that a
   * large machine's heat map holds a rectangle per change of shade instead of one per bucket, and
   * the blocks are filled only (the stock renderer also strokes each one).
   */
  private static final class RunRenderer extends XYBlockRenderer {
    private static final long serialVersionUID = 1L;
    private final double[] widths;

    RunRenderer(double[] widths) {
      this.widths = widths;
    }

    @Override
    public void drawItem(
        Graphics2D g2,
        XYItemRendererState state,
        Rectangle2D dataArea,
        PlotRenderingInfo info,
        XYPlot plot,
        ValueAxis domainAxis,
        ValueAxis rangeAxis,
        XYDataset dataset,
        int series,
        int item,
        CrosshairState crosshairState,
        int pass) {
      double x = dataset.getXValue(series, item);
      double y = dataset.getYValue(series, item);
      double z = ((XYZDataset) dataset).getZValue(series, item);
      RectangleEdge xEdge = plot.getDomainAxisEdge();
      RectangleEdge yEdge = plot.getRangeAxisEdge();
      double x0 = domainAxis.valueToJava2D(x, dataArea, xEdge);
      double x1 = domainAxis.valueToJava2D(x + widths[item], dataArea, xEdge);
      double y0 = rangeAxis.valueToJava2D(y, dataArea, yEdge);
      double y1 = rangeAxis.valueToJava2D(y + getBlockHeight(), dataArea, yEdge);
      g2.setPaint(getPaintScale().getPaint(z));
      g2.fill(
          new Rectangle2D.Double(
              Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0)));
    }
  }

  /** A CPU tick every 1, 2, 4, ... CPUs: about twenty ticks however large the machine. */
  static int cpuTickStep(int rows) {
    int step = 1;
    while (rows / step > 20) {
      step *= 2;
    }
    return step;
  }

  /** 0 (idle) to {@link #SHADES} (fully busy). */
  static int shade(double fraction) {
    return (int) Math.round(Math.max(0, Math.min(1, fraction)) * SHADES);
  }

  private static Color shadeColor(int shade) {
    int level = 255 - shade * 22;
    return new Color(level, level, 255);
  }
}
