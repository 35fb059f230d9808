package dev.schedlab.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The writer produces {@code /proc/schedstat} version 17 as {@code show_schedstat()} prints it:
 * version and timestamp lines, a cpu line of nine numbers, and domain lines with name, hex span, 33
 * lb fields in busy/idle/newly-idle order, 3 alb, 6 unused sbe/sbf zeros and 3 ttwu fields.
 */
final class SchedstatTest {

  @Test
  void procText_oneCpuOneDomain_hasTheV17Layout() {
    long[] lb = new long[33];
    for (int i = 0; i < 33; i++) {
      lb[i] = i + 1;
    }
    Schedstat schedstat =
        new Schedstat(
            1234,
            List.of(
                new Schedstat.CpuEntry(
                    0,
                    new CpuSchedstat(0, 10, 4, 7, 3, 5_000, 600, 9),
                    List.of(
                        new DomainSchedstat(
                            0, "SMT", "00000003", lb, new long[] {1, 2, 3}, 8, 6)))));
    String[] lines = schedstat.toProcText().split("\n");
    assertThat(lines[0]).isEqualTo("version 17");
    assertThat(lines[1]).isEqualTo("timestamp 1234");
    assertThat(lines[2]).isEqualTo("cpu0 0 0 10 4 7 3 5000 600 9");
    String[] fields = lines[3].split(" ");
    assertThat(fields[0]).isEqualTo("domain0");
    assertThat(fields[1]).isEqualTo("SMT");
    assertThat(fields[2]).isEqualTo("00000003");
    // 3 + 33 + 3 + 6 + 3 tokens.
    assertThat(fields).hasSize(48);
    assertThat(fields[3]).isEqualTo("1");
    assertThat(fields[35]).isEqualTo("33");
    assertThat(fields[36]).isEqualTo("1");
    assertThat(fields[38]).isEqualTo("3");
    assertThat(List.of(fields).subList(39, 45)).containsOnly("0");
    assertThat(fields[45]).isEqualTo("8");
    assertThat(fields[46]).isEqualTo("6");
    assertThat(fields[47]).isEqualTo("0");
  }

  @Test
  void domainLine_wrongFieldCount_rejected() {
    assertThatThrownBy(() -> new DomainSchedstat(0, "MC", "f", new long[32], new long[3], 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("33 lb");
  }
}
