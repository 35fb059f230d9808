package dev.schedlab.bench;

import dev.schedlab.cli.Main;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The engine in steady state, as issue 24's goal 1 counts it: one operation is a whole CLI run,
 * {@code run --machine hw.vera --workload wl.gemm -W wait=<wait> --duration <seconds>s} through
 * {@link Main#run} with stdout discarded, so the time per operation is the wall time of that many
 * simulated seconds after the JIT has settled. Simulated seconds per wall second are {@code
 * seconds} over the score. The warm-up runs are the JIT's (the first 60 simulated s of a JVM take
 * about 2 s more than the later ones on a 2-core machine); each measured run builds its simulation
 * afresh, set-up included, as the CLI does.
 *
 * <p>The forks run with the parallel collector, the launcher's choice ({@code schedlab}, "Garbage
 * collector"); {@code -jvmArgsAppend -XX:+UseG1GC} measures G1 instead. A run that does not exit 0
 * fails the benchmark.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 2, jvmArgsAppend = "-XX:+UseParallelGC")
@Warmup(iterations = 6)
@Measurement(iterations = 10)
public class EngineBenchmark {

  /** {@code wl.gemm}'s wait: barrier (the earlier model, 143 k events per simulated s) or spin. */
  @Param({"barrier", "spin"})
  public String wait;

  /** Simulated seconds per run. */
  @Param({"10"})
  public int seconds;

  private String[] args;
  private final PrintStream discard = new PrintStream(OutputStream.nullOutputStream());

  @Setup
  public void setUp() {
    args =
        new String[] {
          "run",
          "--machine",
          "hw.vera",
          "--workload",
          "wl.gemm",
          "-W",
          "wait=" + wait,
          "--duration",
          seconds + "s"
        };
  }

  @Benchmark
  public int veraGemm() {
    int rc = Main.run(args, discard, System.err);
    if (rc != 0) {
      throw new IllegalStateException("schedlab " + String.join(" ", args) + " exited " + rc);
    }
    return rc;
  }
}
