package dev.schedlab.cli.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.text.TextUtils;
import org.jfree.chart.title.TextTitle;
import org.jfree.svg.SVGGraphics2D;

/**
 * Draws a JFreeChart chart into inline SVG through JFreeSVG's {@link SVGGraphics2D}, the same way
 * for every chart of the {@link HtmlReport}: one font family, white plots with light grid lines,
 * and output that is the same bytes for the same chart. Each SVG gets its own prefix for the ids of
 * its clip paths ({@code defs}): JFreeSVG's default prefix holds the time of day, which would make
 * two renderings differ, and two inline SVGs of one page must not share ids.
 *
 * <p>The page is drawn in headless AWT: {@link HtmlReport#render} sets {@code java.awt.headless}
 * before the first chart loads AWT. Only {@code --html} reaches this class, so the other commands
 * never load AWT or JFreeChart (start-up time).
 */
final class SvgChart {

  /** The page's chart font: AWT's logical sans serif, which JFreeSVG writes as sans-serif. */
  static final String FONT = Font.SANS_SERIF;

  static final Font TITLE = new Font(FONT, Font.BOLD, 13);
  static final Font SUBTITLE = new Font(FONT, Font.PLAIN, 11);
  static final Font LABEL = new Font(FONT, Font.PLAIN, 12);
  static final Font TICK = new Font(FONT, Font.PLAIN, 10);

  static final Color GRID = new Color(0xdd, 0xdd, 0xdd);

  /**
   * Tick labels as the comparison table prints numbers: {@code 2 T}, {@code 1500}, {@code 0.25}.
   */
  static final NumberFormat NUMBER = new TableNumberFormat();

  static {
    // Rotated labels (the vertical axes') as SVG text, not glyph outlines: readable, searchable
    // and smaller. JFreeChart's default works around an old JDK bug with a TextLayout, whose
    // drawing JFreeSVG can only write as paths.
    TextUtils.setUseDrawRotatedStringWorkaround(false);
  }

  private SvgChart() {}

  /** {@code chart} as an {@code <svg>} element of {@code width} x {@code height} px. */
  static String render(JFreeChart chart, int width, int height, String id, String cssClass) {
    SVGGraphics2D g = new SVGGraphics2D(width, height);
    g.setDefsKeyPrefix(id + "-");
    // Two decimals are a hundredth of a pixel; the default's full precision only adds bytes.
    g.setGeomDoubleConverter(SvgChart::twoDecimals);
    chart.draw(g, new Rectangle2D.Double(0, 0, width, height));
    String svg = g.getSVGElement(id);
    return svg.replaceFirst("<svg ", "<svg class=\"" + cssClass + "\" ") + "\n";
  }

  /** The house look, applied to a chart built without ChartFactory's theme. */
  static void style(JFreeChart chart, String subtitle) {
    chart.setBackgroundPaint(Color.WHITE);
    chart.setAntiAlias(true);
    chart.setTextAntiAlias(true);
    if (chart.getTitle() != null) {
      chart.getTitle().setFont(TITLE);
    }
    if (subtitle != null) {
      TextTitle sub = new TextTitle(subtitle, SUBTITLE);
      chart.addSubtitle(0, sub);
    }
    if (chart.getLegend() != null) {
      chart.getLegend().setItemFont(LABEL);
      chart.getLegend().setFrame(org.jfree.chart.block.BlockBorder.NONE);
    }
    Plot plot = chart.getPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setOutlinePaint(Color.GRAY);
    plot.setOutlineStroke(new BasicStroke(0.5f));
  }

  /** An axis in the page's fonts. */
  static <A extends Axis> A axis(A axis) {
    axis.setLabelFont(LABEL);
    axis.setTickLabelFont(TICK);
    return axis;
  }

  /** {@link TextTable#number} as a {@link NumberFormat}, for axes; formatting only. */
  private static final class TableNumberFormat extends NumberFormat {
    private static final long serialVersionUID = 1L;

    @Override
    public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
      return toAppendTo.append(TextTable.number(number));
    }

    @Override
    public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
      return toAppendTo.append(TextTable.number(number));
    }

    @Override
    public Number parse(String source, ParsePosition parsePosition) {
      throw new UnsupportedOperationException("axis labels are never parsed");
    }
  }

  private static String twoDecimals(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return new BigDecimal(v)
        .setScale(2, RoundingMode.HALF_EVEN)
        .stripTrailingZeros()
        .toPlainString();
  }
}
