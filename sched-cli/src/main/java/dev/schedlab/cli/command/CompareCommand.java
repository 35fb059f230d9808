package dev.schedlab.cli.command;

import java.util.List;
import picocli.CommandLine.Command;

/** {@code schedlab compare}: one scenario, several variants side by side. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Simulate one scenario under several variants and compare them side by side.")
public final class CompareCommand extends ScenarioCommand {

  public CompareCommand(Cli cli) {
    super(cli);
  }

  @Override
  List<String> defaultVariants() {
    return List.of();
  }

  @Override
  int maxVariants() {
    return 16;
  }
}
