package dev.schedlab.hw.machines;

import dev.schedlab.hw.Machine;
import dev.schedlab.hw.perf.CpuLayout;
import dev.schedlab.hw.perf.MemoryBandwidthShare;
import dev.schedlab.hw.perf.MigrationWarmup;
import dev.schedlab.hw.perf.RemoteMemory;
import dev.schedlab.hw.perf.SiblingQualification;
import dev.schedlab.hw.perf.SmtCoRun;
import dev.schedlab.hw.perf.StandardPerformanceModel;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.topology.Topology;

/**
 * The assumed numbers every machine declares as typed, range-checked parameters: clock, FLOP per
 * cycle, memory bandwidth, SMT co-run factors, migration penalties and warm-up half-lives. Each
 * machine supplies its own defaults and says where they come from; the migration defaults are
 * shared.
 *
 * <p>Shared migration defaults (assumptions, order-of-magnitude): right after a move a thread loses
 * 2 % (to an SMT sibling: L1/L2 stay warm), 15 % (within the LLC: private L1/L2 cold), 30 % (to
 * another LLC: L3 cold too) or 45 % (to another node: remote memory until its working set moves) of
 * its speed; the loss halves every 2 µs, 20 µs, 100 µs or 300 µs of run time, roughly the time to
 * refill 1 MB of L2 at 50 GB/s, tens of MB of L3, and a working set over the inter-socket link.
 */
final class Assumptions {

  static final String CLOCK = "clock_ghz";
  static final String FLOP = "flop_per_cycle";
  static final String MEMORY = "memory_bandwidth_gbs";
  static final String THREAD_MEMORY = "thread_bandwidth_gbs";
  static final String SMT_COMPUTE = "smt_corun_compute";
  static final String SMT_MEMORY = "smt_corun_memory";
  static final String QUALIFICATION = "sibling_idle_qualification";
  static final String QUALIFICATION_CYCLES = "qualification_cycles";
  static final String REMOTE_DISTANCE = "remote_distance";
  static final String MEMORY_HOME = "memory_home";
  static final String REMOTE_MEMORY_SPEED = "remote_memory_speed";
  static final String[] LEVELS = {"smt", "llc", "cross_llc", "cross_node"};
  static final double[] DEFAULT_PENALTY = {0.02, 0.15, 0.30, 0.45};
  static final String[] DEFAULT_HALF_LIFE = {"2us", "20us", "100us", "300us"};
  private static final String[] LEVEL_WORDS = {
    "to an SMT sibling", "within the LLC", "to another LLC of the node", "to another NUMA node"
  };

  /**
   * A machine's defaults.
   *
   * @param clockGhz core clock, GHz
   * @param flopPerCycle double-precision FLOP per cycle of one thread running alone
   * @param memoryGbs sustainable memory bandwidth per NUMA node (or per socket where the machine
   *     says so), GB/s
   * @param threadGbs bandwidth one memory-bound thread draws alone, GB/s
   * @param smtCompute co-run factor of compute-bound threads (1 busy sibling), 0 when no SMT
   * @param smtMemory co-run factor of memory-bound threads, 0 when no SMT
   * @param sources one phrase per number, in the order above, naming its source or "assumption"
   */
  record Defaults(
      double clockGhz,
      double flopPerCycle,
      double memoryGbs,
      double threadGbs,
      double smtCompute,
      double smtMemory,
      String[] sources) {}

  private Assumptions() {}

  /**
   * Adds the performance parameters to {@code builder}; SMT factors only when {@code smt}, and
   * {@code memoryScope} ("NUMA node" or "socket") says what the bandwidth is per.
   */
  static void addParameters(
      PluginDescriptor.Builder builder, Defaults d, boolean smt, String memoryScope) {
    builder.parameter(
        ParameterSpec.ofDouble(
            CLOCK, "core clock in GHz; " + d.sources()[0], d.clockGhz(), 0.1, 10));
    builder.parameter(
        ParameterSpec.ofDouble(
            FLOP,
            "double-precision FLOP per cycle of one thread running alone; " + d.sources()[1],
            d.flopPerCycle(),
            0.5,
            1024));
    builder.parameter(
        ParameterSpec.ofDouble(
            MEMORY,
            "sustainable memory bandwidth per " + memoryScope + " in GB/s; " + d.sources()[2],
            d.memoryGbs(),
            0.1,
            100_000));
    builder.parameter(
        ParameterSpec.ofDouble(
            THREAD_MEMORY,
            "GB/s one memory-bound thread draws running alone; " + d.sources()[3],
            d.threadGbs(),
            0.1,
            10_000));
    if (smt) {
      builder.parameter(
          ParameterSpec.ofDouble(
              SMT_COMPUTE,
              "speed of a compute-bound thread with one busy SMT sibling (1 = no slowdown); "
                  + d.sources()[4],
              d.smtCompute(),
              0.5,
              1));
      builder.parameter(
          ParameterSpec.ofDouble(
              SMT_MEMORY,
              "speed of a memory-bound thread with one busy SMT sibling; " + d.sources()[5],
              d.smtMemory(),
              0.5,
              1));
    }
    builder.parameter(
        ParameterSpec.ofChoice(
            MEMORY_HOME,
            "where a memory-bound thread's pages are: first-touch = the node it first ran on, for the"
                + " whole run (no NUMA-balancing page migration); running-node = wherever it runs"
                + " (pages follow it, no remote cost); assumption",
            "first-touch",
            "first-touch",
            "running-node"));
    builder.parameter(
        ParameterSpec.ofDouble(
            REMOTE_MEMORY_SPEED,
            "speed of a memory-bound thread whose pages are on another node (first-touch); 0 = 10 /"
                + " SLIT distance (latency-bound streaming, Little's law); assumption",
            0,
            0,
            1));
    for (int i = 0; i < LEVELS.length; i++) {
      builder.parameter(
          ParameterSpec.ofDouble(
              "migration_penalty_" + LEVELS[i],
              "fraction of speed lost right after a move "
                  + LEVEL_WORDS[i]
                  + "; assumption (cold caches)",
              DEFAULT_PENALTY[i],
              0,
              0.95));
    }
    for (int i = 0; i < LEVELS.length; i++) {
      builder.parameter(
          ParameterSpec.ofDuration(
              "warmup_half_life_" + LEVELS[i],
              "run time that halves the loss after a move "
                  + LEVEL_WORDS[i]
                  + "; assumption (cache refill time), 0 = no loss",
              DEFAULT_HALF_LIFE[i],
              0,
              1_000_000_000L));
    }
  }

  /** Adds the Olympus idle-qualification parameters (only Vera declares them). */
  static void addQualificationParameters(PluginDescriptor.Builder builder) {
    builder.parameter(
        ParameterSpec.ofBoolean(
            QUALIFICATION,
            "Olympus rule: a busy thread regains full speed only after its SMT sibling has been idle"
                + " for qualification_cycles (seeds thread: 10 Ki cycles)",
            true));
    builder.parameter(
        ParameterSpec.ofLong(
            QUALIFICATION_CYCLES,
            "sibling idle qualification interval in core cycles; the thread gives 10,240",
            SiblingQualification.OLYMPUS_QUALIFICATION_CYCLES,
            1,
            1_000_000_000L));
  }

  /** Adds a remote-distance parameter (SLIT units, local = 10). */
  static void addRemoteDistance(PluginDescriptor.Builder builder, int def, String source) {
    builder.parameter(
        ParameterSpec.ofInt(
            REMOTE_DISTANCE,
            "NUMA distance between nodes (SLIT, local = 10); " + source,
            def,
            11,
            255));
  }

  /** The machine facts, with bandwidth per node. */
  static MachineFacts facts(Parameters p, double bandwidthPerNodeGbs, String notes) {
    return new MachineFacts(
        p.getDouble(CLOCK) * 1e9,
        p.getDouble(FLOP),
        bandwidthPerNodeGbs * 1e9,
        notes + " Values in use: " + p + ".");
  }

  /**
   * A machine without the Olympus idle qualification: {@code topology} with the standard model and
   * the facts from {@code p}, bandwidth per node as given.
   */
  static Machine machine(
      Topology topology, Parameters p, double bandwidthPerNodeGbs, String notes) {
    return new Machine(
        topology,
        model(topology, p, bandwidthPerNodeGbs, false),
        facts(p, bandwidthPerNodeGbs, notes));
  }

  /** The standard performance model with these parameters. */
  static StandardPerformanceModel model(
      Topology topology, Parameters p, double bandwidthPerNodeGbs, boolean qualificationDeclared) {
    CpuLayout layout = CpuLayout.of(topology);
    boolean smt = topology.isSmt();
    SmtCoRun coRun =
        smt
            ? new SmtCoRun(
                p.getDouble(SMT_COMPUTE), p.getDouble(SMT_MEMORY), layout.maxThreadsPerCore() - 1)
            : new SmtCoRun(1, 1, 0);
    SiblingQualification qualification = null;
    if (qualificationDeclared && p.getBoolean(QUALIFICATION)) {
      qualification =
          new SiblingQualification(p.getLong(QUALIFICATION_CYCLES), p.getDouble(CLOCK) * 1e9);
    }
    double[] penalty = new double[4];
    long[] halfLife = new long[4];
    for (int i = 0; i < 4; i++) {
      penalty[i] = p.getDouble("migration_penalty_" + LEVELS[i]);
      halfLife[i] = p.getLong("warmup_half_life_" + LEVELS[i]);
    }
    RemoteMemory.Placement placement =
        p.getString(MEMORY_HOME).equals("running-node")
            ? RemoteMemory.Placement.RUNNING_NODE
            : RemoteMemory.Placement.FIRST_TOUCH;
    return new StandardPerformanceModel(
        layout,
        coRun,
        qualification,
        new MigrationWarmup(penalty, halfLife),
        new MemoryBandwidthShare(bandwidthPerNodeGbs * 1e9, p.getDouble(THREAD_MEMORY) * 1e9),
        RemoteMemory.of(topology, placement, p.getDouble(REMOTE_MEMORY_SPEED)));
  }

  /** Fails unless {@code parameters} were resolved for {@code descriptor}. */
  static void checkFor(PluginDescriptor descriptor, Parameters parameters) {
    if (!descriptor.id().equals(parameters.pluginId())) {
      throw new IllegalArgumentException(
          "parameters of " + parameters.pluginId() + " given to " + descriptor.id());
    }
  }
}
