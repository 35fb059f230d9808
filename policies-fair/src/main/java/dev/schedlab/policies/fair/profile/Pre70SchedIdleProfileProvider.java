package dev.schedlab.policies.fair.profile;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.Profile;
import dev.schedlab.spi.ProfileProvider;

/**
 * The {@value #NAME} profile: {@link FairProfiles#PRE_7_0_SCHED_IDLE}. The wakee fix first shipped
 * in 7.1, so for the behaviours modelled this is Linux 7.0; the name is the one issue 5 gave.
 */
@AutoService(ProfileProvider.class)
public final class Pre70SchedIdleProfileProvider implements ProfileProvider {

  /** The profile name; its id is {@code profile.pre-7.0-sched-idle}. */
  public static final String NAME = "pre-7.0-sched-idle";

  private static final PluginDescriptor DESCRIPTOR =
      FairProfiles.descriptor(
          NAME,
          "7.1 with the SCHED_IDLE rule from before the wakee fix (the rule of 7.0 and earlier),"
              + " for the SCHED_IDLE comparison",
          FairProfiles.PRE_7_0_SCHED_IDLE,
          Capability.MAINLINE);

  private static final Profile PROFILE =
      FairProfiles.profile(NAME, FairProfiles.PRE_7_0_SCHED_IDLE);

  /** Called by {@link java.util.ServiceLoader}. */
  public Pre70SchedIdleProfileProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Profile profile() {
    return PROFILE;
  }
}
