package dev.schedlab.cli.command;

import dev.schedlab.cli.args.EngineSettings;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.report.Json;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.ProfileProvider;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code schedlab machines|policies|workloads}: the plugins of some kinds with their ids,
 * descriptions, parameters (default and allowed values) and the jar each came from.
 */
public abstract class ListCommand implements Callable<Integer> {

  private final Cli cli;
  private final String jsonKey;
  private final List<PluginKind> kinds;

  @Option(
      names = "--format",
      paramLabel = "text|json",
      description = "output format (default text)")
  TextOrJson format = TextOrJson.text;

  /** Lists the plugins of {@code kinds}, grouped in that order. */
  ListCommand(Cli cli, String jsonKey, List<PluginKind> kinds) {
    this.cli = cli;
    this.jsonKey = jsonKey;
    this.kinds = kinds;
  }

  @Override
  public Integer call() {
    List<PluginProvider> providers = new ArrayList<>();
    for (PluginKind kind : kinds) {
      providers.addAll(cli.registry().list(kind));
    }
    if (format == TextOrJson.json) {
      List<Object> items = new ArrayList<>();
      for (PluginProvider p : providers) {
        items.add(json(p));
      }
      Map<String, Object> root = new LinkedHashMap<>();
      root.put(jsonKey, items);
      cli.out().print(Json.pretty(root));
    } else {
      text(cli.out(), providers);
    }
    return 0;
  }

  private void text(PrintStream out, List<PluginProvider> providers) {
    if (providers.isEmpty()) {
      out.println("(no " + jsonKey + " on the class path)");
      return;
    }
    PluginKind previous = null;
    for (PluginProvider p : providers) {
      PluginDescriptor d = p.descriptor();
      if (kinds.size() > 1 && d.kind() != previous) {
        out.println("== " + kindTitle(d.kind()) + " ==");
        previous = d.kind();
      }
      out.println(d.id() + capabilities(d) + "  [" + shortOrigin(p) + "]");
      out.println("    " + d.description());
      if (!d.source().isEmpty()) {
        out.println("    source: " + d.source());
      }
      if (p instanceof ProfileProvider profile) {
        out.println(
            "    plugins: "
                + String.join(" + ", PluginArguments.formatAll(profile.profile().plugins())));
      }
      parameterLines(out, d.parameters());
      out.println();
    }
  }

  /** One aligned line per parameter: name, default, allowed values, description. */
  static void parameterLines(PrintStream out, List<ParameterSpec> parameters) {
    if (parameters.isEmpty()) {
      return;
    }
    int width = parameters.stream().mapToInt(s -> s.name().length()).max().orElse(0);
    int defaults = parameters.stream().mapToInt(s -> s.defaultValue().length()).max().orElse(0);
    for (ParameterSpec s : parameters) {
      out.printf(
          Locale.ROOT,
          "    %-" + width + "s = %-" + Math.max(defaults, 1) + "s  (%s)  %s%n",
          s.name(),
          s.defaultValue(),
          s.allowed(),
          s.description());
    }
  }

  private static Map<String, Object> json(PluginProvider p) {
    PluginDescriptor d = p.descriptor();
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("id", d.id());
    item.put("kind", d.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    item.put("description", d.description());
    item.put("source", d.source());
    item.put("capabilities", capabilityNames(d));
    item.put("origin", PluginRegistry.origin(p));
    item.put("parameters", parametersJson(d.parameters()));
    if (p instanceof ProfileProvider profile) {
      item.put("plugins", PluginArguments.formatAll(profile.profile().plugins()));
    }
    return item;
  }

  /** The parameters as JSON objects: name, type, default, allowed (and range or choices). */
  static List<Object> parametersJson(List<ParameterSpec> specs) {
    List<Object> parameters = new ArrayList<>();
    for (ParameterSpec s : specs) {
      Map<String, Object> param = new LinkedHashMap<>();
      param.put("name", s.name());
      param.put("type", s.type().name().toLowerCase(Locale.ROOT));
      param.put("default", s.defaultValue());
      param.put("allowed", s.allowed());
      switch (s.type()) {
        case INT, LONG, DOUBLE, DURATION -> {
          param.put("min", s.min());
          param.put("max", s.max());
        }
        case CHOICE -> param.put("choices", s.choices());
        default -> {}
      }
      param.put("description", s.description());
      parameters.add(param);
    }
    return parameters;
  }

  private static String capabilities(PluginDescriptor d) {
    List<String> names = capabilityNames(d);
    return names.isEmpty() ? "" : " (" + String.join(", ", names) + ")";
  }

  private static List<String> capabilityNames(PluginDescriptor d) {
    return d.capabilities().stream()
        .sorted()
        .map(c -> c.name().toLowerCase(Locale.ROOT).replace('_', '-'))
        .toList();
  }

  /** The jar file name, or the last directories of a class folder. */
  static String shortOrigin(PluginProvider p) {
    String origin = PluginRegistry.origin(p);
    String path = origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin;
    int slash = path.lastIndexOf('/');
    if (path.endsWith("/target/classes")) {
      String module = path.substring(0, path.length() - "/target/classes".length());
      return module.substring(module.lastIndexOf('/') + 1) + "/target/classes";
    }
    return slash < 0 ? path : path.substring(slash + 1);
  }

  private static String kindTitle(PluginKind kind) {
    return switch (kind) {
      case ILB_SELECTOR -> "ILB selectors (find_new_ilb)";
      case NOHZ_IDLE_TRACKING -> "NOHZ idle registration (nohz.idle_cpus_mask)";
      case BALANCE_PASS -> "balance-pass hooks (periodic and newidle balancing)";
      case WAKEUP_POLICY -> "wakeup-placement hooks (select_task_rq_fair)";
      case PROFILE -> "profiles (use as --variant NAME=PROFILE[+PLUGIN...])";
      case HARDWARE_MODEL -> "machines";
      case WORKLOAD -> "workloads";
    };
  }

  /** {@code schedlab machines}. */
  @Command(
      name = "machines",
      mixinStandardHelpOptions = true,
      versionProvider = Version.class,
      description = "List the machines (hw.*) with their parameters; use with --machine ID -M k=v.")
  public static final class Machines extends ListCommand {
    public Machines(Cli cli) {
      super(cli, "machines", List.of(PluginKind.HARDWARE_MODEL));
    }
  }

  /** {@code schedlab policies}. */
  @Command(
      name = "policies",
      mixinStandardHelpOptions = true,
      versionProvider = Version.class,
      description = "List the policy plugins and profiles usable in --variant.")
  public static final class Policies extends ListCommand {
    public Policies(Cli cli) {
      super(
          cli,
          "policies",
          List.of(
              PluginKind.PROFILE,
              PluginKind.ILB_SELECTOR,
              PluginKind.NOHZ_IDLE_TRACKING,
              PluginKind.BALANCE_PASS,
              PluginKind.WAKEUP_POLICY));
    }
  }

  /** {@code schedlab engine}: the {@code -E} settings, which are not plugins. */
  @Command(
      name = "engine",
      mixinStandardHelpOptions = true,
      versionProvider = Version.class,
      description =
          "List the engine's modelling assumptions; override with -E key=value in "
              + "compare, run and sweep.")
  public static final class Engine implements Callable<Integer> {
    private final Cli cli;

    @Option(
        names = "--format",
        paramLabel = "text|json",
        description = "output format (default text)")
    TextOrJson format = TextOrJson.text;

    public Engine(Cli cli) {
      this.cli = cli;
    }

    @Override
    public Integer call() {
      List<ParameterSpec> specs = EngineSettings.specs();
      if (format == TextOrJson.json) {
        cli.out().print(Json.pretty(Map.of("engine", parametersJson(specs))));
      } else {
        cli.out()
            .println(
                "engine settings (-E KEY=VALUE); sources and reasoning: "
                    + "EngineOptions, BalancerOptions, BalanceCostModel and sched-core/README.md");
        parameterLines(cli.out(), specs);
      }
      return 0;
    }
  }

  /** {@code schedlab workloads}. */
  @Command(
      name = "workloads",
      mixinStandardHelpOptions = true,
      versionProvider = Version.class,
      description =
          "List the workloads (wl.*) with their parameters; use with --workload ID -W k=v.")
  public static final class Workloads extends ListCommand {
    public Workloads(Cli cli) {
      super(cli, "workloads", List.of(PluginKind.WORKLOAD));
    }
  }
}
