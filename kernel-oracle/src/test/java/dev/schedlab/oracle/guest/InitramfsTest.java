package dev.schedlab.oracle.guest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The cpio writer emits newc headers, 4-byte alignment, the trailer and 512-byte padding. */
final class InitramfsTest {

  @Test
  void toCpio_oneFile_hasNewcHeaderAlignedDataAndTrailer() {
    byte[] cpio =
        new Initramfs()
            .directory("bin")
            .file("init", "abc".getBytes(StandardCharsets.US_ASCII), true)
            .toCpio();
    String text = new String(cpio, StandardCharsets.ISO_8859_1);
    assertThat(text).startsWith("070701");
    assertThat(cpio.length % 512).isZero();
    int init = text.indexOf("init\0");
    assertThat(init).isPositive();
    // header (110 bytes) + "init\0" = 115, padded to 116: data starts 4-aligned
    int data = text.indexOf("abc");
    assertThat(data % 4).isZero();
    // mode of init: regular file 0755
    String header = text.substring(init - 110, init);
    assertThat(header.substring(14, 22)).isEqualTo(String.format("%08x", 0100755));
    assertThat(header.substring(54, 62)).isEqualTo(String.format("%08x", 3));
    assertThat(text).contains("TRAILER!!!");
  }
}
