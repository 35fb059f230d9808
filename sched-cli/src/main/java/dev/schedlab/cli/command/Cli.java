package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.spi.PluginRegistry;
import java.io.PrintStream;

/**
 * The environment of one invocation: where output goes, whether progress may be shown, and the
 * plugins found on the class path (discovered once, at the edge, and handed to the commands).
 */
public final class Cli {

  private final PrintStream out;
  private final PrintStream err;
  private final boolean interactive;
  private PluginRegistry registry;

  /**
   * @param out reports
   * @param err the one-line error and, when {@code interactive}, progress
   * @param interactive whether stderr is a terminal someone watches
   */
  public Cli(PrintStream out, PrintStream err, boolean interactive) {
    this.out = out;
    this.err = err;
    this.interactive = interactive;
  }

  public PrintStream out() {
    return out;
  }

  public PrintStream err() {
    return err;
  }

  /** Whether progress lines may be written to stderr (a terminal; callers also honour --quiet). */
  boolean interactive() {
    return interactive;
  }

  /**
   * The plugins on the class path, loaded on first use.
   *
   * @throws BadInputException when two jars declare the same plugin id
   */
  PluginRegistry registry() {
    if (registry == null) {
      try {
        registry = PluginRegistry.load(Cli.class.getClassLoader());
      } catch (IllegalStateException e) {
        throw new BadInputException(e.getMessage(), e);
      }
    }
    return registry;
  }
}
