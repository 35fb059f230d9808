package dev.schedlab.topology.domain;

/**
 * The sched-domain flags with the kernel's bit values: bit {@code n} is the {@code n}-th {@code
 * SD_FLAG()} line of {@code include/linux/sched/sd_flags.h} (7.1), plus their meta-flags.
 */
public final class SdFlags {

  /** Balance when about to become idle. Meta: SHARED_CHILD, NEEDS_GROUPS. */
  public static final int SD_BALANCE_NEWIDLE = 0x0001;

  /** Balance on exec. Meta: SHARED_CHILD, NEEDS_GROUPS. */
  public static final int SD_BALANCE_EXEC = 0x0002;

  /** Balance on fork and clone. Meta: SHARED_CHILD, NEEDS_GROUPS. */
  public static final int SD_BALANCE_FORK = 0x0004;

  /** Balance on wakeup. Meta: SHARED_CHILD, NEEDS_GROUPS. */
  public static final int SD_BALANCE_WAKE = 0x0008;

  /** Consider waking the task on the waking CPU. Meta: SHARED_CHILD. */
  public static final int SD_WAKE_AFFINE = 0x0010;

  /** CPUs of the domain have different capacities. Meta: SHARED_PARENT, NEEDS_GROUPS. */
  public static final int SD_ASYM_CPUCAPACITY = 0x0020;

  /** The domain spans every capacity value of the system. Meta: SHARED_PARENT, NEEDS_GROUPS. */
  public static final int SD_ASYM_CPUCAPACITY_FULL = 0x0040;

  /** Members share CPU capacity (SMT). Meta: SHARED_CHILD, NEEDS_GROUPS. */
  public static final int SD_SHARE_CPUCAPACITY = 0x0080;

  /** Members share a cluster. Meta: NEEDS_GROUPS. */
  public static final int SD_CLUSTER = 0x0100;

  /** Members share the last-level cache. Meta: SHARED_CHILD, NEEDS_GROUPS. */
  public static final int SD_SHARE_LLC = 0x0200;

  /** Only one CPU balances this domain at a time. Meta: SHARED_PARENT, NEEDS_GROUPS. */
  public static final int SD_SERIALIZE = 0x0400;

  /** Place busy tasks earlier in the domain (asymmetric packing). Meta: NEEDS_GROUPS. */
  public static final int SD_ASYM_PACKING = 0x0800;

  /** Prefer to place tasks in a sibling domain. Meta: NEEDS_GROUPS. */
  public static final int SD_PREFER_SIBLING = 0x1000;

  /** A NUMA level. Meta: SHARED_PARENT, NEEDS_GROUPS. */
  public static final int SD_NUMA = 0x2000;

  /** Meta-flag {@code SDF_SHARED_CHILD}: set in a domain, the flag is set in all its children. */
  public static final int SDF_SHARED_CHILD = 0x1;

  /** Meta-flag {@code SDF_SHARED_PARENT}: set in a domain, the flag is set in all its parents. */
  public static final int SDF_SHARED_PARENT = 0x2;

  /** Meta-flag {@code SDF_NEEDS_GROUPS}: the flag only means something with at least 2 groups. */
  public static final int SDF_NEEDS_GROUPS = 0x4;

  /** Every flag with {@code SDF_NEEDS_GROUPS}: {@code SD_DEGENERATE_GROUPS_MASK}. */
  public static final int SD_DEGENERATE_GROUPS_MASK;

  /** Every flag with {@code SDF_SHARED_CHILD}: {@code SD_SHARED_CHILD_MASK}. */
  public static final int SD_SHARED_CHILD_MASK;

  /** Flags a topology level may contribute: {@code TOPOLOGY_SD_FLAGS}. */
  public static final int TOPOLOGY_SD_FLAGS =
      SD_SHARE_CPUCAPACITY | SD_CLUSTER | SD_SHARE_LLC | SD_NUMA | SD_ASYM_PACKING;

  private static final String[] NAMES = {
    "SD_BALANCE_NEWIDLE",
    "SD_BALANCE_EXEC",
    "SD_BALANCE_FORK",
    "SD_BALANCE_WAKE",
    "SD_WAKE_AFFINE",
    "SD_ASYM_CPUCAPACITY",
    "SD_ASYM_CPUCAPACITY_FULL",
    "SD_SHARE_CPUCAPACITY",
    "SD_CLUSTER",
    "SD_SHARE_LLC",
    "SD_SERIALIZE",
    "SD_ASYM_PACKING",
    "SD_PREFER_SIBLING",
    "SD_NUMA",
  };

  private static final int CHILD = SDF_SHARED_CHILD;
  private static final int PARENT = SDF_SHARED_PARENT;
  private static final int GROUPS = SDF_NEEDS_GROUPS;

  private static final int[] META = {
    CHILD | GROUPS, // SD_BALANCE_NEWIDLE
    CHILD | GROUPS, // SD_BALANCE_EXEC
    CHILD | GROUPS, // SD_BALANCE_FORK
    CHILD | GROUPS, // SD_BALANCE_WAKE
    CHILD, // SD_WAKE_AFFINE
    PARENT | GROUPS, // SD_ASYM_CPUCAPACITY
    PARENT | GROUPS, // SD_ASYM_CPUCAPACITY_FULL
    CHILD | GROUPS, // SD_SHARE_CPUCAPACITY
    GROUPS, // SD_CLUSTER
    CHILD | GROUPS, // SD_SHARE_LLC
    PARENT | GROUPS, // SD_SERIALIZE
    GROUPS, // SD_ASYM_PACKING
    GROUPS, // SD_PREFER_SIBLING
    PARENT | GROUPS, // SD_NUMA
  };

  /** Number of defined flags ({@code __SD_FLAG_CNT}). */
  public static final int FLAG_COUNT = NAMES.length;

  static {
    int groups = 0;
    int child = 0;
    for (int bit = 0; bit < FLAG_COUNT; bit++) {
      if ((META[bit] & SDF_NEEDS_GROUPS) != 0) {
        groups |= 1 << bit;
      }
      if ((META[bit] & SDF_SHARED_CHILD) != 0) {
        child |= 1 << bit;
      }
    }
    SD_DEGENERATE_GROUPS_MASK = groups;
    SD_SHARED_CHILD_MASK = child;
  }

  private SdFlags() {}

  /**
   * The meta-flags ({@code sd_flag_debug[].meta_flags}) of one flag.
   *
   * @throws IllegalArgumentException unless {@code flag} is exactly one defined flag
   */
  public static int metaFlags(int flag) {
    return META[bitOf(flag)];
  }

  /**
   * The name of one flag, e.g. {@code SD_SHARE_LLC}.
   *
   * @throws IllegalArgumentException unless {@code flag} is exactly one defined flag
   */
  public static String name(int flag) {
    return NAMES[bitOf(flag)];
  }

  /**
   * The flags as names joined by {@code |} in bit order, e.g. {@code
   * SD_BALANCE_NEWIDLE|SD_SHARE_LLC}; {@code 0} for no flags; undefined bits as a trailing hex
   * value.
   */
  public static String describe(int flags) {
    if (flags == 0) {
      return "0";
    }
    StringBuilder out = new StringBuilder();
    for (int bit = 0; bit < FLAG_COUNT; bit++) {
      if ((flags & (1 << bit)) != 0) {
        out.append(out.length() == 0 ? "" : "|").append(NAMES[bit]);
      }
    }
    int unknown = flags & ~((1 << FLAG_COUNT) - 1);
    if (unknown != 0) {
      out.append(out.length() == 0 ? "" : "|").append("0x").append(Integer.toHexString(unknown));
    }
    return out.toString();
  }

  private static int bitOf(int flag) {
    if (Integer.bitCount(flag) != 1 || Integer.numberOfTrailingZeros(flag) >= FLAG_COUNT) {
      throw new IllegalArgumentException(
          "0x"
              + Integer.toHexString(flag)
              + " is not a single SD flag (bits 0-"
              + (FLAG_COUNT - 1)
              + ")");
    }
    return Integer.numberOfTrailingZeros(flag);
  }
}
