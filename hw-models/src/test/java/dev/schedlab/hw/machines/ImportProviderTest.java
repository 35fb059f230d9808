package dev.schedlab.hw.machines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.hw.importer.TopologyImportException;
import dev.schedlab.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hw.import} reads whatever the path holds: an XML file as hwloc, a directory as sysfs,
 * other text as lscpu; an explicit format overrides the guess, and import errors name the file.
 */
final class ImportProviderTest {

  @TempDir Path dir;

  @Test
  void auto_xmlFile_isReadAsHwloc() throws IOException {
    Path xml = dir.resolve("m.xml");
    Files.writeString(
        xml,
        "\n  <topology version=\"2.0\">"
            + "<object type=\"Machine\" cpuset=\"0x3\"><object type=\"Core\" cpuset=\"0x3\">"
            + "<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\"/>"
            + "<object type=\"PU\" os_index=\"1\" cpuset=\"0x2\"/></object></object></topology>");
    Topology t = Machines.create(new ImportProvider(), Map.of("path", xml.toString())).topology();
    assertThat(t.smtSiblings(0).toCpuList()).isEqualTo("0-1");
    assertThat(t.name()).isEqualTo("m");
  }

  @Test
  void auto_directory_isReadAsSysfs() throws IOException {
    for (int cpu = 0; cpu < 2; cpu++) {
      Path topo = dir.resolve("sys/devices/system/cpu/cpu" + cpu + "/topology");
      Files.createDirectories(topo);
      Files.writeString(topo.resolve("thread_siblings_list"), Integer.toString(cpu));
      Files.writeString(topo.resolve("core_siblings_list"), "0-1");
    }
    Topology t = Machines.create(new ImportProvider(), Map.of("path", dir.toString())).topology();
    assertThat(t.cpuCount()).isEqualTo(2);
    assertThat(t.isSmt()).isFalse();
  }

  @Test
  void auto_textFile_isReadAsLscpu() throws IOException {
    Path text = dir.resolve("lscpu.txt");
    Files.writeString(text, "# CPU,Core,Socket,Node\n0,0,0,0\n1,0,0,0\n2,1,0,0\n3,1,0,0\n");
    Topology t = Machines.create(new ImportProvider(), Map.of("path", text.toString())).topology();
    assertThat(t.smtSiblings(2).toCpuList()).isEqualTo("2-3");
  }

  @Test
  void explicitFormat_wrongForTheFile_failsNamingTheFile() throws IOException {
    Path text = dir.resolve("lscpu.txt");
    Files.writeString(text, "# CPU,Core,Socket\n0,0,0\n");
    assertThatThrownBy(
            () ->
                Machines.create(
                    new ImportProvider(), Map.of("path", text.toString(), "format", "hwloc")))
        .isInstanceOf(TopologyImportException.class)
        .hasMessageStartingWith("lscpu.txt: malformed XML");
  }
}
