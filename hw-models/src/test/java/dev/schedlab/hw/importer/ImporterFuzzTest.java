package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Fuzzing the topology importers with valid files mutated (text inserted, deleted or replaced
 * anywhere, over an alphabet of the format's own characters) and, for sysfs, one file of a valid
 * tree given random content: hwloc XML ({@link HwlocXmlImporter#parse}), {@code lscpu -p} and
 * {@code lscpu -e} output ({@link LscpuImporter#parse}) and a sysfs tree ({@link
 * SysfsImporter#read}). Whatever the input, the importer returns or throws {@link
 * TopologyImportException} with a one-line message; nothing else escapes.
 */
final class ImporterFuzzTest {

  static Arbitrary<String> mutated(String alphabet, String... valid) {
    Arbitrary<String> once =
        Combinators.combine(
                Arbitraries.of(valid),
                Arbitraries.integers().between(0, 100_000),
                Arbitraries.strings().withChars(alphabet).ofMaxLength(6),
                Arbitraries.integers().between(0, 12))
            .as((base, at, insert, delete) -> edit(base, at, insert, delete));
    // A few edits at once, too.
    return Arbitraries.frequencyOf(
        Tuple.of(3, once),
        Tuple.of(
            1,
            Combinators.combine(
                    once,
                    Arbitraries.integers().between(0, 100_000),
                    Arbitraries.strings().withChars(alphabet).ofMaxLength(6))
                .as((base, at, insert) -> edit(base, at, insert, 1))));
  }

  private static String edit(String base, int at, String insert, int delete) {
    int p = at % (base.length() + 1);
    int d = Math.min(delete, base.length() - p);
    return base.substring(0, p) + insert + base.substring(p + d);
  }

  private static void importsOrRefusesInOneLine(Runnable read) {
    try {
      read.run();
    } catch (TopologyImportException e) {
      assertThat(e.getMessage()).isNotBlank().doesNotContain("\n", "\r");
    }
  }

  @Provide
  Arbitrary<String> hwloc() {
    return mutated(
        "<>/=\"' x0123456789abcdefABCDEF,-&;!?objectypsPUCorNUMAdL", HwlocXmlImporterTest.V2);
  }

  @Property(tries = 400)
  void hwloc_mutatedFile_importsOrOneLineError(@ForAll("hwloc") String xml) {
    importsOrRefusesInOneLine(
        () ->
            HwlocXmlImporter.parse(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "fuzz.xml"));
  }

  @Provide
  Arbitrary<String> lscpu() {
    return mutated(
        "0123456789,:# -\nyesnoCPUNODESOCKETCOREL1d.",
        LscpuImporterTest.PARSABLE,
        LscpuImporterTest.TABLE);
  }

  @Property(tries = 400)
  void lscpu_mutatedOutput_importsOrOneLineError(@ForAll("lscpu") String text) {
    importsOrRefusesInOneLine(() -> LscpuImporter.parse(text, "fuzz.txt"));
  }

  /** The files of a valid 8-CPU tree (2 cores of SMT2 per package, an L3 per package). */
  private static final String[][] TREE = tree();

  private static String[][] tree() {
    String[][] files = new String[8 * 6 + 2][];
    int i = 0;
    for (int cpu = 0; cpu < 8; cpu++) {
      int core = cpu % 4;
      String siblings = core + "," + (core + 4);
      String pkg = core < 2 ? "0-1,4-5" : "2-3,6-7";
      String t = "devices/system/cpu/cpu" + cpu + "/topology/";
      String c = "devices/system/cpu/cpu" + cpu + "/cache/index3/";
      files[i++] = new String[] {t + "thread_siblings_list", siblings};
      files[i++] = new String[] {t + "core_siblings_list", pkg};
      files[i++] = new String[] {t + "physical_package_id", core < 2 ? "0" : "1"};
      files[i++] = new String[] {c + "level", "3"};
      files[i++] = new String[] {c + "shared_cpu_list", pkg};
      files[i++] = new String[] {c + "type", "Unified"};
    }
    files[i++] = new String[] {"devices/system/node/node0/cpulist", "0-1,4-5"};
    files[i] = new String[] {"devices/system/node/node1/cpulist", "2-3,6-7"};
    return files;
  }

  @Provide
  Arbitrary<Tuple.Tuple2<Integer, String>> sysfsEdits() {
    Arbitrary<String> content =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.strings().withChars("0123456789,-: \nxN").ofMaxLength(24)),
            Tuple.of(1, Arbitraries.strings().ofMaxLength(24)));
    return Combinators.combine(Arbitraries.integers().between(0, TREE.length - 1), content)
        .as(Tuple::of);
  }

  @Property(tries = 200)
  void sysfs_oneFileWithRandomContent_importsOrOneLineError(
      @ForAll("sysfsEdits") Tuple.Tuple2<Integer, String> edit) throws IOException {
    Path root = Files.createTempDirectory("sysfs-fuzz");
    try {
      SysfsTree tree = new SysfsTree(root);
      for (int i = 0; i < TREE.length; i++) {
        tree.write(TREE[i][0], i == edit.get1() ? edit.get2() : TREE[i][1]);
      }
      importsOrRefusesInOneLine(() -> SysfsImporter.read(root));
    } finally {
      try (Stream<Path> all = Files.walk(root)) {
        all.sorted(Comparator.reverseOrder())
            .forEach(
                p -> {
                  try {
                    Files.delete(p);
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
      }
    }
  }
}
