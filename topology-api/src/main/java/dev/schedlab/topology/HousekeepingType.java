package dev.schedlab.topology;

/**
 * The housekeeping mask kinds a simulation distinguishes: the equivalent of {@code enum hk_type} in
 * {@code include/linux/sched/isolation.h}, reduced to the types the boot options set.
 */
public enum HousekeepingType {

  /**
   * {@code HK_TYPE_KERNEL_NOISE}: CPUs that take ticks, timers, RCU callbacks, unbound work and
   * kthreads, and may be chosen as NOHZ idle-balance CPUs. The CPUs of {@code nohz_full=} or {@code
   * isolcpus=nohz,...} are removed from it.
   */
  KERNEL_NOISE,

  /**
   * {@code HK_TYPE_DOMAIN}: CPUs that take part in sched domains and load balancing. The CPUs of
   * {@code isolcpus=domain,...} (or {@code isolcpus=} without flags) are removed from it.
   */
  DOMAIN,

  /** {@code HK_TYPE_MANAGED_IRQ}: CPUs of {@code isolcpus=managed_irq,...} are removed from it. */
  MANAGED_IRQ
}
