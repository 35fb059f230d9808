package dev.schedlab.policies.fair.profile;

import dev.schedlab.policies.fair.ilb.FirstIdleIlbSelectorProvider;
import dev.schedlab.policies.fair.ilb.IdleCoreIlbSelectorProvider;
import dev.schedlab.policies.fair.ilb.IlbPruning;
import dev.schedlab.policies.fair.nohz.AlwaysWhenStoppedNohzIdleTrackingProvider;
import dev.schedlab.policies.fair.nohz.TransitionOnlyNohzIdleTrackingProvider;
import dev.schedlab.policies.fair.wake.SchedIdleAnyWakeupPolicyProvider;
import dev.schedlab.policies.fair.wake.SchedIdleAwareWakeupPolicyProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.Profile;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The choices the fair-class profiles are composed from, one constant per behaviour with its
 * source, and the four compositions. Every profile picks exactly one ILB selector, one NOHZ
 * registration rule and one SCHED_IDLE wakee rule; the evidence for each pick is in the module
 * README.
 */
public final class FairProfiles {

  private static final String ID_PREFIX = "profile.";

  /** ILB: first idle housekeeping CPU, as in Linux 7.1 and 7.2. */
  public static final ProfileChoice ILB_FIRST_IDLE =
      new ProfileChoice(
          PluginRef.of(FirstIdleIlbSelectorProvider.ID),
          "ILB first-idle: find_new_ilb() of Linux 7.1.5 (kernel-facts §3.5, older form)");

  /** ILB: prefer a fully idle SMT core, the merged revision (v4) pinned explicitly. */
  public static final ProfileChoice ILB_IDLE_CORE =
      new ProfileChoice(
          new PluginRef(
              IdleCoreIlbSelectorProvider.ID,
              Map.of(IdleCoreIlbSelectorProvider.PRUNING, IlbPruning.V4.parameterValue())),
          "ILB idle-core v4: find_new_ilb() of fair.c@293f9611ae73, tip sched/core 2026-08-07,"
              + " 7.3 merge window (kernel-facts §3.5, seeds-digest §1)");

  /** NOHZ: register only on the tick-running to tick-stopped transition, as in 7.1.5. */
  public static final ProfileChoice NOHZ_TRANSITION_ONLY =
      new ProfileChoice(
          PluginRef.of(TransitionOnlyNohzIdleTrackingProvider.ID),
          "NOHZ transition-only: tick_nohz_idle_stop_tick() of Linux 7.1.5 (kernel-facts §3.3);"
              + " no later tick-sched.c read, no merged fix found");

  /** NOHZ: register whenever idle entry finds the tick stopped (the nohz_full fix). */
  public static final ProfileChoice NOHZ_ALWAYS_WHEN_STOPPED =
      new ProfileChoice(
          PluginRef.of(AlwaysWhenStoppedNohzIdleTrackingProvider.ID),
          "NOHZ always-when-stopped: the nohz_full fix of seeds-digest §4 (Ampere Altra,"
              + " 6.19-rc8), not in 7.1.5, mainline landing unverified");

  /** SCHED_IDLE: a SCHED_IDLE-only runqueue counts as idle for every wakee (up to Linux 7.0). */
  public static final ProfileChoice WAKE_SCHED_IDLE_ANY =
      new ProfileChoice(
          PluginRef.of(SchedIdleAnyWakeupPolicyProvider.ID),
          "SCHED_IDLE any: sched_idle_cpu() in the idle-CPU scans up to Linux 7.0; the fix"
              + " fd54d81c2c0e reached mainline with sched-core-2026-04-13, i.e. 7.1"
              + " (seeds-digest §5)");

  /** SCHED_IDLE: only non-SCHED_IDLE wakees may take a SCHED_IDLE-only runqueue (7.1 on). */
  public static final ProfileChoice WAKE_SCHED_IDLE_AWARE =
      new ProfileChoice(
          PluginRef.of(SchedIdleAwareWakeupPolicyProvider.ID),
          "SCHED_IDLE aware: choose_sched_idle_rq() of Linux 7.1.5 (kernel-facts §5.5), commit"
              + " fd54d81c2c0e merged for 7.1 (seeds-digest §5)");

  /** Linux 7.1 (and 7.2, for these behaviours). */
  public static final List<ProfileChoice> MAINLINE_7_1 =
      List.of(ILB_FIRST_IDLE, NOHZ_TRANSITION_ONLY, WAKE_SCHED_IDLE_AWARE);

  /** Linux 7.3: 7.1 with the idle-core ILB. */
  public static final List<ProfileChoice> MAINLINE_7_3 =
      List.of(ILB_IDLE_CORE, NOHZ_TRANSITION_ONLY, WAKE_SCHED_IDLE_AWARE);

  /**
   * 7.1 with the SCHED_IDLE rule from before the wakee fix, for the SCHED_IDLE comparison. For the
   * three behaviours modelled here this is also Linux 7.0's behaviour.
   */
  public static final List<ProfileChoice> PRE_7_0_SCHED_IDLE =
      List.of(ILB_FIRST_IDLE, NOHZ_TRANSITION_ONLY, WAKE_SCHED_IDLE_ANY);

  /** 7.3 with the nohz_full registration fix. */
  public static final List<ProfileChoice> NOHZ_FIX =
      List.of(ILB_IDLE_CORE, NOHZ_ALWAYS_WHEN_STOPPED, WAKE_SCHED_IDLE_AWARE);

  private FairProfiles() {}

  /** The profile called {@code name} with the plugins of {@code choices}, in order. */
  static Profile profile(String name, List<ProfileChoice> choices) {
    return new Profile(name, choices.stream().map(ProfileChoice::plugin).toList());
  }

  /**
   * The descriptor of profile {@code name}: id {@code profile.<name>}, a description made of {@code
   * summary} and the source of every choice, and the capabilities given.
   */
  static PluginDescriptor descriptor(
      String name, String summary, List<ProfileChoice> choices, Capability... capabilities) {
    String sources = choices.stream().map(ProfileChoice::source).collect(Collectors.joining("; "));
    return PluginDescriptor.builder(ID_PREFIX + name, PluginKind.PROFILE)
        .description(summary + ". " + sources)
        .source(sources)
        .capabilities(capabilities)
        .build();
  }
}
