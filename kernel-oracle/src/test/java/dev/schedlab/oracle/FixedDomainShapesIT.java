package dev.schedlab.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.oracle.compare.DomainComparison;
import dev.schedlab.oracle.guest.Accelerator;
import dev.schedlab.oracle.guest.GuestShape;
import dev.schedlab.oracle.guest.HostTools;
import dev.schedlab.oracle.guest.OracleException;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fixed domain suite: each shape boots Debian's Linux 6.1 in QEMU (TCG) and every CPU's sched
 * domains (levels, names, spans, flags, groups with balance masks, tunables) equal the simulator's,
 * built from the guest's own sysfs, after the documented 6.1 renames. One shape per case the issue
 * names: SMT+MC+NUMA, NUMA inside a package, multi-level NUMA with overlapping groups, dies, SMT4,
 * plus isolcpus/nohz_full. Skips with a message when QEMU, busybox-static or the kernel are missing
 * and cannot be installed (no root, no network).
 */
final class FixedDomainShapesIT {

  private static HostTools tools;

  @BeforeAll
  static void tools() {
    try {
      tools = HostTools.find(true, line -> System.err.println("kernel-oracle IT: " + line));
    } catch (OracleException e) {
      Assumptions.abort("skipped, no guest can boot here: " + e.getMessage());
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "2s1d4c2t | ''",
        "1s1d4c2t2n | ''",
        "4s1d2c1t:d=10,20,30,20/20,10,20,30/30,20,10,20/20,30,20,10 | ''",
        "2s2d2c2t | ''",
        "1s1d4c4t | ''",
        "2s1d2c2t | isolcpus=domain,2-3 nohz_full=4-5",
      })
  void domains_guestKernelAndSimulator_agree(String shape, String kernelArgs) {
    // Under target/, not a temporary directory, so that a failure's console log stays.
    Path work =
        Path.of(
            "target",
            "oracle-it",
            shape.replaceAll("[^0-9a-z]+", "_") + (kernelArgs.isEmpty() ? "" : "_isolated"));
    KernelOracle oracle =
        new KernelOracle(
            tools, line -> System.err.println("kernel-oracle IT " + shape + ": " + line));
    KernelOracle.DomainResult result =
        oracle.domains(
            new KernelOracle.Request(
                GuestShape.parse(shape), kernelArgs, null, Accelerator.TCG, work));
    DomainComparison comparison = result.comparison();
    assertThat(result.kernelVersion()).startsWith("Linux version");
    assertThat(comparison.cpus()).isEqualTo(GuestShape.parse(shape).cpus());
    assertThat(result.kernelDomains().errors()).isEmpty();
    assertThat(comparison.unexplained()).as(result.report().toText()).isEmpty();
    assertThat(comparison.domains()).isGreaterThanOrEqualTo(comparison.cpus());
  }
}
