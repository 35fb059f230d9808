package dev.schedlab.topology.domain;

import dev.schedlab.cpumask.ImmutableCpuMask;

/**
 * One {@code struct sched_group} of a domain: a child domain's worth of CPUs that the balancer
 * compares with its siblings. Immutable; the dynamic part ({@code struct sched_group_capacity})
 * belongs to the engine, which keys it by {@link #capacitySlot()}.
 *
 * <p>Groups of the same level with the same span are usually the same object, as the kernel shares
 * them between CPUs; do not rely on identity, compare spans.
 */
public final class SchedGroup {

  private final ImmutableCpuMask span;
  private final ImmutableCpuMask balanceMask;
  private final int flags;
  private final int cores;
  private final int capacitySlot;

  /** {@code sg->group_weight}, counted once: the balancer reads it for every group it scans. */
  private final int weight;

  SchedGroup(
      ImmutableCpuMask span, ImmutableCpuMask balanceMask, int flags, int cores, int capacitySlot) {
    this.span = span;
    this.balanceMask = balanceMask;
    this.flags = flags;
    this.cores = cores;
    this.capacitySlot = capacitySlot;
    this.weight = span.weight();
  }

  /** Equivalent of {@code sched_group_span(sg)}. */
  public ImmutableCpuMask span() {
    return span;
  }

  /**
   * Equivalent of {@code group_balance_mask(sg)}: the CPUs of the group whose own child domain is
   * this group, i.e. the CPUs that can reach this group when balancing; equal to the span except in
   * overlapping NUMA groups ({@code build_balance_mask()}).
   */
  public ImmutableCpuMask balanceMask() {
    return balanceMask;
  }

  /** Equivalent of {@code group_balance_cpu(sg)}: the first CPU of {@link #balanceMask()}. */
  public int groupBalanceCpu() {
    return balanceMask.first();
  }

  /**
   * Equivalent of {@code sg->flags}: the flags of the child domain this group stands for; 0 when
   * that domain was removed as degenerate base domain ({@code cpu_attach_domain()}).
   */
  public int flags() {
    return flags;
  }

  /** Equivalent of {@code sg->cores}: the number of SMT cores with a CPU in the span. */
  public int cores() {
    return cores;
  }

  /** Equivalent of {@code sg->group_weight}: the number of CPUs in the span. */
  public int weight() {
    return weight;
  }

  /**
   * Dense index, machine-wide, of the group's {@code struct sched_group_capacity}: groups with the
   * same slot share one capacity object in the kernel (the same topology level and balance CPU, see
   * {@code get_group()} and {@code init_overlap_sched_group()}). In {@code [0,
   * SchedDomains.capacitySlotCount())}.
   */
  public int capacitySlot() {
    return capacitySlot;
  }

  @Override
  public String toString() {
    String text = "{" + span.toCpuList();
    if (!balanceMask.contentEquals(span)) {
      text += " mask=" + balanceMask.toCpuList();
    }
    return text + "}";
  }
}
