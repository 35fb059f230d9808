package dev.schedlab.cli.report;

import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.spi.FileProblems;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a report needs to say what produced it: the build (version and commit) and the full
 * scenario (the machine and every parameter, the workload and every parameter, every engine
 * assumption, the variants with their resolved plugins and parameters, seed, duration, HZ, the
 * kernel rules in force), plus the command line that runs it again ({@code schedlab rerun}) and a
 * checksum of every input file that line names, so a rerun can tell a changed input from a changed
 * result.
 *
 * @param command the command that made the report, {@code compare} or {@code run}
 * @param arguments that command's scenario arguments, output options left out
 * @param scenario the {@code scenario} block of the JSON report
 * @param settings the settings a user gave that the text header names ({@code -M numa=per-socket})
 */
public record ScenarioRecord(
    String command, List<String> arguments, Map<String, Object> scenario, List<String> settings) {

  public ScenarioRecord {
    arguments = List.copyOf(arguments);
    settings = List.copyOf(settings);
  }

  /** The record of {@code scenario} run as {@code command} with {@code variants}. */
  public static ScenarioRecord of(
      String command, Scenario scenario, List<Variant> variants, PluginRegistry registry) {
    List<String> args = new ArrayList<>();
    List<String> settings = new ArrayList<>();
    List<Object> inputs = new ArrayList<>();
    args.add("--machine");
    args.add(scenario.machineId());
    scenario
        .machineOverrides()
        .forEach(
            (k, v) -> {
              args.add("-M");
              args.add(k + "=" + v);
              settings.add("-M " + k + "=" + v);
              input(inputs, "-M " + k, v);
            });
    if (scenario.nohzFull() != null) {
      args.add("--nohz-full");
      args.add(scenario.nohzFull());
      settings.add("--nohz-full " + scenario.nohzFull());
    }
    if (scenario.isolcpus() != null) {
      args.add("--isolcpus");
      args.add(scenario.isolcpus());
      settings.add("--isolcpus " + scenario.isolcpus());
    }
    args.add("--workload");
    args.add(scenario.workload().id());
    scenario
        .workloadOverrides()
        .forEach(
            (k, v) -> {
              args.add("-W");
              args.add(k + "=" + v);
              settings.add("-W " + k + "=" + v);
              input(inputs, "-W " + k, v);
            });
    String duration = ParameterSpec.formatDurationNs(scenario.durationNs());
    args.addAll(
        List.of(
            "--duration",
            duration,
            "--seed",
            Long.toString(scenario.seed()),
            "--hz",
            Integer.toString(scenario.hz())));
    scenario
        .engineSettings()
        .given()
        .forEach(
            (k, v) -> {
              args.add("-E");
              args.add(k + "=" + v);
            });
    scenario.engineSettings().nonDefault().forEach((k, v) -> settings.add("-E " + k + "=" + v));
    List<Object> variantBlocks = new ArrayList<>();
    for (Variant v : variants) {
      args.add("--variant");
      args.add(v.name() + "=" + v.spec());
      variantBlocks.add(variantBlock(v, registry));
    }

    Map<String, Object> block = new LinkedHashMap<>();
    block.put("command", command);
    block.put("machine", scenario.machineId());
    block.put("machine_parameters", new LinkedHashMap<>(scenario.machineParameters()));
    block.put("nohz_full", scenario.nohzFull());
    block.put("isolcpus", scenario.isolcpus());
    block.put("workload", scenario.workload().id());
    block.put("workload_parameters", new LinkedHashMap<>(scenario.workloadParameters()));
    Map<String, String> engine = scenario.engineSettings().text();
    block.put("engine_settings", engine);
    block.put(
        "kernel_rules",
        "true".equals(engine.get("mainline_deltas"))
            ? "mainline after 7.1 (post-7.1 balancing and asym/SMT wakeup rules)"
            : "7.1.5 (-E mainline_deltas=false)");
    block.put("seed", scenario.seed());
    block.put("duration", duration);
    block.put("duration_ns", scenario.durationNs());
    block.put("hz", scenario.hz());
    block.put("variants", variantBlocks);
    block.put("inputs", inputs);
    block.put("arguments", new ArrayList<>(args));
    return new ScenarioRecord(command, args, block, settings);
  }

  /**
   * The {@code scenario} block of a sweep: the first grid point's scenario as {@link #of} records
   * it, with the sweep's {@code seeds} in place of its seed, the {@code grid} of {@code -M}/{@code
   * -W}/{@code -E} values (keyed as the CSV's columns: {@code M.name}, the workload's {@code name},
   * {@code E.name}; a point's values replace the first point's parameters) and the {@code metrics}
   * summarised. The one-run argument list is left out: no row of a sweep comes from that one run.
   */
  public static Map<String, Object> sweep(
      Scenario first,
      List<Variant> variants,
      PluginRegistry registry,
      Map<String, List<String>> grid,
      List<Long> seeds,
      List<String> metrics) {
    Map<String, Object> block =
        new LinkedHashMap<>(of("sweep", first, variants, registry).scenario());
    block.remove("seed");
    block.remove("arguments");
    block.put("seeds", List.copyOf(seeds));
    Map<String, Object> values = new LinkedHashMap<>();
    grid.forEach((key, list) -> values.put(key, List.copyOf(list)));
    block.put("grid", values);
    block.put("metrics", List.copyOf(metrics));
    return block;
  }

  /** The {@code schedlab} block: the version and commit of the build that wrote the report. */
  public static Map<String, Object> build() {
    Map<String, Object> build = new LinkedHashMap<>();
    build.put("version", BuildInfo.CURRENT.version());
    build.put("commit", BuildInfo.CURRENT.commitLabel());
    return build;
  }

  private static Map<String, Object> variantBlock(Variant v, PluginRegistry registry) {
    Map<String, Object> block = new LinkedHashMap<>();
    block.put("name", v.name());
    block.put("spec", v.spec());
    List<Object> plugins = new ArrayList<>();
    for (PluginRef ref : v.plugins()) {
      Map<String, Object> plugin = new LinkedHashMap<>();
      plugin.put("id", ref.id());
      plugin.put(
          "parameters",
          registry
              .find(ref.id())
              .map(
                  p ->
                      (Object)
                          new LinkedHashMap<>(p.descriptor().resolve(ref.overrides()).asText()))
              .orElse(Map.of()));
      plugins.add(plugin);
    }
    block.put("plugins", plugins);
    return block;
  }

  /** Records {@code value} as an input file when it names a regular file. */
  private static void input(List<Object> inputs, String option, String value) {
    Path path;
    try {
      path = Path.of(value);
    } catch (IllegalArgumentException e) {
      return;
    }
    if (value.isEmpty() || !Files.isRegularFile(path)) {
      return;
    }
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("option", option);
    input.put("path", value);
    input.put("sha256", sha256(path));
    inputs.add(input);
  }

  /** The SHA-256 of {@code path}'s content, in hex. */
  public static String sha256(Path path) {
    try (InputStream in = Files.newInputStream(path)) {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[65536];
      for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
        digest.update(buffer, 0, n);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": " + FileProblems.describe(e), e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
