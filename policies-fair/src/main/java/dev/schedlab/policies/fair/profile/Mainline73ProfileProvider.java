package dev.schedlab.policies.fair.profile;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.Profile;
import dev.schedlab.spi.ProfileProvider;

/** The {@value #NAME} profile: {@link FairProfiles#MAINLINE_7_3}. */
@AutoService(ProfileProvider.class)
public final class Mainline73ProfileProvider implements ProfileProvider {

  /** The profile name; its id is {@code profile.mainline-7.3}. */
  public static final String NAME = "mainline-7.3";

  private static final PluginDescriptor DESCRIPTOR =
      FairProfiles.descriptor(
          NAME,
          "Linux 7.3: 7.1 with the idle-core ILB",
          FairProfiles.MAINLINE_7_3,
          Capability.MAINLINE);

  private static final Profile PROFILE = FairProfiles.profile(NAME, FairProfiles.MAINLINE_7_3);

  /** Called by {@link java.util.ServiceLoader}. */
  public Mainline73ProfileProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Profile profile() {
    return PROFILE;
  }
}
