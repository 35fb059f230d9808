package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile or broken input never gets past an importer silently and never makes it reach outside the
 * file: each case ends in one {@link TopologyImportException} whose message starts with the file
 * and names the problem, and no external DTD or entity is fetched (checked with a local socket that
 * records any connection).
 */
final class HostileInputTest {

  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private AbstractThrowableAssert<?, ? extends Throwable> assertHwlocFails(String name, String xml)
      throws IOException {
    Path file = write(name, xml);
    return assertThatThrownBy(() -> HwlocXmlImporter.read(file))
        .isInstanceOf(TopologyImportException.class)
        .hasMessageStartingWith(name + ": ");
  }

  @Test
  void hwloc_truncatedFile_namesFileAndPosition() throws IOException {
    String v2 = HwlocXmlImporterTest.V2;
    assertHwlocFails("truncated.xml", v2.substring(0, v2.length() / 2))
        .hasMessageContaining("malformed XML at line");
  }

  @Test
  void hwloc_wrongRoot_isNamed() throws IOException {
    assertHwlocFails("root.xml", "<?xml version=\"1.0\"?><machine version=\"2.0\"/>")
        .hasMessageContaining("root element is <machine>, expected <topology>");
  }

  @Test
  void hwloc_unknownVersion_isNamed() throws IOException {
    assertHwlocFails("version.xml", HwlocXmlImporterTest.V2.replace("\"2.0\"", "\"9.1\""))
        .hasMessageContaining("unsupported hwloc XML version \"9.1\"");
  }

  @Test
  void hwloc_missingCpuset_namesTheObject() throws IOException {
    String xml =
        HwlocXmlImporterTest.V2.replace(
            "<object type=\"Core\" os_index=\"1\" cpuset=\"0x00000088\">",
            "<object type=\"Core\" os_index=\"1\">");
    assertHwlocFails("nocpuset.xml", xml)
        .hasMessageContaining("Core (os_index 1)")
        .hasMessageContaining("has no cpuset");
  }

  @Test
  void hwloc_overlappingSiblingCpusets_areNamed() throws IOException {
    // core 1 of package 1 claims CPU 6, which core 0 already has
    String xml =
        HwlocXmlImporterTest.V2.replace(
            "<object type=\"L2Cache\" cpuset=\"0x00000088\"",
            "<object type=\"L2Cache\" cpuset=\"0x000000c8\"");
    assertHwlocFails("overlap.xml", xml).hasMessageContaining("overlap (CPU 6)");
  }

  @Test
  void hwloc_childOutsideParent_isNamed() throws IOException {
    // core 1 of package 1 claims CPU 8, which its L2 does not have
    String xml =
        HwlocXmlImporterTest.V2.replace(
            "<object type=\"Core\" os_index=\"1\" cpuset=\"0x00000088\">",
            "<object type=\"Core\" os_index=\"1\" cpuset=\"0x00000188\">");
    assertHwlocFails("nest.xml", xml)
        .hasMessageContaining(
            "cpuset of Core (os_index 1) (0x00000188) is not inside its parent" + " L2Cache");
  }

  @Test
  void hwloc_duplicatePu_isNamed() throws IOException {
    String xml =
        HwlocXmlImporterTest.V1.replace(
            "<object type=\"PU\" os_index=\"5\" cpuset=\"0x00000020\"/>",
            "<object type=\"PU\" os_index=\"5\" cpuset=\"0x00000020\"/>"
                + "<object type=\"PU\" os_index=\"5\" cpuset=\"0x00000020\"/>");
    assertHwlocFails("dup.xml", xml).hasMessageContaining("overlap");
  }

  @Test
  void hwloc_badDistanceCount_isNamed() throws IOException {
    String xml = HwlocXmlImporterTest.V2.replace("10 20 20 10 ", "10 20 20 ");
    assertHwlocFails("dist.xml", xml).hasMessageContaining("expected nbobjs² = 4");
  }

  @Test
  void hwloc_distanceAboveKernelLimit_failsWhenBuildingTheTopology() throws IOException {
    Path file = write("far.xml", HwlocXmlImporterTest.V2.replace("10 20 20 10 ", "10 300 300 10 "));
    ImportedTopology imported = HwlocXmlImporter.read(file);
    assertThatThrownBy(imported::toTopology)
        .isInstanceOf(TopologyImportException.class)
        .hasMessageStartingWith("far.xml: ")
        .hasMessageContaining("300");
  }

  @Test
  void hwloc_externalEntity_isRefusedAndNotRead() throws IOException {
    Path secret = write("secret.txt", "TOP-SECRET-CONTENT");
    String xml =
        "<?xml version=\"1.0\"?>\n"
            + "<!DOCTYPE topology [ <!ENTITY xxe SYSTEM \""
            + secret.toUri()
            + "\"> ]>\n"
            + "<topology version=\"2.0\"><object type=\"Machine\" cpuset=\"0x1\">"
            + "<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\">&xxe;</object>"
            + "</object></topology>";
    assertHwlocFails("xxe.xml", xml)
        .hasMessageContaining("DOCTYPE")
        .hasMessageNotContaining("TOP-SECRET");
  }

  @Test
  void hwloc_externalEntitiesAndDtdOverNetwork_areNeverFetched() throws IOException {
    try (ServerSocket server = new ServerSocket(0)) {
      String base = "http://127.0.0.1:" + server.getLocalPort();
      String generalEntity =
          "<?xml version=\"1.0\"?>\n<!DOCTYPE topology [ <!ENTITY e SYSTEM \""
              + base
              + "/e\"> ]>\n<topology version=\"2.0\">&e;</topology>";
      String parameterEntity =
          "<?xml version=\"1.0\"?>\n<!DOCTYPE topology [ <!ENTITY % p SYSTEM"
              + " \""
              + base
              + "/p.dtd\"> %p; ]>\n<topology version=\"2.0\"/>";
      assertHwlocFails("general.xml", generalEntity);
      assertHwlocFails("parameter.xml", parameterEntity);
      // a plain external DTD is the normal hwloc header: accepted, but not loaded
      Path plain =
          write(
              "plain.xml",
              HwlocXmlImporterTest.V2.replace(
                  "SYSTEM \"hwloc2.dtd\"", "SYSTEM \"" + base + "/hwloc2.dtd\""));
      assertThat(HwlocXmlImporter.read(plain).onlineCount()).isEqualTo(8);
      server.setSoTimeout(200);
      try (Socket connection = server.accept()) {
        throw new AssertionError(
            "the importer connected to " + base + " from " + connection.getRemoteSocketAddress());
      } catch (SocketTimeoutException expected) {
        // nobody connected
      }
    }
  }

  @Test
  void hwloc_entityExpansionBomb_isRefused() throws IOException {
    StringBuilder doctype = new StringBuilder("<!DOCTYPE topology [ <!ENTITY a0 \"lol\">");
    for (int i = 1; i <= 12; i++) {
      doctype.append("<!ENTITY a").append(i).append(" \"");
      for (int j = 0; j < 10; j++) {
        doctype.append("&a").append(i - 1).append(';');
      }
      doctype.append("\">");
    }
    doctype.append("]>");
    String xml =
        "<?xml version=\"1.0\"?>"
            + doctype
            + "<topology version=\"2.0\"><object type=\"Machine\" cpuset=\"0x1\">&a12;</object>"
            + "</topology>";
    assertHwlocFails("bomb.xml", xml);
  }

  @Test
  void hwloc_deeplyNestedObjects_oneLineNamingTheBound() throws IOException {
    for (int depth : new int[] {300, 5_000, 10_000}) {
      StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?><topology version=\"2.0\">");
      for (int i = 0; i < depth; i++) {
        xml.append("<object type=\"Group\" cpuset=\"0x1\">");
      }
      xml.append("<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\"/>");
      for (int i = 0; i < depth; i++) {
        xml.append("</object>");
      }
      xml.append("</topology>");
      assertHwlocFails("deep" + depth + ".xml", xml.toString())
          .hasMessageContaining("nested deeper than")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "JAXP"));
    }
  }

  @Test
  void hwloc_negativeOsIndex_isCalledNegative() throws IOException {
    assertHwlocFails(
            "neg.xml",
            HwlocXmlImporterTest.V2.replaceFirst(
                "type=\"PU\" os_index=\"0\"", "type=\"PU\" os_index=\"-5\""))
        .hasMessageContaining("PU os_index \"-5\" is negative; allowed 0 and above");
  }

  @Test
  void hwloc_doctypeNamingAnotherDtd_isRefused_hwlocsAreAccepted() throws IOException {
    assertHwlocFails("other.xml", HwlocXmlImporterTest.V2.replace("hwloc2.dtd", "evil.dtd"))
        .hasMessageContaining("SYSTEM \"evil.dtd\" is not hwloc's")
        .hasMessageContaining("the DTD is never read");
    Path v1Name = write("v1name.xml", HwlocXmlImporterTest.V2.replace("hwloc2.dtd", "hwloc.dtd"));
    assertThat(HwlocXmlImporter.read(v1Name).onlineCount()).isEqualTo(8);
  }

  @Test
  void hwloc_directoryInsteadOfFile_plainWords() {
    assertThatThrownBy(() -> HwlocXmlImporter.read(dir))
        .isInstanceOf(TopologyImportException.class)
        .hasMessageContaining("cannot read: is a directory")
        .hasMessageNotContaining("Exception");
  }

  @Test
  void hwloc_missingFile_namesThePath() {
    Path missing = dir.resolve("absent.xml");
    assertThatThrownBy(() -> HwlocXmlImporter.read(missing))
        .isInstanceOf(TopologyImportException.class)
        .hasMessageContaining("absent.xml")
        .hasMessageContaining("no such file");
  }

  @Test
  void sysfs_asymmetricSiblingLists_nameBothFiles() throws IOException {
    SysfsTree tree = new SysfsTree(dir.resolve("sys"));
    tree.cpu(0, "0-1", "0-1");
    tree.cpu(1, "1", "0-1"); // cpu1 disagrees with cpu0 about their core
    tree.write("devices/system/cpu/online", "0-1");
    assertThatThrownBy(() -> SysfsImporter.read(tree.root))
        .isInstanceOf(TopologyImportException.class)
        .hasMessageStartingWith(tree.root.toString())
        .hasMessageContaining("asymmetric sibling lists")
        .hasMessageContaining("cpu0 topology/thread_siblings_list gives 0-1")
        .hasMessageContaining("cpu1 topology/thread_siblings_list gives 1");
  }

  @Test
  void sysfs_siblingListWithoutTheCpu_isNamed() throws IOException {
    SysfsTree tree = new SysfsTree(dir.resolve("sys"));
    tree.cpu(0, "1", "0-1");
    tree.cpu(1, "1", "0-1");
    tree.write("devices/system/cpu/online", "0-1");
    assertThatThrownBy(() -> SysfsImporter.read(tree.root))
        .hasMessageContaining("cpu0/topology/thread_siblings_list")
        .hasMessageContaining("does not contain CPU 0");
  }

  @Test
  void sysfs_notASysfsRoot_isNamed() {
    assertThatThrownBy(() -> SysfsImporter.read(dir))
        .isInstanceOf(TopologyImportException.class)
        .hasMessageContaining("no devices/system/cpu directory");
  }

  @Test
  void lscpu_rowWithTooFewFields_namesTheLine() {
    String text = "# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0\n";
    assertThatThrownBy(() -> LscpuImporter.parse(text, "lscpu.txt"))
        .isInstanceOf(TopologyImportException.class)
        .hasMessage(
            "lscpu.txt: line 3 has 3 fields but the header names 4 columns (expected the"
                + " output of lscpu -p or lscpu -e)");
  }

  @Test
  void lscpu_noCoreColumn_isNamed() {
    assertThatThrownBy(() -> LscpuImporter.parse("# CPU,Socket\n0,0\n", "cols.txt"))
        .hasMessageStartingWith("cols.txt: no CORE column");
  }

  @Test
  void lscpu_nonNumericId_isNamed() {
    assertThatThrownBy(() -> LscpuImporter.parse("# CPU,Core,Socket\n0,x,0\n", "nan.txt"))
        .hasMessageStartingWith("nan.txt: line 2: CORE \"x\" is not a non-negative integer");
  }
}
