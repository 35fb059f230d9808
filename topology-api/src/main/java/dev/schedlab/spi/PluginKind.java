package dev.schedlab.spi;

/** The extension points of schedlab; each has exactly one provider interface. */
public enum PluginKind {
  /** {@link IlbSelectorProvider}: chooses the NOHZ idle load balancer ({@code find_new_ilb()}). */
  ILB_SELECTOR(IlbSelectorProvider.class),
  /** {@link NohzIdleTrackingProvider}: when an idle CPU joins {@code nohz.idle_cpus_mask}. */
  NOHZ_IDLE_TRACKING(NohzIdleTrackingProvider.class),
  /** {@link BalancePassProvider}: hooks around periodic and newidle balancing. */
  BALANCE_PASS(BalancePassProvider.class),
  /** {@link WakeupPolicyProvider}: hooks in wakeup placement ({@code select_task_rq_fair()}). */
  WAKEUP_POLICY(WakeupPolicyProvider.class),
  /** {@link HardwareModelProvider}: a machine: topology plus performance model. */
  HARDWARE_MODEL(HardwareModelProvider.class),
  /** {@link WorkloadProvider}: a workload generator that reports its own metric. */
  WORKLOAD(WorkloadProvider.class),
  /** {@link ProfileProvider}: a named bundle of policy plugins (a kernel version or a series). */
  PROFILE(ProfileProvider.class);

  private final Class<? extends PluginProvider> providerType;

  PluginKind(Class<? extends PluginProvider> providerType) {
    this.providerType = providerType;
  }

  /** The provider interface registered with {@code @AutoService} for this kind. */
  public Class<? extends PluginProvider> providerType() {
    return providerType;
  }

  /** Whether plugins of this kind change scheduler policy (and so may appear in a variant). */
  public boolean isPolicy() {
    return this == ILB_SELECTOR
        || this == NOHZ_IDLE_TRACKING
        || this == BALANCE_PASS
        || this == WAKEUP_POLICY;
  }
}
