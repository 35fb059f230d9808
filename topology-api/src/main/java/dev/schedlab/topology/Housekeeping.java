package dev.schedlab.topology;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The housekeeping masks set by the {@code nohz_full=} and {@code isolcpus=} boot options: models
 * {@code housekeeping_setup()}, {@code housekeeping_nohz_full_setup()} and {@code
 * housekeeping_isolcpus_setup()} in {@code kernel/sched/isolation.c}. Immutable.
 *
 * <p>A housekeeping mask holds the CPUs that <em>do</em> the housekeeping work of its type; the
 * CPUs named in a boot option are the ones removed from it. A type no option touched is not
 * {@linkplain #isEnabled enabled} and its mask is every CPU, as {@code housekeeping_cpumask()}
 * returns {@code cpu_possible_mask} then.
 *
 * <p>Accepted syntax, as the kernel's: {@code nohz_full=<cpulist>} removes the CPUs from {@link
 * HousekeepingType#KERNEL_NOISE} and stops their tick; {@code isolcpus=[flag,]...<cpulist>} with
 * flags {@code nohz} ({@link HousekeepingType#KERNEL_NOISE}), {@code domain} ({@link
 * HousekeepingType#DOMAIN}) and {@code managed_irq} ({@link HousekeepingType#MANAGED_IRQ}), each
 * followed by a comma; without flags it means {@code domain}. Several options combine; when two of
 * them set the same type they must name the same CPUs (the kernel keeps the first and warns {@code
 * "Housekeeping: nohz_full= must match isolcpus="}; this class refuses). As in the kernel, when an
 * option would leave a type with no housekeeping CPU at all, the boot CPU (CPU 0) stays a
 * housekeeping CPU of that type. Other boot parameters in the string are ignored.
 */
public final class Housekeeping {

  private static final String FLAGS_ALLOWED = "nohz, domain, managed_irq";

  private final int nrCpuIds;
  private final Map<HousekeepingType, ImmutableCpuMask> masks;
  private final ImmutableCpuMask nohzFull;
  private final String bootArgs;

  private Housekeeping(
      int nrCpuIds,
      Map<HousekeepingType, ImmutableCpuMask> masks,
      ImmutableCpuMask nohzFull,
      String bootArgs) {
    this.nrCpuIds = nrCpuIds;
    this.masks = masks;
    this.nohzFull = nohzFull;
    this.bootArgs = bootArgs;
  }

  /**
   * No isolation: every CPU does every kind of housekeeping (no {@code nohz_full=}/{@code
   * isolcpus=}).
   */
  public static Housekeeping none(int nrCpuIds) {
    CpuMasks.empty(nrCpuIds); // validates the width with the mask package's message
    return new Housekeeping(
        nrCpuIds, new EnumMap<>(HousekeepingType.class), CpuMasks.empty(nrCpuIds), "");
  }

  /**
   * Parses the {@code nohz_full=} and {@code isolcpus=} parameters of a kernel command line such as
   * {@code "quiet nohz_full=1-175 isolcpus=domain,managed_irq,2-5"}.
   *
   * @throws IllegalArgumentException naming the parameter, what is wrong with it and what is
   *     allowed: a malformed cpulist, a CPU at or above {@code nrCpuIds}, an unknown {@code
   *     isolcpus} flag, flags without a cpulist, or two parameters disagreeing about one type
   */
  public static Housekeeping parse(String bootArgs, int nrCpuIds) {
    Objects.requireNonNull(bootArgs, "bootArgs");
    CpuMasks.empty(nrCpuIds);
    Map<HousekeepingType, ImmutableCpuMask> isolated = new EnumMap<>(HousekeepingType.class);
    Map<HousekeepingType, String> setBy = new EnumMap<>(HousekeepingType.class);
    ImmutableCpuMask tickStopped = null;
    StringBuilder canonical = new StringBuilder();
    for (String token : bootArgs.trim().split("\\s+")) {
      if (token.isEmpty()) {
        continue;
      }
      if (token.equals("nohz_full") || token.equals("isolcpus")) {
        throw new IllegalArgumentException(
            "boot parameter " + token + " needs a value: " + token + "=<cpulist>");
      }
      if (token.startsWith("nohz_full=")) {
        ImmutableCpuMask cpus = parseList(token, token.substring("nohz_full=".length()), nrCpuIds);
        cpus = keepBootCpu(cpus);
        record(isolated, setBy, HousekeepingType.KERNEL_NOISE, cpus, token);
        tickStopped = tickStopped == null ? cpus : tickStopped;
        append(canonical, "nohz_full=" + cpus.toCpuList());
      } else if (token.startsWith("isolcpus=")) {
        String value = token.substring("isolcpus=".length());
        int flagsEnd = 0;
        boolean nohz = false;
        boolean domain = false;
        boolean managedIrq = false;
        while (flagsEnd < value.length() && Character.isLetter(value.charAt(flagsEnd))) {
          int comma = value.indexOf(',', flagsEnd);
          String flag = comma < 0 ? value.substring(flagsEnd) : value.substring(flagsEnd, comma);
          switch (flag) {
            case "nohz" -> nohz = true;
            case "domain" -> domain = true;
            case "managed_irq" -> managedIrq = true;
            default ->
                throw new IllegalArgumentException(
                    token
                        + ": unknown isolcpus flag '"
                        + flag
                        + "'; allowed flags: "
                        + FLAGS_ALLOWED
                        + ", each followed by a comma, then a cpulist");
          }
          if (comma < 0) {
            throw new IllegalArgumentException(
                token
                    + ": no cpulist after the flags; expected isolcpus=[flag,]...<cpulist>"
                    + " with flags "
                    + FLAGS_ALLOWED);
          }
          flagsEnd = comma + 1;
        }
        if (!nohz && !managedIrq) {
          domain = true;
        }
        ImmutableCpuMask cpus = parseList(token, value.substring(flagsEnd), nrCpuIds);
        cpus = keepBootCpu(cpus);
        StringBuilder flags = new StringBuilder();
        if (nohz) {
          record(isolated, setBy, HousekeepingType.KERNEL_NOISE, cpus, token);
          tickStopped = tickStopped == null ? cpus : tickStopped;
          flags.append("nohz,");
        }
        if (domain) {
          record(isolated, setBy, HousekeepingType.DOMAIN, cpus, token);
          flags.append("domain,");
        }
        if (managedIrq) {
          record(isolated, setBy, HousekeepingType.MANAGED_IRQ, cpus, token);
          flags.append("managed_irq,");
        }
        append(canonical, "isolcpus=" + flags + cpus.toCpuList());
      }
    }
    Map<HousekeepingType, ImmutableCpuMask> masks = new EnumMap<>(HousekeepingType.class);
    for (Map.Entry<HousekeepingType, ImmutableCpuMask> entry : isolated.entrySet()) {
      MutableCpuMask housekeeping = CpuMasks.mutable(nrCpuIds);
      housekeeping.fill();
      housekeeping.andNotWith(entry.getValue());
      masks.put(entry.getKey(), housekeeping.toImmutable());
    }
    return new Housekeeping(
        nrCpuIds,
        masks,
        tickStopped == null ? CpuMasks.empty(nrCpuIds) : tickStopped,
        canonical.toString());
  }

  private static ImmutableCpuMask parseList(String token, String list, int nrCpuIds) {
    if (list.isEmpty()) {
      throw new IllegalArgumentException(
          token
              + ": empty cpulist; expected a cpulist such as 1-175 or 2,4-7 with CPUs below "
              + nrCpuIds);
    }
    try {
      return CpuMasks.parseCpuList(list, nrCpuIds);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new IllegalArgumentException(
          token
              + ": bad cpulist ("
              + e.getMessage()
              + "); expected a cpulist such as 1-175 or"
              + " 2,4-7 with CPUs below "
              + nrCpuIds,
          e);
    }
  }

  /**
   * Models the "must include one present CPU, using boot CPU" rule of {@code housekeeping_setup()}:
   * an option naming every CPU leaves CPU 0 doing housekeeping.
   */
  private static ImmutableCpuMask keepBootCpu(ImmutableCpuMask isolated) {
    if (!isolated.isFull()) {
      return isolated;
    }
    MutableCpuMask kept = isolated.mutableCopy();
    kept.clear(0);
    return kept.toImmutable();
  }

  private static void record(
      Map<HousekeepingType, ImmutableCpuMask> isolated,
      Map<HousekeepingType, String> setBy,
      HousekeepingType type,
      ImmutableCpuMask cpus,
      String token) {
    ImmutableCpuMask earlier = isolated.get(type);
    if (earlier != null && !earlier.contentEquals(cpus)) {
      throw new IllegalArgumentException(
          token
              + " and "
              + setBy.get(type)
              + " both set "
              + type
              + " housekeeping but name"
              + " different CPUs ("
              + cpus.toCpuList()
              + " vs "
              + earlier.toCpuList()
              + "); nohz_full= must match isolcpus=nohz, and repeated options must agree");
    }
    isolated.put(type, cpus);
    setBy.putIfAbsent(type, token);
  }

  private static void append(StringBuilder canonical, String parameter) {
    if (canonical.length() > 0) {
      canonical.append(' ');
    }
    canonical.append(parameter);
  }

  /** Width of every mask here. */
  public int nrCpuIds() {
    return nrCpuIds;
  }

  /**
   * Equivalent of {@code housekeeping_cpumask(type)}: the CPUs doing this kind of housekeeping;
   * every CPU when the type is not {@linkplain #isEnabled enabled}.
   */
  public ImmutableCpuMask mask(HousekeepingType type) {
    ImmutableCpuMask mask = masks.get(Objects.requireNonNull(type, "type"));
    return mask != null ? mask : CpuMasks.full(nrCpuIds);
  }

  /** Equivalent of {@code housekeeping_enabled(type)}: some boot option isolated CPUs from it. */
  public boolean isEnabled(HousekeepingType type) {
    return masks.containsKey(Objects.requireNonNull(type, "type"));
  }

  /** Equivalent of {@code housekeeping_cpu(cpu, type)} / {@code housekeeping_test_cpu()}. */
  public boolean isHousekeeping(int cpu, HousekeepingType type) {
    checkCpu(cpu);
    ImmutableCpuMask mask = masks.get(Objects.requireNonNull(type, "type"));
    return mask == null || mask.test(cpu);
  }

  /**
   * Equivalent of {@code tick_nohz_full_cpu(cpu)}: the CPU's tick may stop while it runs a task
   * ({@code nohz_full=} or {@code isolcpus=nohz}).
   */
  public boolean isNohzFull(int cpu) {
    checkCpu(cpu);
    return nohzFull.test(cpu);
  }

  /** Equivalent of {@code tick_nohz_full_mask}; empty without {@code nohz_full=}. */
  public ImmutableCpuMask nohzFullMask() {
    return nohzFull;
  }

  /**
   * The boot parameters in canonical form, e.g. {@code "nohz_full=1-175 isolcpus=domain,2-5"};
   * empty for {@link #none}. Parsing it again gives an equal object.
   */
  public String toBootArgs() {
    return bootArgs;
  }

  private void checkCpu(int cpu) {
    if (cpu < 0 || cpu >= nrCpuIds) {
      throw new IndexOutOfBoundsException("CPU " + cpu + " outside [0, " + nrCpuIds + ")");
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Housekeeping that
        && nrCpuIds == that.nrCpuIds
        && masks.equals(that.masks)
        && nohzFull.equals(that.nohzFull);
  }

  @Override
  public int hashCode() {
    return Objects.hash(nrCpuIds, masks, nohzFull);
  }

  @Override
  public String toString() {
    return bootArgs.isEmpty() ? "Housekeeping[none]" : "Housekeeping[" + bootArgs + "]";
  }
}
