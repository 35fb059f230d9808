package dev.schedlab.core.engine;

import java.util.SplittableRandom;

/**
 * Every random stream of a run, derived from one master seed with {@link SplittableRandom#split()}
 * in a fixed order: the workload's, the engine's tie-breaks, one {@code sched_rng()} per CPU, and
 * one per plugin in binding order, the initial balance phases ({@link #balanceStamps()}) and the
 * machine's background ({@link #background()}). Plugins draw from a separate root so that adding a
 * plugin does not change the CPU or workload streams; the balance-phase stream is split last so
 * that adding it changed none of the others.
 */
final class RandomStreams {

  private final SplittableRandom workload;
  private final SplittableRandom tieBreak;
  private final SplittableRandom[] perCpu;
  private final SplittableRandom pluginRoot;
  private final SplittableRandom balanceStamps;
  private final SplittableRandom background;

  RandomStreams(long seed, int nrCpuIds) {
    SplittableRandom master = new SplittableRandom(seed);
    this.workload = master.split();
    this.tieBreak = master.split();
    this.perCpu = new SplittableRandom[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      perCpu[cpu] = master.split();
    }
    this.pluginRoot = master.split();
    this.balanceStamps = master.split();
    this.background = master.split();
  }

  /**
   * The machine's background (timer expiries, device interrupts, kernel-worker wakeups: {@link
   * BackgroundIrqs}); split after every other stream so that adding it changed none of them.
   */
  SplittableRandom background() {
    return background;
  }

  SplittableRandom workload() {
    return workload;
  }

  SplittableRandom tieBreak() {
    return tieBreak;
  }

  SplittableRandom cpu(int cpu) {
    return perCpu[cpu];
  }

  /**
   * The stream of the initial {@code last_balance} phases ({@link
   * EngineOptions#spreadBalanceStamps()}).
   */
  SplittableRandom balanceStamps() {
    return balanceStamps;
  }

  /** The next plugin's stream; call once per plugin, in binding order. */
  SplittableRandom nextPlugin() {
    return pluginRoot.split();
  }
}
