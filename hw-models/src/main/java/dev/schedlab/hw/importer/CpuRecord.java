package dev.schedlab.hw.importer;

/**
 * One logical CPU as an importer saw it. Group ids ({@code packageId} .. {@code coreId}) are dense
 * machine-wide indexes assigned in order of each group's lowest CPU, so they are comparable across
 * importers; they are not the operating system's numbers (sysfs {@code core_id} repeats in every
 * package, arm64 package ids are ACPI offsets such as 36 and 8442). {@code node} is the operating
 * system's NUMA node number, which may be sparse, or -1 when the CPU belongs to no known node.
 *
 * <p>An offline CPU (known to exist but not running: hwloc {@code complete_cpuset} minus {@code
 * cpuset}, sysfs {@code online} = 0, lscpu {@code N}) has every group id -1, since no source
 * reports its place reliably.
 *
 * @param cpu logical CPU number (the kernel's CPU id, hwloc's PU {@code os_index})
 * @param packageId dense package (socket) index, -1 when offline
 * @param dieId dense die index; the package's when the source reports no dies
 * @param llcId dense last-level-cache index; the die's when the source reports no caches
 * @param clusterId dense cluster index (hwloc Cluster group, sysfs {@code cluster_cpus}, or a
 *     shared L2); the core's when the source reports none
 * @param coreId dense SMT core index
 * @param node NUMA node number, -1 when unknown
 * @param capacity {@code arch_scale_cpu_capacity()} in 1..1024
 * @param online whether the CPU runs
 * @param allowed whether the importing process's cgroup allowed it (hwloc {@code allowed_cpuset})
 */
public record CpuRecord(
    int cpu,
    int packageId,
    int dieId,
    int llcId,
    int clusterId,
    int coreId,
    int node,
    int capacity,
    boolean online,
    boolean allowed) {

  public CpuRecord {
    if (cpu < 0) {
      throw new IllegalArgumentException("negative CPU number " + cpu);
    }
    if (capacity < 1 || capacity > 1024) {
      throw new IllegalArgumentException(
          "CPU " + cpu + ": capacity " + capacity + " not in 1..1024");
    }
    if (online && (packageId < 0 || dieId < 0 || llcId < 0 || clusterId < 0 || coreId < 0)) {
      throw new IllegalArgumentException("online CPU " + cpu + " lacks a group id");
    }
    if (node < -1) {
      throw new IllegalArgumentException("CPU " + cpu + ": node " + node);
    }
  }

  /** An offline CPU: no group ids, full capacity. */
  static CpuRecord offline(int cpu, boolean allowed) {
    return new CpuRecord(cpu, -1, -1, -1, -1, -1, -1, 1024, false, allowed);
  }
}
