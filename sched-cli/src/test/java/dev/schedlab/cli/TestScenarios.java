package dev.schedlab.cli;

import java.util.ArrayList;
import java.util.List;

/** The small scenarios several command-line tests run, written once. */
public final class TestScenarios {

  private TestScenarios() {}

  /**
   * A small SMT machine (one node, two LLCs of four SMT2 cores) and a wakeup-heavy workload, on
   * which every trace event kind and every report section shows up: {@code --machine hw.shape -M
   * shape=1n2l4c2t --workload wl.schbench --duration DURATION}, then {@code extra}.
   */
  public static List<String> schbench(String duration, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n2l4c2t",
                "--workload",
                "wl.schbench",
                "--duration",
                duration));
    args.addAll(List.of(extra));
    return List.copyOf(args);
  }

  /**
   * {@code compare} of {@link #schbench} under {@code old=mainline-7.1} and {@code
   * new=mainline-7.3}, then {@code extra}.
   */
  public static List<String> schbenchCompare(String duration, String... extra) {
    List<String> args = new ArrayList<>();
    args.add("compare");
    args.addAll(schbench(duration));
    args.addAll(List.of("--variant", "old=mainline-7.1", "--variant", "new=mainline-7.3"));
    args.addAll(List.of(extra));
    return List.copyOf(args);
  }
}
