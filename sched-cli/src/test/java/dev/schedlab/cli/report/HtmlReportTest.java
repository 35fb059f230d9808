package dev.schedlab.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.TestScenarios;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The HTML page's charts are JFreeChart drawings in inline SVG: each SVG parses as XML (DTDs and
 * external entities off) and holds its axes' labels with units, tick labels, legend and colour
 * scale text; the same runs give the same SVG bytes; and a comparison without {@code --html} loads
 * no AWT or JFreeChart class.
 */
final class HtmlReportTest {

  private static final List<String> SCENARIO = TestScenarios.schbenchCompare("20ms");

  private static final Pattern SVG =
      Pattern.compile("<svg class=\"([^\"]*)\".*?</svg>", Pattern.DOTALL);

  @TempDir Path dir;

  @Test
  void everyChart_isWellFormedSvg_withAxesUnitsTicksAndLegends() throws Exception {
    List<String[]> charts = charts(page("a.html"));
    assertThat(charts).extracting(c -> c[0]).contains("metric throughput", "metric busy_pct");
    assertThat(charts).extracting(c -> c[0]).filteredOn("heatmap"::equals).hasSize(2);
    for (String[] chart : charts) {
      List<String> text = texts(chart[1]);
      switch (chart[0]) {
        case "metric busy_pct" ->
            assertThat(text)
                .contains("CPU busy (%)", "%", "variant", "old", "new")
                .contains("neither direction is better; change vs old")
                .anyMatch(t -> t.matches("\\d+(\\.\\d+)? \\([+-]\\d+\\.\\d %\\)"))
                .anyMatch(t -> t.matches("\\d+"));
        case "metric smt_contention" ->
            assertThat(text)
                .contains("SMT contention (idle->task, sibling busy)", "count")
                .contains("lower is better; change vs old");
        case "metric throughput" ->
            assertThat(text).anyMatch(t -> t.endsWith("is better; change vs old"));
        case "heatmap" ->
            assertThat(text)
                .contains("simulated time (s)", "CPU", "busy fraction", "0", "0.2", "1", "15")
                .anyMatch(t -> t.startsWith("per-CPU busy time: "))
                .anyMatch(t -> t.startsWith("shade: fraction of each 0.2 ms bucket"));
        case "histogram ilb" ->
            assertThat(text)
                .contains("ILB pass duration", "ILB pass duration (us, log2 buckets)", "passes")
                .contains("old", "new")
                .anyMatch(t -> t.matches("\\[\\d+, \\d+\\)"));
        case "histogram rqlock" ->
            assertThat(text).contains("rq-lock hold during balancing (us, log2 buckets)", "holds");
        default -> assertThat(chart[0]).startsWith("metric ");
      }
    }
  }

  @Test
  void heading_saysRunForOneVariant_comparisonForSeveral() throws IOException {
    assertThat(page("compare.html")).contains("<h1>schedlab comparison</h1>");
    Path html = dir.resolve("run.html");
    List<String> args = new ArrayList<>(SCENARIO.subList(1, SCENARIO.size() - 4));
    args.add(0, "run");
    args.addAll(List.of("--variant", "new=mainline-7.3", "--html", html.toString()));
    Invocation.of(args).assertOkWrote(html.toString());
    assertThat(Files.readString(html))
        .contains("<h1>schedlab run</h1>")
        .doesNotContain("comparison");
  }

  @Test
  void sameRuns_sameSvgBytes() throws IOException {
    // The page's table carries wall-clock figures; the charts carry none.
    List<String[]> first = charts(page("a.html"));
    List<String[]> second = charts(page("b.html"));
    assertThat(second).hasSameSizeAs(first);
    for (int i = 0; i < first.size(); i++) {
      assertThat(second.get(i)[1]).as(first.get(i)[0]).isEqualTo(first.get(i)[1]);
    }
    // Each inline SVG has its own ids: none is defined twice on the page.
    List<String> ids = new ArrayList<>();
    Matcher id = Pattern.compile(" id='([^']*)'").matcher(String.join("", svgs(first)));
    while (id.find()) {
      ids.add(id.group(1));
    }
    assertThat(ids).isNotEmpty().doesNotHaveDuplicates();
  }

  @Test
  void withoutHtml_noAwtOrJfreeChartClassIsLoaded() throws Exception {
    assertThat(loadedClasses(List.of())).isNotEmpty().noneMatch(HtmlReportTest::charting);
    // The check sees them when they load.
    assertThat(loadedClasses(List.of("--html", dir.resolve("p.html").toString())))
        .anyMatch(c -> c.startsWith("org.jfree.chart."))
        .anyMatch(c -> c.startsWith("java.awt."));
  }

  private static boolean charting(String name) {
    return name.startsWith("java.awt.")
        || name.startsWith("sun.awt.")
        || name.startsWith("sun.java2d.")
        || name.startsWith("org.jfree.")
        || name.equals(HtmlReport.class.getName());
  }

  /** The classes a compare of {@link #SCENARIO} plus {@code extra} loads, in a fresh JVM. */
  private List<String> loadedClasses(List<String> extra) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xshare:off");
    command.add("-Xlog:class+load=info:file=" + dir.resolve("classes.log"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("dev.schedlab.cli.Main");
    command.addAll(SCENARIO);
    command.add("--quiet");
    command.addAll(extra);
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(Files.readString(dir.resolve("out.txt"))).isZero();
    List<String> classes = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("classes.log"))) {
      // [0.012s][info][class,load] java.lang.Object source: jrt:/java.base
      int start = line.indexOf("] ", line.indexOf("class,load"));
      int end = line.indexOf(' ', start + 2);
      if (start > 0 && end > start) {
        classes.add(line.substring(start + 2, end));
      }
    }
    return classes;
  }

  private String page(String name) throws IOException {
    Path html = dir.resolve(name);
    List<String> args = new ArrayList<>(SCENARIO);
    args.addAll(List.of("--html", html.toString()));
    Invocation.of(args).assertOkWrote(html.toString());
    return Files.readString(html);
  }

  /** The page's SVG charts: their class and their text. */
  private static List<String[]> charts(String page) {
    List<String[]> charts = new ArrayList<>();
    Matcher m = SVG.matcher(page);
    while (m.find()) {
      charts.add(new String[] {m.group(1), m.group()});
    }
    return charts;
  }

  private static List<String> svgs(List<String[]> charts) {
    return charts.stream().map(c -> c[1]).toList();
  }

  /** The text of every {@code <text>} of {@code svg}, which must parse as XML. */
  private static List<String> texts(String svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
    factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    factory.setXIncludeAware(false);
    factory.setExpandEntityReferences(false);
    factory.setNamespaceAware(true);
    DocumentBuilder builder = factory.newDocumentBuilder();
    Document doc = builder.parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    Element root = doc.getDocumentElement();
    assertThat(root.getLocalName()).isEqualTo("svg");
    assertThat(root.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
    NodeList nodes = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
    List<String> text = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      text.add(nodes.item(i).getTextContent());
    }
    return text;
  }
}
