package dev.schedlab.cli.command;

import picocli.CommandLine;

/** The version printed by {@code --version}. */
public final class Version implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = Version.class.getPackage().getImplementationVersion();
    return new String[] {"schedlab " + (v == null ? "(development build)" : v)};
  }
}
