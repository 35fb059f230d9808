package dev.schedlab.cli.command;

import dev.schedlab.cli.report.BuildInfo;
import picocli.CommandLine;

/** The version printed by {@code --version}: the version and the commit the jar was built from. */
public final class Version implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    BuildInfo build = BuildInfo.CURRENT;
    return new String[] {"schedlab " + build.version(), "commit " + build.commitLabel()};
  }
}
