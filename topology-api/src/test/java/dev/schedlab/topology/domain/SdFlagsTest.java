package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.SdFlags.SD_ASYM_CPUCAPACITY;
import static dev.schedlab.topology.domain.SdFlags.SD_ASYM_CPUCAPACITY_FULL;
import static dev.schedlab.topology.domain.SdFlags.SD_ASYM_PACKING;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_EXEC;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_FORK;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_NEWIDLE;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_WAKE;
import static dev.schedlab.topology.domain.SdFlags.SD_CLUSTER;
import static dev.schedlab.topology.domain.SdFlags.SD_NUMA;
import static dev.schedlab.topology.domain.SdFlags.SD_PREFER_SIBLING;
import static dev.schedlab.topology.domain.SdFlags.SD_SERIALIZE;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_CPUCAPACITY;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_LLC;
import static dev.schedlab.topology.domain.SdFlags.SD_WAKE_AFFINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The flag constants carry the bit values of {@code sd_flags.h} (declaration order), the derived
 * masks match the meta-flags table, and {@code describe} prints names in bit order.
 */
final class SdFlagsTest {

  @Test
  void constants_haveKernelBitValues() {
    int[] flags = {
      SD_BALANCE_NEWIDLE,
      SD_BALANCE_EXEC,
      SD_BALANCE_FORK,
      SD_BALANCE_WAKE,
      SD_WAKE_AFFINE,
      SD_ASYM_CPUCAPACITY,
      SD_ASYM_CPUCAPACITY_FULL,
      SD_SHARE_CPUCAPACITY,
      SD_CLUSTER,
      SD_SHARE_LLC,
      SD_SERIALIZE,
      SD_ASYM_PACKING,
      SD_PREFER_SIBLING,
      SD_NUMA
    };
    for (int bit = 0; bit < flags.length; bit++) {
      assertThat(flags[bit]).as("bit %d", bit).isEqualTo(1 << bit);
    }
    assertThat(SD_NUMA).isEqualTo(0x2000);
    assertThat(SdFlags.FLAG_COUNT).isEqualTo(14);
  }

  @Test
  void derivedMasks_followMetaFlags() {
    assertThat(SdFlags.SD_DEGENERATE_GROUPS_MASK).isEqualTo(0x3fff & ~SD_WAKE_AFFINE);
    assertThat(SdFlags.SD_SHARED_CHILD_MASK)
        .isEqualTo(
            SD_BALANCE_NEWIDLE
                | SD_BALANCE_EXEC
                | SD_BALANCE_FORK
                | SD_BALANCE_WAKE
                | SD_WAKE_AFFINE
                | SD_SHARE_CPUCAPACITY
                | SD_SHARE_LLC);
    assertThat(SdFlags.metaFlags(SD_NUMA))
        .isEqualTo(SdFlags.SDF_SHARED_PARENT | SdFlags.SDF_NEEDS_GROUPS);
    assertThat(SdFlags.metaFlags(SD_CLUSTER)).isEqualTo(SdFlags.SDF_NEEDS_GROUPS);
    assertThat(SdFlags.TOPOLOGY_SD_FLAGS).isEqualTo(0x2b80);
  }

  @Test
  void describe_namesInBitOrder() {
    assertThat(SdFlags.describe(SD_SHARE_LLC | SD_BALANCE_NEWIDLE))
        .isEqualTo("SD_BALANCE_NEWIDLE|SD_SHARE_LLC");
    assertThat(SdFlags.describe(0)).isEqualTo("0");
    assertThat(SdFlags.describe(SD_NUMA | 0x8000)).isEqualTo("SD_NUMA|0x8000");
    assertThat(SdFlags.name(SD_ASYM_CPUCAPACITY_FULL)).isEqualTo("SD_ASYM_CPUCAPACITY_FULL");
  }

  @Test
  void name_notASingleFlag_rejected() {
    assertThatThrownBy(() -> SdFlags.name(SD_NUMA | SD_SERIALIZE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a single SD flag");
    assertThatThrownBy(() -> SdFlags.metaFlags(0x4000))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
