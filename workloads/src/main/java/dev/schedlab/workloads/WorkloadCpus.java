package dev.schedlab.workloads;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.topology.Topology;

/** Affinity lists, SMT-aware placement orders and policy names shared by the workloads. */
final class WorkloadCpus {

  /** Name of the cpulist parameter every workload takes. */
  static final String AFFINITY = "affinity";

  private WorkloadCpus() {}

  /** The {@code affinity} parameter: blank means every online CPU. */
  static ParameterSpec affinityParameter(String what) {
    return ParameterSpec.ofCpuList(
        AFFINITY, "CPUs " + what + " may run on (sched_setaffinity); empty = every online CPU", "");
  }

  /** The {@code policy} parameter: normal, batch or idle. */
  static ParameterSpec policyParameter(String what) {
    return ParameterSpec.ofChoice(
        "policy",
        "scheduling policy of " + what + " (SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE)",
        "normal",
        "normal",
        "batch",
        "idle");
  }

  /**
   * The online CPUs of {@code cpulist}, or {@code whenBlank} when the text is blank.
   *
   * @throws IllegalArgumentException naming the workload and parameter when the list is malformed,
   *     names a CPU the machine does not have, or holds no online CPU
   */
  static ImmutableCpuMask affinity(
      String workload, String parameter, String cpulist, Topology topology, CpuMask whenBlank) {
    ImmutableCpuMask online = topology.onlineMask();
    if (cpulist.isBlank()) {
      return whenBlank.toImmutable();
    }
    ImmutableCpuMask parsed;
    try {
      parsed = CpuMasks.parseCpuList(cpulist, topology.nrCpuIds());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          workload
              + ": "
              + parameter
              + "="
              + cpulist
              + " is not a cpulist of this machine ("
              + e.getMessage()
              + "); online CPUs: "
              + online.toCpuList(),
          e);
    }
    MutableCpuMask allowed = parsed.mutableCopy();
    allowed.andWith(online);
    if (allowed.isEmpty()) {
      throw new IllegalArgumentException(
          workload
              + ": "
              + parameter
              + "="
              + cpulist
              + " holds no online CPU; online CPUs: "
              + online.toCpuList());
    }
    return allowed.toImmutable();
  }

  /**
   * The workload's {@code affinity} parameter from {@code context}, blank meaning every online CPU
   * (see {@link #affinity(String, String, String, Topology, CpuMask)}).
   */
  static ImmutableCpuMask affinity(String workload, WorkloadContext context) {
    Topology topology = context.topology();
    return affinity(
        workload,
        AFFINITY,
        context.parameters().getString(AFFINITY),
        topology,
        topology.onlineMask());
  }

  /** The online CPUs of the lowest NUMA node that has any (node 0: 0-87,176-263 on Vera). */
  static ImmutableCpuMask firstNode(Topology topology) {
    for (int node : topology.nodes()) {
      MutableCpuMask cpus = topology.nodeMask(node).mutableCopy();
      cpus.andWith(topology.onlineMask());
      if (!cpus.isEmpty()) {
        return cpus.toImmutable();
      }
    }
    return topology.onlineMask();
  }

  /**
   * The CPUs of {@code cpus} in the order an OpenMP runtime spreads threads over cores ({@code
   * OMP_PLACES=cores}, {@code OMP_PROC_BIND=spread}): the first CPU of every core in ascending
   * order, then every core's second CPU, and so on. Thread {@code i} of a pinned run takes entry
   * {@code i}, so one thread per core leaves the SMT siblings free.
   */
  static int[] spreadOrder(Topology topology, CpuMask cpus) {
    int count = cpus.weight();
    int[] cpuAt = new int[count];
    int[] rankAt = new int[count];
    int maxRank = 0;
    int i = 0;
    for (int cpu = cpus.first(); cpu != CpuMask.NO_CPU; cpu = cpus.next(cpu)) {
      ImmutableCpuMask core = topology.smtSiblings(cpu);
      int rank = 0;
      for (int s = core.firstAnd(cpus); s != cpu; s = core.nextAnd(s, cpus)) {
        rank++;
      }
      cpuAt[i] = cpu;
      rankAt[i] = rank;
      maxRank = Math.max(maxRank, rank);
      i++;
    }
    int[] order = new int[count];
    int next = 0;
    for (int rank = 0; rank <= maxRank; rank++) {
      for (int j = 0; j < count; j++) {
        if (rankAt[j] == rank) {
          order[next++] = cpuAt[j];
        }
      }
    }
    return order;
  }

  /** Number of SMT cores with at least one CPU in {@code cpus}. */
  static int coreCount(Topology topology, CpuMask cpus) {
    int cores = 0;
    for (int cpu = cpus.first(); cpu != CpuMask.NO_CPU; cpu = cpus.next(cpu)) {
      if (topology.smtSiblings(cpu).firstAnd(cpus) == cpu) {
        cores++;
      }
    }
    return cores;
  }

  /** A one-CPU affinity mask. */
  static ImmutableCpuMask only(Topology topology, int cpu) {
    return CpuMasks.of(topology.nrCpuIds(), cpu);
  }

  /** The policy a {@link #policyParameter} value names. */
  static SchedPolicy policy(String name) {
    return switch (name) {
      case "batch" -> SchedPolicy.BATCH;
      case "idle" -> SchedPolicy.IDLE;
      default -> SchedPolicy.NORMAL;
    };
  }
}
