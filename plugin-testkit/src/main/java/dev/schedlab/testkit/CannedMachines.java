package dev.schedlab.testkit;

import dev.schedlab.hw.Machine;
import dev.schedlab.hw.perf.CpuLayout;
import dev.schedlab.hw.perf.MemoryBandwidthShare;
import dev.schedlab.hw.perf.MigrationWarmup;
import dev.schedlab.hw.perf.SmtCoRun;
import dev.schedlab.hw.perf.StandardPerformanceModel;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.topology.Housekeeping;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import java.util.List;

/**
 * The machines the kit runs policies on: one per shape of topology a policy must cope with, each
 * small (8 to 32 CPUs) so that a run of a few tens of simulated milliseconds takes a fraction of a
 * second. Performance numbers are the generic assumptions of {@code hw.shape} (2.5 GHz, 16
 * FLOP/cycle, 100 GB/s per node, SMT co-run 0.6 compute / 0.9 memory, the shared migration
 * penalties); they only have to be plausible, since the kit checks correctness, not speed.
 */
public final class CannedMachines {

  private static final double[] MIGRATION_PENALTY = {0.02, 0.15, 0.30, 0.45};
  private static final long[] MIGRATION_HALF_LIFE_NS = {2_000, 20_000, 100_000, 300_000};

  private CannedMachines() {}

  /** Every canned machine, in the order the kit runs them. */
  public static List<CannedMachine> all() {
    return List.of(smt1(), smt2(), smt4(), smt8(), numa(), asymmetric(), nohzFull());
  }

  /** 8 CPUs, no SMT, two LLCs of four cores ({@code 1n2l4c1t}). */
  public static CannedMachine smt1() {
    return shape("smt1", "1n2l4c1t", SiblingNumbering.SPLIT, "no SMT, two LLCs");
  }

  /** 16 CPUs, SMT2 numbered as x86 and Vera (CPU n and n+8 are siblings), two LLCs. */
  public static CannedMachine smt2() {
    return shape("smt2", "1n2l4c2t", SiblingNumbering.SPLIT, "SMT2, split sibling numbering");
  }

  /** 16 CPUs, SMT4 with adjacent sibling numbering as POWER ({@code 1n1l4c4t}). */
  public static CannedMachine smt4() {
    return shape("smt4", "1n1l4c4t", SiblingNumbering.ADJACENT, "SMT4, adjacent numbering");
  }

  /** 16 CPUs, SMT8 with adjacent sibling numbering ({@code 1n1l2c8t}). */
  public static CannedMachine smt8() {
    return shape("smt8", "1n1l2c8t", SiblingNumbering.ADJACENT, "SMT8, adjacent numbering");
  }

  /** 32 CPUs, two NUMA nodes (distance 20) of two LLCs, SMT2 ({@code 2n2l4c2t}). */
  public static CannedMachine numa() {
    return shape("numa", "2n2l4c2t", SiblingNumbering.SPLIT, "2 NUMA nodes, SMT2");
  }

  /**
   * 8 CPUs in one LLC: a cluster of four big cores (capacity 1024) and a cluster of four LITTLE
   * cores (capacity 446, an Arm DynamIQ-like ratio), so sched domains carry {@code
   * SD_ASYM_CPUCAPACITY}.
   */
  public static CannedMachine asymmetric() {
    TopologyBuilder b = Topology.builder(8).name("big.LITTLE 4+4");
    for (int cpu = 0; cpu < 8; cpu++) {
      boolean big = cpu < 4;
      b.cpu(cpu)
          .packageId(0)
          .llcId(0)
          .clusterId(big ? 0 : 1)
          .coreId(cpu)
          .node(0)
          .capacity(big ? 1024 : 446);
    }
    return machine("asym", "big.LITTLE, asymmetric capacity", b.build());
  }

  /**
   * The SMT2 machine booted with {@code nohz_full=4-7,12-15}: half the cores are tickless and not
   * housekeeping, so an ILB selector must stay inside the housekeeping mask.
   */
  public static CannedMachine nohzFull() {
    Topology base = Shape.parse("1n2l4c2t").toTopology(SiblingNumbering.SPLIT);
    Topology isolated =
        base.withHousekeeping(Housekeeping.parse("nohz_full=4-7,12-15", base.nrCpuIds()));
    return machine("nohz-full", "SMT2 with nohz_full=4-7,12-15", isolated);
  }

  /** A canned machine for any topology, with the generic performance assumptions. */
  public static CannedMachine of(String name, String description, Topology topology) {
    return machine(name, description, topology);
  }

  private static CannedMachine shape(
      String name, String shape, SiblingNumbering numbering, String words) {
    Topology topology = Shape.parse(shape).toTopology(numbering);
    return machine(name, shape + ", " + words, topology);
  }

  private static CannedMachine machine(String name, String description, Topology topology) {
    CpuLayout layout = CpuLayout.of(topology);
    SmtCoRun coRun =
        topology.isSmt()
            ? new SmtCoRun(0.6, 0.9, layout.maxThreadsPerCore() - 1)
            : new SmtCoRun(1, 1, 0);
    StandardPerformanceModel model =
        new StandardPerformanceModel(
            layout,
            coRun,
            null,
            new MigrationWarmup(MIGRATION_PENALTY, MIGRATION_HALF_LIFE_NS),
            new MemoryBandwidthShare(100e9, 15e9));
    MachineFacts facts =
        new MachineFacts(
            2.5e9,
            16,
            100e9,
            "Canned conformance machine " + name + "; generic assumptions of hw.shape.");
    return new CannedMachine(name, description, new Machine(topology, model, facts));
  }
}
