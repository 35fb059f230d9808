package dev.schedlab.oracle.guest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A machine QEMU can express for an x86 guest: {@code sockets × dies × cores × threads} CPUs,
 * {@code nodesPerPackage} NUMA nodes in each package (whole cores per node) and a node distance
 * table (the ACPI SLIT QEMU builds from {@code -numa dist}).
 *
 * <p>QEMU numbers CPUs with the thread innermost, then core, die and socket, and the guest kernel
 * numbers them in the same (MADT) order, so CPU {@code i} is thread {@code i % threads} of core
 * {@code (i / threads) % cores} and so on. Node {@code n} of a package holds a contiguous run of
 * that package's CPUs.
 *
 * <p>The text form is {@code <S>s<D>d<C>c<T>t[<N>n][:d=ROW/ROW/...]}, e.g. {@code 2s1d4c2t1n} or
 * {@code 1s1d8c1t4n:d=10,20,30,20/20,10,20,30/30,20,10,20/20,30,20,10}.
 */
public record GuestShape(
    int sockets, int dies, int cores, int threads, int nodesPerPackage, int[][] distances) {

  /** The grammar of {@link #parse(String)}, for error messages. */
  public static final String GRAMMAR =
      "<S>s<D>d<C>c<T>t[<N>n][:d=ROW/ROW/...] (sockets 1-8, dies 1-4, cores 1-64, threads 1-8,"
          + " N NUMA nodes per package dividing dies×cores, ROW = comma-separated distances)";

  /** The most vCPUs a guest may have (QEMU's pc machine without an IOMMU). */
  public static final int MAX_CPUS = 255;

  private static final Pattern TEXT =
      Pattern.compile("(\\d+)s(\\d+)d(\\d+)c(\\d+)t(?:(\\d+)n)?(?::d=([0-9,/ ]+))?");

  /** Checks the shape and fills the default distance table (10 local, 20 remote) when null. */
  public GuestShape {
    require(sockets >= 1 && sockets <= 8, "sockets must be 1-8, not " + sockets);
    require(dies >= 1 && dies <= 4, "dies must be 1-4, not " + dies);
    require(cores >= 1 && cores <= 64, "cores must be 1-64, not " + cores);
    require(threads >= 1 && threads <= 8, "threads must be 1-8, not " + threads);
    require(nodesPerPackage >= 1, "nodes per package must be at least 1");
    require(
        (dies * cores) % nodesPerPackage == 0,
        nodesPerPackage
            + " nodes per package do not divide its "
            + (dies * cores)
            + " cores evenly (QEMU would split a core between nodes)");
    int cpus = sockets * dies * cores * threads;
    require(cpus <= MAX_CPUS, cpus + " CPUs; QEMU's pc machine takes at most " + MAX_CPUS);
    int nodes = sockets * nodesPerPackage;
    if (distances == null) {
      distances = new int[nodes][nodes];
      for (int a = 0; a < nodes; a++) {
        for (int b = 0; b < nodes; b++) {
          distances[a][b] = a == b ? 10 : 20;
        }
      }
    } else {
      distances = copy(distances);
      require(
          distances.length == nodes,
          "the distance table has " + distances.length + " rows for " + nodes + " nodes");
      for (int a = 0; a < nodes; a++) {
        require(
            distances[a].length == nodes,
            "distance row "
                + a
                + " has "
                + distances[a].length
                + " entries for "
                + nodes
                + " nodes");
        for (int b = 0; b < nodes; b++) {
          int d = distances[a][b];
          if (a == b) {
            require(d == 10, "distance " + a + "->" + a + " must be 10 (ACPI SLIT), not " + d);
          } else {
            require(
                d > 10 && d < 255,
                "distance " + a + "->" + b + " must be 11-254 (ACPI SLIT), not " + d);
            require(
                d == distances[b][a],
                "distances must be symmetric: "
                    + a
                    + "->"
                    + b
                    + " is "
                    + d
                    + " but "
                    + b
                    + "->"
                    + a
                    + " is "
                    + distances[b][a]);
          }
        }
      }
    }
  }

  /**
   * Parses the text form.
   *
   * @throws IllegalArgumentException with one line naming the problem and the grammar
   */
  public static GuestShape parse(String text) {
    Matcher m = TEXT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("shape '" + text + "' is not of the form " + GRAMMAR);
    }
    int[][] table = null;
    if (m.group(6) != null) {
      String[] rows = m.group(6).trim().split("/");
      table = new int[rows.length][];
      for (int i = 0; i < rows.length; i++) {
        table[i] =
            Arrays.stream(rows[i].trim().split("\\s*,\\s*")).mapToInt(Integer::parseInt).toArray();
      }
    }
    return new GuestShape(
        Integer.parseInt(m.group(1)),
        Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3)),
        Integer.parseInt(m.group(4)),
        m.group(5) == null ? 1 : Integer.parseInt(m.group(5)),
        table);
  }

  /** All CPUs of the machine. */
  public int cpus() {
    return sockets * dies * cores * threads;
  }

  /** All NUMA nodes of the machine. */
  public int nodes() {
    return sockets * nodesPerPackage;
  }

  /** CPUs of one node. */
  public int cpusPerNode() {
    return cpus() / nodes();
  }

  /** The node holding a CPU. */
  public int nodeOf(int cpu) {
    return cpu / cpusPerNode();
  }

  /** Whether the table differs from the default 10/20. */
  public boolean hasCustomDistances() {
    for (int a = 0; a < nodes(); a++) {
      for (int b = 0; b < nodes(); b++) {
        if (distances[a][b] != (a == b ? 10 : 20)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The distance table (a copy). */
  @Override
  public int[][] distances() {
    return copy(distances);
  }

  /** Memory per node in MiB: enough for the kernel, the initramfs and a workload. */
  public int memoryPerNodeMib() {
    return Math.max(64, 512 / nodes() / 32 * 32);
  }

  /**
   * The QEMU arguments for this machine: {@code -smp}, {@code -m} and, with several nodes, one
   * memory backend and {@code -numa node} per node plus every {@code -numa dist} pair.
   */
  public List<String> qemuArguments() {
    List<String> args = new ArrayList<>();
    int perNode = memoryPerNodeMib();
    args.add("-m");
    args.add(Integer.toString(perNode * nodes()));
    args.add("-smp");
    args.add(
        cpus()
            + ",sockets="
            + sockets
            + ",dies="
            + dies
            + ",cores="
            + cores
            + ",threads="
            + threads);
    if (nodes() > 1) {
      for (int n = 0; n < nodes(); n++) {
        args.add("-object");
        args.add("memory-backend-ram,id=m" + n + ",size=" + perNode + "M");
        args.add("-numa");
        args.add(
            "node,cpus="
                + (n * cpusPerNode())
                + "-"
                + ((n + 1) * cpusPerNode() - 1)
                + ",nodeid="
                + n
                + ",memdev=m"
                + n);
      }
      for (int a = 0; a < nodes(); a++) {
        for (int b = 0; b < nodes(); b++) {
          if (a != b) {
            args.add("-numa");
            args.add("dist,src=" + a + ",dst=" + b + ",val=" + distances[a][b]);
          }
        }
      }
    }
    return args;
  }

  /** The text form, parseable by {@link #parse(String)}. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    out.append(sockets)
        .append('s')
        .append(dies)
        .append('d')
        .append(cores)
        .append('c')
        .append(threads)
        .append('t');
    if (nodesPerPackage > 1) {
      out.append(nodesPerPackage).append('n');
    }
    if (hasCustomDistances()) {
      out.append(":d=");
      for (int a = 0; a < nodes(); a++) {
        out.append(a == 0 ? "" : "/");
        for (int b = 0; b < nodes(); b++) {
          out.append(b == 0 ? "" : ",").append(distances[a][b]);
        }
      }
    }
    return out.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GuestShape s && s.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  private static int[][] copy(int[][] table) {
    int[][] out = new int[table.length][];
    for (int i = 0; i < table.length; i++) {
      out[i] = table[i].clone();
    }
    return out;
  }

  private static void require(boolean condition, String problem) {
    if (!condition) {
      throw new IllegalArgumentException("guest shape: " + problem);
    }
  }
}
