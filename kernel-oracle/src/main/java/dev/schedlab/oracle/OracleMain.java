package dev.schedlab.oracle;

import dev.schedlab.oracle.guest.Accelerator;
import dev.schedlab.oracle.guest.GuestShape;
import dev.schedlab.oracle.guest.HostTools;
import dev.schedlab.oracle.guest.OracleException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small command line for the oracle until {@code schedlab kernel} exists:
 * {@code domains --shape SHAPE [--append ARGS] [--kernel IMAGE] [--accel tcg|kvm] [--work DIR]}.
 * Bad input prints one line and exits with 2; a domain difference exits with 1.
 */
public final class OracleMain {

  private static final String USAGE = "usage: domains --shape " + GuestShape.GRAMMAR
      + " [--append KERNEL_ARGS] [--kernel IMAGE] [--accel tcg|kvm] [--work DIR]"
      + " | random --count N --seed S --max-cpus C --out FILE.tsv [--work DIR]"
      + " | behaviour --shape SHAPE --workload gemm:THREADS:CHUNK_US:SPIN_US|"
      + "hackbench:GROUPS:FDS:LOOPS --seconds S [--append ARGS] [--kernel IMAGE] [--work DIR]";

  private OracleMain() {}

  /** Runs the command and exits with its status. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns 0 (all equal), 1 (differences) or 2 (bad input, no guest). */
  static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      if (args.length > 0 && args[0].equals("random")) {
        return random(options(args, "random", List.of("--count", "--seed", "--max-cpus",
            "--out", "--work")), out, err);
      }
      if (args.length > 0 && args[0].equals("behaviour")) {
        return behaviour(options(args, "behaviour", List.of("--shape", "--workload", "--seconds",
            "--append", "--kernel", "--accel", "--work")), out, err);
      }
      Map<String, String> options = options(args, "domains",
          List.of("--shape", "--append", "--kernel", "--accel", "--work"));
      GuestShape shape = GuestShape.parse(require(options, "--shape"));
      Accelerator accel = options.containsKey("--accel")
          ? accelerator(options.get("--accel")) : null;
      Path kernel = options.containsKey("--kernel") ? Path.of(options.get("--kernel")) : null;
      if (kernel != null && !Files.isRegularFile(kernel)) {
        throw new OracleException("--kernel " + kernel + " is not a file");
      }
      Path work = options.containsKey("--work") ? Path.of(options.get("--work"))
          : Files.createTempDirectory("schedlab-oracle");
      HostTools tools = HostTools.find(true, line -> err.println("schedlab kernel: " + line));
      KernelOracle oracle =
          new KernelOracle(tools, line -> err.println("schedlab kernel: " + line));
      KernelOracle.DomainResult result = oracle.domains(new KernelOracle.Request(
          shape, options.getOrDefault("--append", ""), kernel, accel, work));
      out.print(result.report().toText());
      result.comparison().differences().stream().limit(40)
          .forEach(d -> out.println("  " + d));
      return result.comparison().matches() ? 0 : 1;
    } catch (OracleException | IllegalArgumentException e) {
      err.println("schedlab kernel: " + e.getMessage());
      return 2;
    } catch (java.io.IOException e) {
      err.println("schedlab kernel: " + e.getMessage());
      return 2;
    }
  }

  private static int behaviour(Map<String, String> options, PrintStream out, PrintStream err)
      throws java.io.IOException {
    GuestShape shape = GuestShape.parse(require(options, "--shape"));
    double seconds = Double.parseDouble(options.getOrDefault("--seconds", "10"));
    String[] w = require(options, "--workload").split(":");
    dev.schedlab.oracle.guest.GuestWorkload workload;
    try {
      workload = switch (w[0]) {
        case "gemm" -> dev.schedlab.oracle.guest.GuestWorkload.gemm(Integer.parseInt(w[1]),
            Long.parseLong(w[2]), Long.parseLong(w[3]), seconds, shape.cpus());
        case "hackbench" -> dev.schedlab.oracle.guest.GuestWorkload.hackbench(
            Integer.parseInt(w[1]), Integer.parseInt(w[2]), Integer.parseInt(w[3]), seconds);
        default -> throw new IllegalArgumentException("--workload " + w[0]
            + " is not gemm or hackbench");
      };
    } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
      throw new IllegalArgumentException("--workload takes gemm:THREADS:CHUNK_US:SPIN_US or"
          + " hackbench:GROUPS:FDS:LOOPS, not '" + options.get("--workload") + "'");
    }
    Path work = options.containsKey("--work") ? Path.of(options.get("--work"))
        : Files.createTempDirectory("schedlab-oracle");
    Path kernel = options.containsKey("--kernel") ? Path.of(options.get("--kernel")) : null;
    Accelerator accel = options.containsKey("--accel") ? accelerator(options.get("--accel"))
        : null;
    HostTools tools = HostTools.find(true, line -> err.println("schedlab kernel: " + line));
    KernelOracle oracle = new KernelOracle(tools, line -> err.println("schedlab kernel: " + line));
    KernelOracle.BehaviourResult result = oracle.behaviour(new KernelOracle.Request(shape,
        options.getOrDefault("--append", ""), kernel, accel, work), workload);
    out.print(result.report().toText());
    return 0;
  }

  private static int random(Map<String, String> options, PrintStream out, PrintStream err)
      throws java.io.IOException {
    int count = Integer.parseInt(options.getOrDefault("--count", "100"));
    long seed = Long.parseLong(options.getOrDefault("--seed", "1"));
    int maxCpus = Integer.parseInt(options.getOrDefault("--max-cpus", "32"));
    Path tsv = Path.of(require(options, "--out"));
    Path work = options.containsKey("--work") ? Path.of(options.get("--work"))
        : Files.createTempDirectory("schedlab-oracle-random");
    HostTools tools = HostTools.find(true, line -> err.println("schedlab kernel: " + line));
    KernelOracle oracle = new KernelOracle(tools, line -> { });
    String summary = new DomainSuite(oracle, work)
        .run(dev.schedlab.oracle.guest.RandomShapes.draw(seed, count, maxCpus), tsv, err);
    out.println(summary);
    return 0;
  }

  private static Map<String, String> options(String[] args, String command, List<String> known) {
    if (args.length == 0 || !args[0].equals(command)) {
      throw new IllegalArgumentException(USAGE);
    }
    Map<String, String> out = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!known.contains(args[i]) || i + 1 >= args.length) {
        throw new IllegalArgumentException("unknown or incomplete option '" + args[i] + "'; "
            + USAGE);
      }
      out.put(args[i], args[i + 1]);
    }
    return out;
  }

  private static String require(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException(name + " is required; " + USAGE);
    }
    return value;
  }

  private static Accelerator accelerator(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "tcg" -> Accelerator.TCG;
      case "kvm" -> Accelerator.KVM;
      default -> throw new IllegalArgumentException(
          "--accel '" + text + "' is not one of tcg, kvm");
    };
  }
}
