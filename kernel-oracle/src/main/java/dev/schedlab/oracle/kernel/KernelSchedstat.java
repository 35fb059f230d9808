package dev.schedlab.oracle.kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * One snapshot of the guest's {@code /proc/schedstat} in version 15 (Linux 6.1, {@code
 * show_schedstat()}): per CPU the line {@code cpuN yld_count 0 sched_count sched_goidle ttwu_count
 * ttwu_local rq_cpu_time run_delay pcount}, then per domain {@code domainK <mask>} with three
 * blocks of eight load-balance counters in the order of 6.1's {@code enum cpu_idle_type} (CPU_IDLE,
 * CPU_NOT_IDLE, CPU_NEWLY_IDLE; v17 puts busy first): lb_count, lb_balanced, lb_failed,
 * lb_imbalance, lb_gained, lb_hot_gained, lb_nobusyq, lb_nobusyg; then alb_count, alb_failed,
 * alb_pushed, three sbe and three sbf fields, ttwu_wake_remote, ttwu_move_affine,
 * ttwu_move_balance.
 *
 * @param version the version line's number
 * @param cpus the CPU entries
 */
public record KernelSchedstat(int version, List<Cpu> cpus) {

  /** Idle types as 6.1 orders them in a domain line. */
  public enum IdleType {
    /** {@code CPU_IDLE}: periodic or NOHZ balancing of an idle CPU. */
    IDLE,
    /** {@code CPU_NOT_IDLE}: periodic balancing of a busy CPU. */
    BUSY,
    /** {@code CPU_NEWLY_IDLE}: newidle balancing. */
    NEWLY_IDLE
  }

  /** The load-balance counters of one idle-type block, in their printed order. */
  public enum LbField {
    /** {@code lb_count}. */
    COUNT,
    /** {@code lb_balanced}. */
    BALANCED,
    /** {@code lb_failed}. */
    FAILED,
    /** {@code lb_imbalance}. */
    IMBALANCE,
    /** {@code lb_gained}. */
    GAINED
  }

  /**
   * One CPU.
   *
   * @param cpu the CPU
   * @param fields the cpu line's numbers after the CPU id
   * @param domains the domain lines, bottom-up
   */
  public record Cpu(int cpu, long[] fields, List<Domain> domains) {

    /** {@code sched_goidle}. */
    public long schedGoidle() {
      return fields.length > 3 ? fields[3] : 0;
    }

    /** {@code ttwu_count}. */
    public long ttwuCount() {
      return fields.length > 4 ? fields[4] : 0;
    }

    /** {@code ttwu_local}. */
    public long ttwuLocal() {
      return fields.length > 5 ? fields[5] : 0;
    }
  }

  /**
   * One domain line.
   *
   * @param index the {@code domainK} index
   * @param mask the span as a CPU list
   * @param fields the counters after the mask
   */
  public record Domain(int index, String mask, long[] fields) {

    /** A load-balance counter of one idle type. */
    public long lb(IdleType type, LbField field) {
      int at = type.ordinal() * 8 + field.ordinal();
      return at < fields.length ? fields[at] : 0;
    }
  }

  /**
   * Parses the file.
   *
   * @throws IllegalArgumentException when it is not a version 15 schedstat
   */
  public static KernelSchedstat parse(String text) {
    int version = -1;
    List<Cpu> cpus = new ArrayList<>();
    int cpu = -1;
    long[] cpuFields = null;
    List<Domain> domains = null;
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f[0].equals("version")) {
        version = Integer.parseInt(f[1]);
      } else if (f[0].startsWith("cpu")) {
        if (cpuFields != null) {
          cpus.add(new Cpu(cpu, cpuFields, List.copyOf(domains)));
        }
        cpu = Integer.parseInt(f[0].substring(3));
        cpuFields = numbers(f, 1);
        domains = new ArrayList<>();
      } else if (f[0].startsWith("domain") && domains != null) {
        domains.add(
            new Domain(
                Integer.parseInt(f[0].substring(6)),
                CpuList.format(CpuList.parseHex(f[1])),
                numbers(f, 2)));
      }
    }
    if (cpuFields != null) {
      cpus.add(new Cpu(cpu, cpuFields, List.copyOf(domains)));
    }
    if (version != 15) {
      throw new IllegalArgumentException(
          "/proc/schedstat version " + version + "; the oracle reads version 15 (Linux 6.1)");
    }
    return new KernelSchedstat(version, List.copyOf(cpus));
  }

  private static long[] numbers(String[] f, int from) {
    long[] out = new long[Math.max(0, f.length - from)];
    for (int i = from; i < f.length; i++) {
      out[i - from] = Long.parseLong(f[i]);
    }
    return out;
  }

  /** Per-CPU SCHED softirq counts from {@code /proc/softirqs}, summed over CPUs. */
  public static long schedSoftirqs(String softirqs) {
    for (String line : softirqs.split("\n")) {
      String t = line.trim();
      if (t.startsWith("SCHED:")) {
        long sum = 0;
        for (String n : t.substring(6).trim().split("\\s+")) {
          if (!n.isEmpty()) {
            sum += Long.parseLong(n);
          }
        }
        return sum;
      }
    }
    throw new IllegalArgumentException("/proc/softirqs has no SCHED line");
  }
}
