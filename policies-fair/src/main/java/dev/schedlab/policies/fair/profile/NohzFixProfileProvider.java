package dev.schedlab.policies.fair.profile;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.Profile;
import dev.schedlab.spi.ProfileProvider;

/**
 * The {@value #NAME} profile: {@link FairProfiles#NOHZ_FIX}; experimental because its NOHZ rule is
 * not known to be in mainline.
 */
@AutoService(ProfileProvider.class)
public final class NohzFixProfileProvider implements ProfileProvider {

  /** The profile name; its id is {@code profile.nohz-fix}. */
  public static final String NAME = "nohz-fix";

  private static final PluginDescriptor DESCRIPTOR =
      FairProfiles.descriptor(
          NAME,
          "7.3 with the nohz_full NOHZ registration fix",
          FairProfiles.NOHZ_FIX,
          Capability.EXPERIMENTAL);

  private static final Profile PROFILE = FairProfiles.profile(NAME, FairProfiles.NOHZ_FIX);

  /** Called by {@link java.util.ServiceLoader}. */
  public NohzFixProfileProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Profile profile() {
    return PROFILE;
  }
}
