package dev.schedlab.topology.domain;

import dev.schedlab.cpumask.ImmutableCpuMask;
import java.util.List;

/**
 * One {@code struct sched_domain}: the static part of a CPU's domain at one level, as {@code
 * sd_init()} and {@code build_sched_domains()} in {@code kernel/sched/topology.c} leave it after
 * {@code cpu_attach_domain()} removed the degenerate levels. Immutable; the run-time fields ({@code
 * balance_interval}, {@code nr_balance_failed}, {@code last_balance}, newidle costs) belong to the
 * engine, which starts them from the values here.
 *
 * <p>Each CPU has its own chain of domains; {@link #parent()} and {@link #child()} walk it.
 */
public final class SchedDomain {

  private final int cpu;
  private final int level;
  private final int buildLevel;
  private final SchedDomainLevel kind;
  private final ImmutableCpuMask span;

  /** {@code sd->span_weight}, counted once. */
  private final int spanWeight;

  private final int flags;
  private final int imbalancePct;
  private final int minIntervalMs;
  private final int maxIntervalMs;
  private final int cacheNiceTries;
  private final int numaLevel;
  private final int distance;
  private final int imbNumaNr;
  private final boolean overlap;
  private final List<SchedGroup> groups;

  /**
   * {@link #groups} as an array: the list is one of several classes (shared, rotated, overlapping),
   * which makes {@code List.get} a megamorphic call on the balancer's hottest loop.
   */
  private final SchedGroup[] groupArray;

  /** The CPU's whole chain, bottom-up; shared by all its domains and filled before publication. */
  private final SchedDomain[] chain;

  /**
   * {@code groupArray.length} and whether this is the top of the chain, held here so that the
   * balancer's per-attempt checks read this object only, not the arrays (a cache miss each on a
   * machine with thousands of CPUs).
   */
  private final int nrGroups;

  private final boolean top;

  SchedDomain(
      int cpu,
      int level,
      int buildLevel,
      SchedDomainLevel kind,
      ImmutableCpuMask span,
      int flags,
      int imbalancePct,
      int sdWeight,
      int cacheNiceTries,
      int numaLevel,
      int distance,
      int imbNumaNr,
      boolean overlap,
      List<SchedGroup> groups,
      SchedDomain[] chain) {
    this.cpu = cpu;
    this.level = level;
    this.buildLevel = buildLevel;
    this.kind = kind;
    this.span = span;
    this.spanWeight = span.weight();
    this.flags = flags;
    this.imbalancePct = imbalancePct;
    this.minIntervalMs = sdWeight;
    this.maxIntervalMs = 2 * sdWeight;
    this.cacheNiceTries = cacheNiceTries;
    this.numaLevel = numaLevel;
    this.distance = distance;
    this.imbNumaNr = imbNumaNr;
    this.overlap = overlap;
    this.groups = groups;
    this.groupArray = groups.toArray(new SchedGroup[0]);
    this.chain = chain;
    this.nrGroups = groupArray.length;
    this.top = level + 1 >= chain.length;
  }

  /** The CPU this domain belongs to. */
  public int cpu() {
    return cpu;
  }

  /**
   * Position in the CPU's chain after degenerate levels were removed: 0 for the base domain ({@code
   * rq->sd}); the {@code N} of {@code domainN} in {@code /proc/schedstat}, and the index in {@link
   * SchedDomains#domains(int)}.
   */
  public int level() {
    return level;
  }

  /**
   * The kernel's {@code sd->level}: set while building, before degenerate levels were removed, so
   * it may skip numbers (a machine without clusters has no {@code CLS} domain but its {@code MC}
   * still counts it). {@code relax_domain_level=} compares against this.
   */
  public int buildLevel() {
    return buildLevel;
  }

  /**
   * {@code sd->name}: {@code SMT}, {@code CLS}, {@code MC}, {@code PKG}, {@code NODE} or {@code
   * NUMA}.
   */
  public String name() {
    return kind.name();
  }

  /** The topology level this domain was built from. */
  public SchedDomainLevel levelKind() {
    return kind;
  }

  /** Equivalent of {@code sched_domain_span(sd)}. */
  public ImmutableCpuMask span() {
    return span;
  }

  /** Equivalent of {@code sd->span_weight}. */
  public int spanWeight() {
    return spanWeight;
  }

  /** {@code sd->flags}, see {@link SdFlags}. */
  public int flags() {
    return flags;
  }

  /** Whether every bit of {@code flag} (one or more {@link SdFlags} values) is set. */
  public boolean hasFlag(int flag) {
    return flag != 0 && (flags & flag) == flag;
  }

  /** {@code sd->imbalance_pct}: 110 for SMT, 117 for every other level. */
  public int imbalancePct() {
    return imbalancePct;
  }

  /** {@code sd->busy_factor}: 16. */
  public int busyFactor() {
    return 16;
  }

  /** {@code sd->min_interval} in ms: the span weight when built. */
  public int minIntervalMs() {
    return minIntervalMs;
  }

  /** {@code sd->max_interval} in ms: twice the span weight when built. */
  public int maxIntervalMs() {
    return maxIntervalMs;
  }

  /** The initial {@code sd->balance_interval} in ms: the span weight when built. */
  public int initialBalanceIntervalMs() {
    return minIntervalMs;
  }

  /** {@code sd->cache_nice_tries}: 0 for SMT, 1 for LLC and other levels, 2 for NUMA. */
  public int cacheNiceTries() {
    return cacheNiceTries;
  }

  /**
   * The level's index into the sorted distinct node distances ({@code tl->numa_level}): 0 for
   * {@code NODE}, 1 and up for {@code NUMA}; -1 for SMT, CLS, MC and PKG.
   */
  public int numaLevel() {
    return numaLevel;
  }

  /**
   * The node distance this NODE or NUMA level reaches ({@code
   * sched_domains_numa_distance[numa_level]}); 0 for the other levels.
   */
  public int distance() {
    return distance;
  }

  /**
   * {@code sd->imb_numa_nr}: how many tasks a NUMA imbalance may keep before balancing, set by
   * {@code build_sched_domains()} for the parent of the top LLC domain and its ancestors; 0 below.
   */
  public int imbNumaNr() {
    return imbNumaNr;
  }

  /**
   * Whether groups of this level may overlap: every NUMA level above NODE, whether or not its
   * groups do. Linux 6.1 shows this as the flag {@code SD_OVERLAP} (from the level's {@code
   * SDTL_OVERLAP}); the 7.1.5 {@code sd_flags.h} has no such flag, so it is no bit of {@link
   * #flags()}.
   */
  public boolean hasOverlappingGroups() {
    return overlap;
  }

  /** {@code sd->parent}, or null at the top. */
  public SchedDomain parent() {
    return top ? null : chain[level + 1];
  }

  /** {@code sd->child}, or null at the base. */
  public SchedDomain child() {
    return level > 0 ? chain[level - 1] : null;
  }

  /**
   * The groups in the kernel's circular-list order starting at {@code sd->groups}: the first is the
   * local group (holding {@link #cpu()}), the rest follow in {@code for_each_cpu_wrap()} order from
   * the CPU. Unmodifiable.
   */
  public List<SchedGroup> groups() {
    return groups;
  }

  /** {@code sd->groups}: the group holding this CPU. */
  public SchedGroup localGroup() {
    return groupArray[0];
  }

  /** The number of groups. */
  public int nrGroups() {
    return nrGroups;
  }

  /**
   * Group {@code index} of {@link #groups()}, {@code 0 <= index < nrGroups()}; the same group as
   * {@code groups().get(index)}, read from an array.
   */
  public SchedGroup group(int index) {
    return groupArray[index];
  }

  @Override
  public String toString() {
    return "SchedDomain[cpu "
        + cpu
        + " domain"
        + level
        + " "
        + name()
        + " span="
        + span.toCpuList()
        + " flags="
        + SdFlags.describe(flags)
        + "]";
  }
}
