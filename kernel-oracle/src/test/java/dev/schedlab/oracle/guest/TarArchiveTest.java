package dev.schedlab.oracle.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tar reader returns what the writer stored and refuses truncated archives. */
final class TarArchiveTest {

  @Test
  void read_writtenArchive_returnsEveryFileWithoutLeadingDotSlash() {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("./proc/cmdline", "quiet nohz_full=2-3\n".getBytes(StandardCharsets.UTF_8));
    files.put("./sys/a", new byte[1000]);
    TarArchive archive = TarArchive.read(TarArchive.write(files));
    assertThat(archive.files()).containsOnlyKeys("proc/cmdline", "sys/a");
    assertThat(archive.text("proc/cmdline")).isEqualTo("quiet nohz_full=2-3\n");
    assertThat(archive.files().get("sys/a")).hasSize(1000);
  }

  @Test
  void read_truncatedArchive_isRejected() {
    byte[] tar = TarArchive.write(Map.of("a", new byte[2000]));
    assertThatThrownBy(() -> TarArchive.read(Arrays.copyOf(tar, 1024)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("truncated");
  }
}
