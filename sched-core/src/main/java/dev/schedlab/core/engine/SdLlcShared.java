package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;

/**
 * The {@code struct sched_domain_shared} of each LLC: {@code nr_busy_cpus}, which NOHZ registration
 * keeps ({@code set_cpu_sd_state_idle()}, {@code set_cpu_sd_state_busy()}) and the busy tick's kick
 * decision reads, and what wakeup placement reads: {@code has_idle_cores} ({@code
 * test_idle_cores()}, {@code set_idle_cores()}) and SIS_UTIL's {@code nr_idle_scan}, which {@link
 * #updateIdleCpuScan} refreshes as {@code update_idle_cpu_scan()} does.
 *
 * <p>Simplification: the kernel refreshes {@code nr_idle_scan} from within the LLC domain's
 * periodic balance; the engine does it every {@link #idleScanPeriodJiffies()} from the tick.
 */
final class SdLlcShared {

  private final SchedDomains domains;
  private final CpuStateView state;
  private final boolean sisUtil;

  /** {@code sd_llc_shared->has_idle_cores}, per LLC id. */
  private final boolean[] hasIdleCores;

  /** {@code sd_llc_shared->nr_idle_scan}, per LLC id. */
  private final int[] nrIdleScan;

  private final int[] llcFirstCpu;
  private final long idleScanPeriodJiffies;

  /** {@code sd_llc_shared->nr_busy_cpus}, per {@link SchedDomains#llcId}. */
  private final int[] nrBusyCpus;

  /** {@code sd->nohz_idle} of each CPU's LLC domain. */
  private final boolean[] llcNohzIdle;

  SdLlcShared(EngineContext ctx) {
    this.domains = ctx.domains;
    this.state = ctx.state;
    this.sisUtil = ctx.options.sisUtil();
    int llcs = Math.max(1, domains.llcCount());
    this.hasIdleCores = new boolean[llcs];
    this.nrIdleScan = new int[llcs];
    this.llcFirstCpu = new int[llcs];
    java.util.Arrays.fill(llcFirstCpu, -1);
    for (int cpu = 0; cpu < ctx.topology.nrCpuIds(); cpu++) {
      if (!ctx.topology.isPossible(cpu)) {
        continue;
      }
      int llc = domains.llcId(cpu);
      if (llc != SchedDomains.NO_LLC && llcFirstCpu[llc] < 0) {
        llcFirstCpu[llc] = cpu;
        // Assumed start value: an idle machine scans its whole LLC.
        nrIdleScan[llc] = domains.llcSize(cpu);
      }
    }
    int weight = 1;
    for (int llc = 0; llc < llcFirstCpu.length; llc++) {
      if (llcFirstCpu[llc] >= 0) {
        weight = Math.max(weight, domains.llcSize(llcFirstCpu[llc]));
      }
    }
    this.idleScanPeriodJiffies = Math.max(1, ctx.msecsToJiffies(weight));
    this.nrBusyCpus = new int[llcs];
    for (int cpu = 0; cpu < ctx.topology.nrCpuIds(); cpu++) {
      int llc = ctx.topology.isPossible(cpu) ? domains.llcId(cpu) : SchedDomains.NO_LLC;
      if (llc != SchedDomains.NO_LLC) {
        nrBusyCpus[llc]++;
      }
    }
    this.llcNohzIdle = new boolean[ctx.topology.nrCpuIds()];
  }

  /** {@code sd_llc_shared->nr_busy_cpus} of LLC {@code llc}. */
  int nrBusyCpus(int llc) {
    return nrBusyCpus[llc];
  }

  /** Number of LLC slots ({@link #nrBusyCpus} takes 0 up to this, exclusive). */
  int llcSlots() {
    return nrBusyCpus.length;
  }

  /** Equivalent of {@code set_cpu_sd_state_idle(cpu)}: the CPU stops counting as busy. */
  void setCpuSdStateIdle(int cpu) {
    int llc = domains.llcId(cpu);
    if (llc != SchedDomains.NO_LLC && !llcNohzIdle[cpu]) {
      llcNohzIdle[cpu] = true;
      nrBusyCpus[llc]--;
    }
  }

  /** Equivalent of {@code set_cpu_sd_state_busy(cpu)}. */
  void setCpuSdStateBusy(int cpu) {
    int llc = domains.llcId(cpu);
    if (llc != SchedDomains.NO_LLC && llcNohzIdle[cpu]) {
      llcNohzIdle[cpu] = false;
      nrBusyCpus[llc]++;
    }
  }

  /** Equivalent of {@code test_idle_cores(cpu)}. */
  boolean testIdleCores(int cpu) {
    int llc = domains.llcId(cpu);
    return llc != SchedDomains.NO_LLC && hasIdleCores[llc];
  }

  /** Equivalent of {@code set_idle_cores(cpu, val)}. */
  void setIdleCores(int cpu, boolean value) {
    int llc = domains.llcId(cpu);
    if (llc != SchedDomains.NO_LLC) {
      hasIdleCores[llc] = value;
    }
  }

  /** {@code sd_llc_shared->nr_idle_scan} of {@code cpu}'s LLC, or -1 without an LLC. */
  int nrIdleScan(int cpu) {
    int llc = domains.llcId(cpu);
    return llc == SchedDomains.NO_LLC ? -1 : nrIdleScan[llc];
  }

  /**
   * How often the engine refreshes {@code nr_idle_scan}: every LLC domain's minimum balance
   * interval (its span weight in ms), the cadence of the kernel's refresh from the LLC domain's
   * periodic balance, without coupling to the balancer.
   */
  long idleScanPeriodJiffies() {
    return idleScanPeriodJiffies;
  }

  /**
   * Equivalent of {@code update_idle_cpu_scan()} for every LLC: {@code y = 1024 - min(1024, x^2 *
   * pct^2 / (10000 * 1024))} with {@code x} the mean {@code cpu_util_cfs()} over the LLC, then
   * {@code nr_idle_scan = y * llc_weight / 1024}.
   */
  void updateIdleCpuScan() {
    if (!sisUtil) {
      return;
    }
    for (int llc = 0; llc < llcFirstCpu.length; llc++) {
      int first = llcFirstCpu[llc];
      if (first < 0) {
        continue;
      }
      SchedDomain sd = domains.sdLlc(first);
      CpuMask span = sd.span();
      long sumUtil = 0;
      for (int cpu = span.first(); cpu != CpuMask.NO_CPU; cpu = span.next(cpu)) {
        sumUtil += state.utilAvg(cpu);
      }
      int llcWeight = sd.spanWeight();
      long x = sumUtil / llcWeight;
      long pct = sd.imbalancePct();
      long tmp = x * x * pct * pct / (10000L * 1024);
      tmp = Math.min(tmp, 1024);
      long y = 1024 - tmp;
      nrIdleScan[llc] = (int) (y * llcWeight / 1024);
    }
  }
}
