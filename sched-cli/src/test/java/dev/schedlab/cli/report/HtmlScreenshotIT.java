package dev.schedlab.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.TestScenarios;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML page as a browser draws it: {@code scripts/html-screenshot} screenshots a comparison's
 * page in headless Chromium, and the picture holds the variants' bar colours and the heat map's
 * busy shade. Skipped, saying so, where Chromium is not installed.
 */
final class HtmlScreenshotIT {

  private static final Path SCRIPT = Path.of("..", "scripts", "html-screenshot");

  @TempDir Path dir;

  @Test
  void pageScreenshot_showsTheChartsColours() throws Exception {
    assumeTrue(
        chromium(),
        "chromium not installed (apt-get install chromium): the page's screenshot check is skipped");
    assertThat(SCRIPT).isExecutable();
    Path page = dir.resolve("page.html");
    Invocation.of(TestScenarios.schbenchCompare("20ms", "--html", page.toString()))
        .assertOkWrote(page.toString());
    Path png = dir.resolve("page.png");
    ProcessBuilder script =
        new ProcessBuilder(SCRIPT.toString(), png.toString(), page.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("script.log").toFile());
    script.environment().put("WINDOW", "1280x1800");
    Process p = script.start();
    assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(Files.readString(dir.resolve("script.log"))).isZero();

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1280);
    assertThat(image.getHeight()).isEqualTo(1800);
    // The first two variants' bars, and a fully busy heat map block (rgb(35,35,255)).
    assertThat(count(image, 0x1f77b4)).isGreaterThan(1000);
    assertThat(count(image, 0xff7f0e)).isGreaterThan(1000);
    assertThat(count(image, 0x2323ff)).isGreaterThan(100);
  }

  /** Pixels of {@code image} within a few levels of {@code rgb} (anti-aliasing aside). */
  private static int count(BufferedImage image, int rgb) {
    int n = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int p = image.getRGB(x, y);
        if (near(p >> 16, rgb >> 16) && near(p >> 8, rgb >> 8) && near(p, rgb)) {
          n++;
        }
      }
    }
    return n;
  }

  private static boolean near(int a, int b) {
    return Math.abs((a & 0xff) - (b & 0xff)) <= 3;
  }

  private static boolean chromium() {
    String env = System.getenv("CHROMIUM");
    if (env != null && !env.isEmpty()) {
      return new File(env).canExecute();
    }
    for (String dirName : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser")) {
        if (new File(dirName, name).canExecute()) {
          return true;
        }
      }
    }
    return false;
  }
}
