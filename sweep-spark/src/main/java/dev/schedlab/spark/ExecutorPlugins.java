package dev.schedlab.spark;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.spi.PluginRegistry;

/**
 * The plugins of one executor JVM, found once through ServiceLoader among the jars the job shipped
 * (schedlab-spark.jar and any {@code --jars}), then shared by every cell that runs there.
 */
final class ExecutorPlugins {

  private static PluginRegistry registry;

  private ExecutorPlugins() {}

  /**
   * The executor's plugins.
   *
   * @throws BadInputException when two jars declare the same plugin id
   */
  static synchronized PluginRegistry registry() {
    if (registry == null) {
      try {
        registry = PluginRegistry.load(ExecutorPlugins.class.getClassLoader());
      } catch (IllegalStateException e) {
        throw new BadInputException(e.getMessage(), e);
      }
    }
    return registry;
  }
}
