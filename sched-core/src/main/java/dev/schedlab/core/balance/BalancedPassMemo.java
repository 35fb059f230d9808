package dev.schedlab.core.balance;

import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;

/**
 * What a periodic {@code sched_balance_rq()} of an SMT domain that found no busiest group needs to
 * replay, per CPU and idle type, so that the next such attempt replays it while nothing it read has
 * changed. The NOHZ idle balancer repeats these attempts for every idle CPU every few jiffies
 * (about 54,000 per simulated second on a Vera GEMM), and nearly all end "balanced" on unchanged
 * input.
 *
 * <p>An SMT domain's attempt reads: the rows, {@code idle_cpu()} and misfit loads of the domain's
 * CPUs (all stamped in the groups' {@link GroupStamps} slots), each group's {@code sgc->imbalance},
 * whether SMT is active, and fixed things (capacities, options, the span's active CPUs). {@code
 * should_we_balance()} reads only the idleness of the local group's CPUs here: the idle-core rule
 * does not apply to {@code SD_SHARE_CPUCAPACITY} domains. So an attempt with every group stamp and
 * imbalance flag as recorded finds no busiest group again, with the same {@code
 * env->migration_type}, the same CPUs scanned and the same span totals for the parent level; the
 * replay ({@link SchedBalanceRq}) makes every counter, interval and flag move as the attempt would.
 * Only the search's scratch statistics ({@link SdLbStats}) keep the previous search's values, which
 * nothing reads after an attempt.
 *
 * <p>Not used for newidle, for the root domain ({@code rd->overloaded}), for {@code SD_SERIALIZE}
 * domains or for more than {@link #MAX_GROUPS} groups. Allocation-free.
 */
final class BalancedPassMemo {

  /** Groups of an SMT domain recorded at most (SMT8). */
  static final int MAX_GROUPS = 8;

  /** Longs of span totals per entry (see {@link FindSrcGroup#heldTotals}). */
  static final int TOTALS = FindSrcGroup.HELD_TOTALS;

  private final GroupStamps stamps;
  private final boolean[] sgcImbalance;

  /** The domain each entry was recorded for, or null: not valid. */
  private final SchedDomain[] recordedFor;

  /** Each entry's groups' {@code capacitySlot()}s, so that a lookup reads no group. */
  private final int[] slots;

  private final int[] nrGroups;
  private final long[] groupStamps;
  private final int[] imbalanceBits;
  private final boolean[] smtActive;
  private final boolean[] misfit;
  private final long[] scanned;

  /** The search kept span totals for the parent level (a walk with child-totals reuse). */
  private final boolean[] held;

  private final long[] totals;

  /** The fresh attempt's span totals while {@link #sameAs} compares them. */
  private final long[] scratchTotals = new long[TOTALS];

  /** Attempts replayed. */
  long replays;

  /** Attempts the memo would have replayed, run in full and checked instead (verifying). */
  long checked;

  BalancedPassMemo(GroupStamps stamps, boolean[] sgcImbalance, int nrCpuIds) {
    this.stamps = stamps;
    this.sgcImbalance = sgcImbalance;
    int entries = 2 * nrCpuIds;
    this.recordedFor = new SchedDomain[entries];
    this.slots = new int[entries * MAX_GROUPS];
    this.nrGroups = new int[entries];
    this.groupStamps = new long[entries * MAX_GROUPS];
    this.imbalanceBits = new int[entries];
    this.smtActive = new boolean[entries];
    this.misfit = new boolean[entries];
    this.scanned = new long[entries];
    this.held = new boolean[entries];
    this.totals = new long[entries * TOTALS];
  }

  /** Whether attempts of {@code sd} with {@code idle} are recorded and replayed. */
  static boolean applies(SchedDomain sd, IdleType idle) {
    return idle != IdleType.NEWLY_IDLE
        && sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY)
        && !sd.hasFlag(SdFlags.SD_SERIALIZE)
        && sd.parent() != null
        && sd.nrGroups() <= MAX_GROUPS;
  }

  private static int entry(int cpu, IdleType idle) {
    return 2 * cpu + (idle == IdleType.IDLE ? 1 : 0);
  }

  /**
   * The entry to replay for {@code cpu}'s attempt at {@code sd}, or -1 if none was recorded or
   * something it read changed; {@code keepsTotals} is whether this search would keep span totals.
   */
  int find(int cpu, SchedDomain sd, IdleType idle, boolean smtActiveNow, boolean keepsTotals) {
    int entry = entry(cpu, idle);
    if (recordedFor[entry] != sd
        || smtActive[entry] != smtActiveNow
        || held[entry] != keepsTotals) {
      return -1;
    }
    int at = entry * MAX_GROUPS;
    int n = nrGroups[entry];
    for (int g = 0; g < n; g++) {
      if (groupStamps[at + g] != stamps.stamp(slots[at + g])) {
        return -1;
      }
    }
    return imbalanceBits(at, n) == imbalanceBits[entry] ? entry : -1;
  }

  /** Bit {@code g} set when the group in slot {@code slots[at + g]} has {@code sgc->imbalance}. */
  private int imbalanceBits(int at, int n) {
    int bits = 0;
    for (int g = 0; g < n; g++) {
      if (sgcImbalance[slots[at + g]]) {
        bits |= 1 << g;
      }
    }
    return bits;
  }

  /** Records an attempt that found no busiest group. */
  void record(
      int cpu,
      SchedDomain sd,
      IdleType idle,
      boolean smtActiveNow,
      boolean misfitType,
      long cpusScanned,
      FindSrcGroup findSrcGroup) {
    int entry = entry(cpu, idle);
    int at = entry * MAX_GROUPS;
    int n = sd.nrGroups();
    for (int g = 0; g < n; g++) {
      int slot = sd.group(g).capacitySlot();
      slots[at + g] = slot;
      groupStamps[at + g] = stamps.stamp(slot);
    }
    nrGroups[entry] = n;
    imbalanceBits[entry] = imbalanceBits(at, n);
    smtActive[entry] = smtActiveNow;
    misfit[entry] = misfitType;
    scanned[entry] = cpusScanned;
    held[entry] = findSrcGroup.heldTotals(sd, cpu, totals, entry * TOTALS);
    recordedFor[entry] = sd;
  }

  /** Forgets {@code cpu}'s entry: its last attempt ended otherwise. */
  void forget(int cpu, IdleType idle) {
    recordedFor[entry(cpu, idle)] = null;
  }

  boolean misfit(int entry) {
    return misfit[entry];
  }

  long scanned(int entry) {
    return scanned[entry];
  }

  /** Gives the walk's next level the span totals the recorded search kept, if it kept them. */
  void restoreTotals(int entry, SchedDomain sd, int cpu, FindSrcGroup findSrcGroup) {
    if (held[entry]) {
      findSrcGroup.restoreHeldTotals(sd, cpu, totals, entry * TOTALS);
    } else {
      findSrcGroup.forgetChildTotals();
    }
  }

  /** Whether a fresh attempt's results are the ones entry {@code entry} replays. */
  boolean sameAs(
      int entry, boolean misfitType, long cpusScanned, SchedDomain sd, int cpu, FindSrcGroup f) {
    if (misfit[entry] != misfitType || scanned[entry] != cpusScanned) {
      return false;
    }
    long[] fresh = scratchTotals;
    boolean freshHeld = f.heldTotals(sd, cpu, fresh, 0);
    if (freshHeld != held[entry]) {
      return false;
    }
    for (int i = 0; i < TOTALS && freshHeld; i++) {
      if (fresh[i] != totals[entry * TOTALS + i]) {
        return false;
      }
    }
    return true;
  }
}
