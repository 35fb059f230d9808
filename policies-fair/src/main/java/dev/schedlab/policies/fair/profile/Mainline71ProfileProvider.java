package dev.schedlab.policies.fair.profile;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.Profile;
import dev.schedlab.spi.ProfileProvider;

/** The {@value #NAME} profile: {@link FairProfiles#MAINLINE_7_1}. */
@AutoService(ProfileProvider.class)
public final class Mainline71ProfileProvider implements ProfileProvider {

  /** The profile name; its id is {@code profile.mainline-7.1}. */
  public static final String NAME = "mainline-7.1";

  private static final PluginDescriptor DESCRIPTOR =
      FairProfiles.descriptor(
          NAME,
          "Linux 7.1 (also 7.2) fair-class behaviours",
          FairProfiles.MAINLINE_7_1,
          Capability.MAINLINE);

  private static final Profile PROFILE = FairProfiles.profile(NAME, FairProfiles.MAINLINE_7_1);

  /** Called by {@link java.util.ServiceLoader}. */
  public Mainline71ProfileProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Profile profile() {
    return PROFILE;
  }
}
