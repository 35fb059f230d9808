package dev.schedlab.oracle.kernel;

import dev.schedlab.oracle.report.OracleRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the guest's own counters say about why it balances idle CPUs: per second, the local timer
 * interrupts ({@code LOC} in {@code /proc/interrupts}: ticks) of the busy CPUs and, on average, of
 * each idle CPU (an idle CPU whose tick is stopped takes few), function-call IPIs ({@code CAL}:
 * NOHZ kicks are sent as {@code smp_call_function_single_async()}), reschedule IPIs ({@code RES})
 * and SCHED softirqs on busy and on idle CPUs. A CPU is busy when tasks ran on it for more than
 * half of the interval ({@code rq_cpu_time}). Kernel-only rows: the simulator has no such counters.
 */
public final class GuestDiagnosis {

  private GuestDiagnosis() {}

  /** The rows, or none when the snapshots are missing. */
  public static List<OracleRow> rows(
      String interruptsBefore,
      String interruptsAfter,
      String softirqsBefore,
      String softirqsAfter,
      KernelSchedstat before,
      KernelSchedstat after,
      double seconds) {
    List<OracleRow> rows = new ArrayList<>();
    if (interruptsBefore == null || interruptsAfter == null) {
      return rows;
    }
    Map<Integer, Boolean> busy = new HashMap<>();
    for (KernelSchedstat.Cpu a : after.cpus()) {
      before.cpus().stream()
          .filter(c -> c.cpu() == a.cpu())
          .findFirst()
          .ifPresent(b -> busy.put(a.cpu(), (a.fields()[6] - b.fields()[6]) / 1e9 > seconds / 2));
    }
    Map<String, long[]> irqA = perCpu(interruptsAfter);
    Map<String, long[]> irqB = perCpu(interruptsBefore);
    Map<String, long[]> softA = perCpu(softirqsAfter);
    Map<String, long[]> softB = perCpu(softirqsBefore);
    rows.add(
        split(
            "LOC (ticks) per busy CPU",
            "LOC (ticks) per idle CPU",
            irqA,
            irqB,
            "LOC",
            busy,
            seconds,
            rows));
    rows.add(
        split(
            "SCHED softirq per busy CPU",
            "SCHED softirq per idle CPU",
            softA,
            softB,
            "SCHED",
            busy,
            seconds,
            rows));
    for (String irq : List.of("CAL", "RES")) {
      long[] a = irqA.get(irq);
      long[] b = irqB.get(irq);
      if (a != null && b != null) {
        long sum = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
          sum += a[i] - b[i];
        }
        rows.add(kernelOnly(irq + " IPIs, all CPUs", sum / seconds));
      }
    }
    rows.add(kernelOnly("busy CPUs", busy.values().stream().filter(v -> v).count()));
    rows.removeIf(r -> r == null);
    return rows;
  }

  private static OracleRow split(
      String busyItem,
      String idleItem,
      Map<String, long[]> after,
      Map<String, long[]> before,
      String key,
      Map<Integer, Boolean> busy,
      double seconds,
      List<OracleRow> rows) {
    long[] a = after.get(key);
    long[] b = before.get(key);
    if (a == null || b == null) {
      return null;
    }
    double busySum = 0;
    double idleSum = 0;
    int busyCount = 0;
    int idleCount = 0;
    for (int cpu = 0; cpu < Math.min(a.length, b.length); cpu++) {
      if (busy.getOrDefault(cpu, false)) {
        busySum += a[cpu] - b[cpu];
        busyCount++;
      } else {
        idleSum += a[cpu] - b[cpu];
        idleCount++;
      }
    }
    rows.add(kernelOnly(busyItem, busyCount == 0 ? 0 : busySum / busyCount / seconds));
    return kernelOnly(idleItem, idleCount == 0 ? 0 : idleSum / idleCount / seconds);
  }

  private static OracleRow kernelOnly(String item, double value) {
    return new OracleRow(
        "guest diagnosis", item, OracleRow.format(value), "-", value, Double.NaN, true);
  }

  /** Rows of {@code /proc/interrupts} or {@code /proc/softirqs}: name to per-CPU counts. */
  static Map<String, long[]> perCpu(String text) {
    Map<String, long[]> out = new HashMap<>();
    if (text == null) {
      return out;
    }
    String[] lines = text.split("\n");
    int cpus = lines.length == 0 ? 0 : lines[0].trim().split("\\s+").length;
    for (int i = 1; i < lines.length; i++) {
      String[] f = lines[i].trim().split("\\s+");
      if (f.length < 2 || !f[0].endsWith(":")) {
        continue;
      }
      long[] counts = new long[cpus];
      for (int c = 0; c < cpus && c + 1 < f.length; c++) {
        try {
          counts[c] = Long.parseLong(f[c + 1]);
        } catch (NumberFormatException e) {
          break;
        }
      }
      out.put(f[0].substring(0, f[0].length() - 1), counts);
    }
    return out;
  }
}
