package dev.schedlab.oracle.guest;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random machine shapes for the differential domain suite: sockets 1-4, dies 1-2, cores 1-16,
 * threads 1, 2 or 4, one or two NUMA nodes per package, a random consistent distance table (nodes
 * of one package closer to each other than to any other package's, symmetric, each pair of packages
 * with its own distance, so that several NUMA levels and overlapping groups occur) and, for one
 * shape in five, {@code isolcpus=domain,...} or {@code nohz_full=...}. Shapes over the CPU cap lose
 * cores until they fit, so that each boot stays short under TCG.
 */
public final class RandomShapes {

  /**
   * One drawn shape and its kernel arguments.
   *
   * @param shape the machine
   * @param kernelArguments {@code isolcpus=}/{@code nohz_full=} or empty
   */
  public record Drawn(GuestShape shape, String kernelArguments) {}

  private RandomShapes() {}

  /** {@code count} shapes from {@code seed}, each with at most {@code maxCpus} CPUs. */
  public static List<Drawn> draw(long seed, int count, int maxCpus) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Drawn> out = new ArrayList<>();
    while (out.size() < count) {
      out.add(drawOne(random, maxCpus));
    }
    return out;
  }

  private static Drawn drawOne(SplittableRandom random, int maxCpus) {
    int sockets = 1 + random.nextInt(4);
    int dies = 1 + random.nextInt(2);
    int cores = 1 + random.nextInt(16);
    int threads = new int[] {1, 2, 4}[random.nextInt(3)];
    int nodes = 1 + random.nextInt(2);
    while (sockets * dies * cores * threads > maxCpus && cores > 1) {
      cores--;
    }
    while (sockets * dies * cores * threads > maxCpus && threads > 1) {
      threads /= 2;
    }
    if ((dies * cores) % nodes != 0) {
      nodes = 1;
    }
    int total = sockets * nodes;
    int[][] d = new int[total][total];
    int local = 11 + random.nextInt(6);
    int[][] between = new int[sockets][sockets];
    for (int a = 0; a < sockets; a++) {
      for (int b = a + 1; b < sockets; b++) {
        between[a][b] = 20 + 5 * random.nextInt(5);
        between[b][a] = between[a][b];
      }
    }
    for (int i = 0; i < total; i++) {
      for (int j = 0; j < total; j++) {
        int pi = i / nodes;
        int pj = j / nodes;
        d[i][j] = i == j ? 10 : pi == pj ? local : between[pi][pj];
      }
    }
    GuestShape shape = new GuestShape(sockets, dies, cores, threads, nodes, d);
    String args = "";
    int cpus = shape.cpus();
    if (cpus >= 4 && random.nextInt(5) == 0) {
      int from = cpus / 2 + random.nextInt(cpus / 4);
      int to = Math.min(cpus - 1, from + random.nextInt(Math.max(1, cpus / 4)));
      String list = from == to ? Integer.toString(from) : from + "-" + to;
      args = random.nextBoolean() ? "isolcpus=domain," + list : "nohz_full=" + list;
    }
    return new Drawn(shape, args);
  }
}
