package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import dev.schedlab.oracle.guest.HostTools;
import dev.schedlab.oracle.guest.OracleException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code schedlab kernel} end to end, once, on the smallest shape: two CPUs boot Debian's Linux 6.1
 * under TCG, one spinner runs for 2 s, and the JSON report holds equal domains, the balancing,
 * cpu-line and softirq figures of both sides with their ratio, and the guest's files. Skips with a
 * message when no guest can boot here (no QEMU and no way to install it).
 */
final class KernelCommandIT {

  @Test
  @SuppressWarnings("unchecked")
  void smallestShape_oneSpinner_reportHasBothSides() {
    try {
      HostTools.find(true, line -> System.err.println("KernelCommandIT: " + line));
    } catch (OracleException e) {
      Assumptions.abort("skipped, no guest can boot here: " + e.getMessage());
    }
    Path out = Path.of("target", "kernel-it");
    Invocation run =
        Invocation.of(
            "kernel",
            "--shape",
            "1s1d2c1t",
            "--accel",
            "tcg",
            "--workload",
            "wl.gemm",
            "-W",
            "threads=1",
            "-W",
            "chunk=10s",
            "-W",
            "spin=0",
            "--duration",
            "2s",
            "--format",
            "json",
            "--out",
            out.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).contains("schedlab kernel: booting 1s1d2c1t (2 CPUs, 1 nodes)");
    Map<String, Object> json = JsonParser.object(run.out());
    Map<String, Object> facts = (Map<String, Object>) json.get("facts");
    assertThat((String) facts.get("kernel")).startsWith("Linux version 6.1");
    assertThat(facts).containsEntry("accelerator", "tcg").containsEntry("domains", "equal");
    List<Map<String, Object>> rows = (List<Map<String, Object>>) json.get("rows");
    assertThat(rows)
        .extracting(r -> r.get("section"))
        .contains(
            "workload", "balancing per s", "cpu lines per s", "softirqs per s", "guest diagnosis");
    Map<String, Object> busy =
        rows.stream()
            .filter(r -> "MC busy lb_count".equals(r.get("item")))
            .findFirst()
            .orElseThrow();
    // One spinner on two CPUs: the busy CPU balances MC at its busy interval in both.
    assertThat((Double) busy.get("kernel_value")).isPositive();
    assertThat((Double) busy.get("simulator_value")).isPositive();
    assertThat(busy.get("ratio")).isNotNull();
    assertThat(Files.isRegularFile(out.resolve("console.log"))).isTrue();
    assertThat(Files.isDirectory(out.resolve("guest/sys/devices/system/cpu"))).isTrue();
  }
}
