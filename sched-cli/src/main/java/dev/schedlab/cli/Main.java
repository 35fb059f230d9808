package dev.schedlab.cli;

import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import java.io.PrintStream;
import java.util.List;

/**
 * Entry point of {@code schedlab}. Until the simulation engine and the comparison commands land,
 * it reports what the build contains: each extension point with the plugins discovered on the
 * class path, so a user can see which parts are usable.
 */
public final class Main {

  private Main() {}

  /** Runs the command line; exits 2 on bad input. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line with the given streams; returns the exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 0) {
      err.println(
          "schedlab: unknown command '" + args[0]
              + "'; this build has no subcommands yet (run without arguments for its status)");
      return 2;
    }
    PluginRegistry registry;
    try {
      registry = PluginRegistry.load();
    } catch (IllegalStateException e) {
      err.println("schedlab: " + e.getMessage());
      return 2;
    }
    out.println("schedlab " + version() + " - status of this build");
    out.println();
    out.printf("%-20s %6s  %s%n", "extension point", "count", "plugins");
    for (PluginKind kind : PluginKind.values()) {
      List<PluginProvider> providers = registry.list(kind);
      out.printf(
          "%-20s %6d  %s%n",
          kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
          providers.size(),
          providers.isEmpty() ? "(none yet)" : String.join(", ", ids(providers)));
    }
    out.println();
    out.println(
        "The default comparison (hw.vera, wl.gemm, mainline-7.1 vs mainline-7.3) needs the"
            + " simulation engine (sched-core), which is not in this build yet.");
    return 0;
  }

  private static List<String> ids(List<PluginProvider> providers) {
    return providers.stream().map(PluginProvider::id).collect(java.util.stream.Collectors.toList());
  }

  private static String version() {
    String v = Main.class.getPackage().getImplementationVersion();
    return v == null ? "(development build)" : v;
  }
}
