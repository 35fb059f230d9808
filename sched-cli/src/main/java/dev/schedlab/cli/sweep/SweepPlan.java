package dev.schedlab.cli.sweep;

import dev.schedlab.cli.args.ScenarioOptions;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a sweep runs, as plain data that can be sent to other machines: the scenario options,
 * the grid of {@code -M}/{@code -W}/{@code -E} values, the variants as typed, the seeds and the
 * metrics summarised. Its cells (grid point × variant × seed) are numbered, grid points varying
 * slowest and seeds fastest, and {@link #cell} derives any one from its number, so no list of cells
 * is ever built.
 */
public final class SweepPlan implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Grid keys (and CSV columns) of {@code -M} parameters start with this. */
  public static final String MACHINE_PREFIX = "M.";

  /** Grid keys (and CSV columns) of {@code -E} settings start with this. */
  public static final String ENGINE_PREFIX = "E.";

  private final ScenarioOptions options;
  private final LinkedHashMap<String, List<String>> grid;
  private final List<String> variants;
  private final long[] seeds;
  private final List<String> metrics;
  private final long pointCount;
  private final String id;

  /**
   * @param options the scenario options (their {@code -M}/{@code -W}/{@code -E} values are in
   *     {@code grid})
   * @param grid each grid key's values, in command-line order
   * @param variants the variants as typed, {@code NAME=SPEC}
   * @param seeds the seeds each point and variant runs with
   * @param metrics the metric keys summarised, in order
   */
  public SweepPlan(
      ScenarioOptions options,
      Map<String, List<String>> grid,
      List<String> variants,
      List<Long> seeds,
      List<String> metrics) {
    this.options = options;
    this.grid = new LinkedHashMap<>();
    long points = 1;
    for (Map.Entry<String, List<String>> e : grid.entrySet()) {
      this.grid.put(e.getKey(), List.copyOf(e.getValue()));
      points *= e.getValue().size();
    }
    this.pointCount = points;
    this.variants = List.copyOf(variants);
    this.seeds = seeds.stream().mapToLong(Long::longValue).toArray();
    this.metrics = List.copyOf(metrics);
    this.id = fingerprint();
  }

  /** The scenario options every cell starts from. */
  public ScenarioOptions options() {
    return options;
  }

  /** Each grid key's values (a copy). */
  public Map<String, List<String>> grid() {
    return new LinkedHashMap<>(grid);
  }

  /** The variants as typed. */
  public List<String> variants() {
    return variants;
  }

  /** How many seeds each point and variant runs with. */
  public int seedCount() {
    return seeds.length;
  }

  /** The metrics summarised, in order. */
  public List<String> metrics() {
    return metrics;
  }

  /** How many grid points there are. */
  public long pointCount() {
    return pointCount;
  }

  /** How many cells there are: points × variants × seeds. */
  public long cellCount() {
    return pointCount * variants.size() * seeds.length;
  }

  /** The grid keys with more than one value, in grid order. */
  public List<String> varying() {
    List<String> varying = new ArrayList<>();
    grid.forEach(
        (key, values) -> {
          if (values.size() > 1) {
            varying.add(key);
          }
        });
    return varying;
  }

  /** The values of grid point {@code index}, the first key varying slowest. */
  public Map<String, String> point(long index) {
    if (index < 0 || index >= pointCount) {
      throw new IndexOutOfBoundsException("grid point " + index + " of " + pointCount);
    }
    Map<String, String> point = new LinkedHashMap<>();
    long stride = pointCount;
    long rest = index;
    for (Map.Entry<String, List<String>> e : grid.entrySet()) {
      int size = e.getValue().size();
      stride /= size;
      point.put(e.getKey(), e.getValue().get((int) (rest / stride)));
      rest %= stride;
    }
    return point;
  }

  /** Cell {@code index}: its grid point, variant and seed. */
  public SweepCell cell(long index) {
    if (index < 0 || index >= cellCount()) {
      throw new IndexOutOfBoundsException("cell " + index + " of " + cellCount());
    }
    int perPoint = variants.size() * seeds.length;
    long point = index / perPoint;
    int variant = (int) (index % perPoint) / seeds.length;
    int seed = (int) (index % seeds.length);
    return new SweepCell(index, point(point), variants.get(variant), seeds[seed], options);
  }

  /**
   * A fingerprint of everything that decides the rows (scenario, grid, variants, seeds, metrics),
   * so that rows written by one sweep are never taken for another's.
   */
  public String id() {
    return id;
  }

  private String fingerprint() {
    StringBuilder text = new StringBuilder();
    text.append(options.machine)
        .append('\n')
        .append(options.workload)
        .append('\n')
        .append(options.canonical())
        .append('\n');
    grid.forEach((key, values) -> text.append(key).append('=').append(values).append('\n'));
    text.append(variants).append('\n');
    for (long seed : seeds) {
      text.append(seed).append(',');
    }
    text.append('\n').append(metrics);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(text.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  /**
   * The values of a grid point that belong to {@code prefix} ({@value #MACHINE_PREFIX}, {@value
   * #ENGINE_PREFIX}, or {@code ""} for the workload's), without the prefix.
   */
  public static Map<String, String> part(Map<String, String> point, String prefix) {
    Map<String, String> part = new LinkedHashMap<>();
    point.forEach(
        (key, value) -> {
          boolean workloadKey = !key.startsWith(MACHINE_PREFIX) && !key.startsWith(ENGINE_PREFIX);
          if (prefix.isEmpty() ? workloadKey : key.startsWith(prefix)) {
            part.put(key.substring(prefix.length()), value);
          }
        });
    return part;
  }

  /** {@code key=value} items, as {@code -E} takes them. */
  public static List<String> items(Map<String, String> values) {
    List<String> items = new ArrayList<>();
    values.forEach((key, value) -> items.add(key + "=" + value));
    return items;
  }
}
