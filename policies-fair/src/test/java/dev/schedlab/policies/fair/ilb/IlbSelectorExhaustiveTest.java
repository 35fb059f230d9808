package dev.schedlab.policies.fair.ilb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.policies.fair.testing.Machines;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Over every idle/busy state of an 8-CPU SMT2 machine (with every NOHZ idle mask) and of a 16-CPU
 * SMT4 machine (with a few NOHZ masks), in both sibling numberings, with several housekeeping masks
 * and busy kickers: first-idle chooses what the 7.1 rule chooses; every idle-core revision chooses
 * what the merged rule chooses ("lowest idle CPU on a fully idle core, else lowest idle CPU"); each
 * examines exactly as many CPUs as its transcribed walk; v4 examines no more than v3, v3 no more
 * than v2, and idle-core no fewer than first-idle; the scratch slot is always released.
 */
final class IlbSelectorExhaustiveTest {

  @ParameterizedTest
  @EnumSource(SiblingNumbering.class)
  void smt2Machine8Cpus_everyIdleStateAndNohzMask_matchesTheRules(SiblingNumbering numbering) {
    Topology topology = Machines.smt(8, 2, numbering);
    IlbCheck check = new IlbCheck(topology);
    List<ImmutableCpuMask> housekeepingMasks =
        List.of(
            CpuMasks.full(8),
            CpuMasks.parseCpuList("0,4-7", 8), // nohz_full=1-3
            CpuMasks.parseCpuList("0-1", 8)); // nohz_full=2-7

    for (ImmutableCpuMask housekeeping : housekeepingMasks) {
      BitSet hkBits = IlbRules.toBitSet(housekeeping);
      for (int nohzBits = 0; nohzBits < 1 << 8; nohzBits++) {
        ImmutableCpuMask nohz = maskOf(nohzBits, 8);
        BitSet nohzSet = BitSet.valueOf(new long[] {nohzBits});
        for (int idleBits = 0; idleBits < 1 << 8; idleBits++) {
          check.idleBits(idleBits);
          for (int kicker = 0; kicker < 8; kicker++) {
            if ((idleBits >>> kicker & 1) == 0) {
              check.check(kicker, nohz, housekeeping, nohzSet, hkBits);
            }
          }
        }
      }
    }

    assertThat(check.failures).isEmpty();
    assertThat(check.pool.misuseCount()).isZero();
    assertThat(check.checks).isEqualTo(3L * 256 * 256 * 8 / 2);
  }

  @ParameterizedTest
  @EnumSource(SiblingNumbering.class)
  void smt4Machine16Cpus_everyIdleState_matchesTheRules(SiblingNumbering numbering) {
    Topology topology = Machines.smt(16, 4, numbering);
    IlbCheck check = new IlbCheck(topology);
    List<ImmutableCpuMask> housekeepingMasks =
        List.of(CpuMasks.full(16), CpuMasks.parseCpuList("0-3,12-15", 16));
    List<ImmutableCpuMask> nohzMasks =
        List.of(
            CpuMasks.full(16),
            CpuMasks.parseCpuList("1-15", 16),
            CpuMasks.parseCpuList("0,2,4,6,8,10,12,14", 16),
            CpuMasks.parseCpuList("3-5,9,11-14", 16));

    for (ImmutableCpuMask housekeeping : housekeepingMasks) {
      BitSet hkBits = IlbRules.toBitSet(housekeeping);
      for (ImmutableCpuMask nohz : nohzMasks) {
        BitSet nohzBits = IlbRules.toBitSet(nohz);
        for (int idleBits = 0; idleBits < 1 << 16; idleBits++) {
          if (idleBits == 0xFFFF) {
            continue; // no busy CPU to kick from
          }
          check.idleBits(idleBits);
          int lowestBusy = Integer.numberOfTrailingZeros(~idleBits);
          int highestBusy = 31 - Integer.numberOfLeadingZeros(~idleBits & 0xFFFF);
          check.check(lowestBusy, nohz, housekeeping, nohzBits, hkBits);
          if (highestBusy != lowestBusy) {
            check.check(highestBusy, nohz, housekeeping, nohzBits, hkBits);
          }
        }
      }
    }

    assertThat(check.failures).isEmpty();
    assertThat(check.pool.misuseCount()).isZero();
  }

  private static ImmutableCpuMask maskOf(int bits, int width) {
    int[] cpus = BitSet.valueOf(new long[] {bits}).stream().toArray();
    return CpuMasks.of(width, cpus);
  }
}
