package dev.schedlab.topology;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.text.InputText;
import java.util.Objects;

/**
 * A regular machine described by counts, in the notation of ktstr's topology strings: {@code
 * 2n4l8c2t} is 2 NUMA nodes, 4 last-level caches per node, 8 cores per LLC and 2 threads per core
 * (128 CPUs).
 *
 * <p>Grammar (components in this order, each a positive decimal count followed by its letter):
 *
 * <pre>
 *   shape := [packages 's'] [nodes 'n'] [llcsPerNode 'l'] [clustersPerLlc 'k'] coresPerLlc 'c'
 *            [threadsPerCore 't']
 * </pre>
 *
 * Only the core count is required; the others default to 1, except packages, which default to the
 * node count (one node per package). {@code nodes} is the machine-wide node count; nodes must split
 * evenly into packages ({@code 2s4n}: two nodes per package, as with sub-NUMA clustering) or
 * packages evenly into nodes ({@code 4s2n}: two packages per node, which then needs an LLC count
 * divisible by two), and the cores of an LLC split evenly into its clusters. Each package has one
 * die. The machine may have at most {@link CpuMask#MAX_CPUS} CPUs.
 *
 * <p>CPUs are numbered core by core in the order package, node, LLC, cluster, core; the threads of
 * a core follow {@link SiblingNumbering}. Distances are 10 local and 20 remote; capacities 1024.
 * With one cluster per LLC (the default) the machine has no clusters: each core is its own.
 *
 * @param packages physical packages (sockets)
 * @param nodes NUMA nodes, machine-wide
 * @param llcsPerNode last-level caches per node
 * @param clustersPerLlc clusters per LLC
 * @param coresPerLlc cores per LLC
 * @param threadsPerCore SMT width
 */
public record Shape(
    int packages,
    int nodes,
    int llcsPerNode,
    int clustersPerLlc,
    int coresPerLlc,
    int threadsPerCore) {

  /** The grammar, as quoted in error messages. */
  public static final String GRAMMAR =
      "[<packages>s][<nodes>n][<llcs per node>l][<clusters per LLC>k]<cores per LLC>c"
          + "[<threads per core>t], e.g. 2n4l8c2t";

  private static final String LETTERS = "snlkct";

  /**
   * Validates the counts.
   *
   * @throws IllegalArgumentException when a count is below 1 or the counts do not nest
   */
  public Shape {
    String shape =
        format(packages, nodes, llcsPerNode, clustersPerLlc, coresPerLlc, threadsPerCore);
    if (packages < 1
        || nodes < 1
        || llcsPerNode < 1
        || clustersPerLlc < 1
        || coresPerLlc < 1
        || threadsPerCore < 1) {
      throw new IllegalArgumentException("shape " + shape + ": every count must be at least 1");
    }
    if (nodes % packages != 0 && packages % nodes != 0) {
      throw new IllegalArgumentException(
          "shape "
              + shape
              + ": "
              + nodes
              + " nodes do not split evenly into "
              + packages
              + " packages, nor packages into nodes");
    }
    if (packages > nodes && llcsPerNode % (packages / nodes) != 0) {
      throw new IllegalArgumentException(
          "shape "
              + shape
              + ": "
              + (packages / nodes)
              + " packages per node need an LLC count"
              + " per node divisible by "
              + (packages / nodes)
              + ", not "
              + llcsPerNode);
    }
    if (coresPerLlc % clustersPerLlc != 0) {
      throw new IllegalArgumentException(
          "shape "
              + shape
              + ": "
              + coresPerLlc
              + " cores per LLC do not split evenly into "
              + clustersPerLlc
              + " clusters");
    }
    long cpus = (long) nodes * llcsPerNode * coresPerLlc * threadsPerCore;
    if (cpus > CpuMask.MAX_CPUS) {
      throw new IllegalArgumentException(
          "shape " + shape + " has " + cpus + " CPUs; at most " + CpuMask.MAX_CPUS + " allowed");
    }
  }

  /**
   * Parses a shape string; surrounding whitespace is ignored.
   *
   * @throws IllegalArgumentException quoting the input, the 0-based position of the offending
   *     character and the grammar
   */
  public static Shape parse(String text) {
    Objects.requireNonNull(text, "shape");
    String s = text.strip();
    int offset = text.indexOf(s.isEmpty() ? text : s);
    long[] counts = {0, 0, 0, 0, 0, 0};
    int pos = 0;
    int lastLetter = -1;
    if (s.isEmpty()) {
      throw error(text, 0, "empty shape");
    }
    while (pos < s.length()) {
      int start = pos;
      long value = 0;
      while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
        value = Math.min(value * 10 + (s.charAt(pos) - '0'), Integer.MAX_VALUE + 1L);
        pos++;
      }
      if (pos == start) {
        throw error(
            text,
            offset + pos,
            "expected a count (digits) before " + InputText.describe(s.charAt(pos)));
      }
      if (pos == s.length()) {
        throw error(text, offset + pos, "count " + s.substring(start) + " has no unit letter");
      }
      char letter = s.charAt(pos);
      int slot = LETTERS.indexOf(letter);
      if (slot < 0) {
        throw error(
            text,
            offset + pos,
            "unknown unit " + InputText.describe(letter) + "; units are s, n, l, k, c, t");
      }
      if (slot <= lastLetter) {
        throw error(
            text,
            offset + pos,
            "'" + letter + "' is repeated or out of order; units go in the order s, n, l, k, c, t");
      }
      if (value == 0) {
        throw error(text, offset + start, "count of '" + letter + "' must be at least 1");
      }
      if (value > Integer.MAX_VALUE) {
        throw error(text, offset + start, "count of '" + letter + "' is too large");
      }
      counts[slot] = value;
      lastLetter = slot;
      pos++;
    }
    if (counts[4] == 0) {
      throw error(text, offset + s.length(), "the core count '<n>c' is required");
    }
    int nodes = counts[1] == 0 ? 1 : (int) counts[1];
    int packages = counts[0] == 0 ? nodes : (int) counts[0];
    try {
      return new Shape(
          packages,
          nodes,
          counts[2] == 0 ? 1 : (int) counts[2],
          counts[3] == 0 ? 1 : (int) counts[3],
          (int) counts[4],
          counts[5] == 0 ? 1 : (int) counts[5]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid shape "
              + InputText.quote(text)
              + ": "
              + e.getMessage()
              + "; grammar: "
              + GRAMMAR,
          e);
    }
  }

  private static IllegalArgumentException error(String text, int position, String problem) {
    return new IllegalArgumentException(
        "invalid shape "
            + InputText.quote(text)
            + " at position "
            + position
            + ": "
            + problem
            + "; grammar: "
            + GRAMMAR);
  }

  /** Number of CPUs. */
  public int cpuCount() {
    return coreCount() * threadsPerCore;
  }

  /** Number of cores. */
  public int coreCount() {
    return nodes * llcsPerNode * coresPerLlc;
  }

  /** The machine this shape describes, with threads numbered as {@code numbering} says. */
  public Topology toTopology(SiblingNumbering numbering) {
    Objects.requireNonNull(numbering, "numbering");
    int cores = coreCount();
    int coresPerCluster = coresPerLlc / clustersPerLlc;
    TopologyBuilder builder =
        Topology.builder(cpuCount())
            .name(this + "/" + numbering.name().toLowerCase(java.util.Locale.ROOT));
    int core = 0;
    for (int node = 0; node < nodes; node++) {
      for (int llc = 0; llc < llcsPerNode; llc++) {
        int pkg = packageOf(node, llc);
        int globalLlc = node * llcsPerNode + llc;
        for (int cluster = 0; cluster < clustersPerLlc; cluster++) {
          int globalCluster = globalLlc * clustersPerLlc + cluster;
          for (int c = 0; c < coresPerCluster; c++, core++) {
            for (int thread = 0; thread < threadsPerCore; thread++) {
              int cpu =
                  numbering == SiblingNumbering.ADJACENT
                      ? core * threadsPerCore + thread
                      : core + thread * cores;
              builder.addCpu(
                  cpu,
                  pkg,
                  0,
                  globalLlc,
                  clustersPerLlc == 1 ? TopologyBuilder.UNKNOWN : globalCluster,
                  core,
                  node);
            }
          }
        }
      }
    }
    return builder.build();
  }

  private int packageOf(int node, int llc) {
    if (packages <= nodes) {
      return node / (nodes / packages);
    }
    int packagesPerNode = packages / nodes;
    return node * packagesPerNode + llc / (llcsPerNode / packagesPerNode);
  }

  /**
   * The canonical string: {@code s} only when packages differ from nodes, {@code k} only when not
   * 1.
   */
  @Override
  public String toString() {
    return format(packages, nodes, llcsPerNode, clustersPerLlc, coresPerLlc, threadsPerCore);
  }

  private static String format(int s, int n, int l, int k, int c, int t) {
    return (s != n ? s + "s" : "")
        + n
        + "n"
        + l
        + "l"
        + (k != 1 ? k + "k" : "")
        + c
        + "c"
        + t
        + "t";
  }
}
