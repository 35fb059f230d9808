package dev.schedlab.core.stats;

import java.util.List;

/**
 * The content of {@code /proc/schedstat} version 17 at the end of a run: one entry per online CPU,
 * each with its domain lines bottom-up. {@link #toProcText()} writes the kernel's format ({@code
 * show_schedstat()}).
 *
 * @param timestampJiffies the {@code timestamp} line: jiffies since the simulation started (the
 *     kernel's counter starts at {@code INITIAL_JIFFIES}; the simulator's at 0)
 * @param cpus per-CPU entries in CPU order
 */
public record Schedstat(long timestampJiffies, List<CpuEntry> cpus) {

  /** {@code SCHEDSTAT_VERSION}. */
  public static final int VERSION = 17;

  public Schedstat {
    cpus = List.copyOf(cpus);
  }

  /**
   * One CPU's line and its domain lines.
   *
   * @param cpu the CPU number
   * @param counters the cpu line
   * @param domains domain lines, bottom-up (empty for a CPU outside every domain)
   */
  public record CpuEntry(int cpu, CpuSchedstat counters, List<DomainSchedstat> domains) {
    public CpuEntry {
      domains = List.copyOf(domains);
    }
  }

  /** The text of {@code /proc/schedstat}, lines separated by {@code \n}. */
  public String toProcText() {
    StringBuilder out = new StringBuilder(cpus.size() * 512);
    out.append("version ").append(VERSION).append('\n');
    out.append("timestamp ").append(timestampJiffies).append('\n');
    for (CpuEntry entry : cpus) {
      CpuSchedstat c = entry.counters();
      out.append("cpu")
          .append(entry.cpu())
          .append(' ')
          .append(c.yldCount())
          .append(" 0")
          .append(' ')
          .append(c.schedCount())
          .append(' ')
          .append(c.schedGoidle())
          .append(' ')
          .append(c.ttwuCount())
          .append(' ')
          .append(c.ttwuLocal())
          .append(' ')
          .append(c.rqCpuTimeNs())
          .append(' ')
          .append(c.runDelayNs())
          .append(' ')
          .append(c.pcount())
          .append('\n');
      for (DomainSchedstat domain : entry.domains()) {
        domain.appendTo(out);
        out.append('\n');
      }
    }
    return out.toString();
  }
}
