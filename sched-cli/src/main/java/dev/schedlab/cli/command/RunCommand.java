package dev.schedlab.cli.command;

import java.util.List;
import picocli.CommandLine.Command;

/** {@code schedlab run}: {@code compare} with one variant, mainline 7.3 unless told otherwise. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Simulate one scenario under one variant (default mainline-7.3).")
public final class RunCommand extends ScenarioCommand {

  public RunCommand(Cli cli) {
    super(cli);
  }

  @Override
  List<String> defaultVariants() {
    return List.of("mainline-7.3=mainline-7.3");
  }

  @Override
  int maxVariants() {
    return 1;
  }
}
