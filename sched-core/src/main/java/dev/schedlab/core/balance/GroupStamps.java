package dev.schedlab.core.balance;

import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SchedGroup;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.eclipse.collections.impl.set.mutable.primitive.IntHashSet;

/**
 * Change stamps of what {@code update_sg_lb_stats()} reads of each CPU, one stamp per
 * group-capacity slot ({@link SchedGroup#capacitySlot()}): the host calls {@link #cpuChanged}
 * whenever a CPU's {@code nr_running}, {@code h_nr_runnable}, load, runnable or utilisation
 * average, {@code idle_cpu()} or {@code misfit_task_load} changes, and every slot of a group that
 * contains the CPU moves on. A group's statistics computed at one stamp are therefore still its
 * statistics while the stamp is unchanged; {@link FindSrcGroup} keeps them and reuses them (see
 * {@link LoadBalancer#useGroupStatsCache}). The kernel has nothing like it: it scans every CPU of
 * every group on every pass, and the counters the simulator keeps count the scans as if it did.
 *
 * <p>Not thread-safe; one per simulation. Allocation-free after construction.
 */
public final class GroupStamps {

  /** One stamp per group-capacity slot, and a last one no group reads (the padding's). */
  private final long[] stamps;

  /**
   * The slots of the groups containing CPU {@code c}: {@code slots[c * width .. (c + 1) * width)},
   * padded with the unread last stamp, so that every CPU's loop has the same length.
   */
  private final int[] slots;

  private final int width;

  /** Stamps for every group of {@code domains}. */
  public GroupStamps(SchedDomains domains) {
    int nr = domains.topology().nrCpuIds();
    Set<SchedGroup> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    IntHashSet[] slotsOfCpu = new IntHashSet[nr];
    for (int cpu = 0; cpu < nr; cpu++) {
      slotsOfCpu[cpu] = new IntHashSet(8);
    }
    for (int cpu = 0; cpu < nr; cpu++) {
      for (SchedDomain sd : domains.domains(cpu)) {
        for (SchedGroup sg : sd.groups()) {
          if (!seen.add(sg)) {
            continue;
          }
          int slot = sg.capacitySlot();
          sg.span().forEachCpu(member -> slotsOfCpu[member].add(slot));
        }
      }
    }
    int padding = domains.capacitySlotCount();
    this.stamps = new long[padding + 1];
    int most = 0;
    for (int cpu = 0; cpu < nr; cpu++) {
      most = Math.max(most, slotsOfCpu[cpu].size());
    }
    this.width = most;
    this.slots = new int[nr * most];
    Arrays.fill(slots, padding);
    for (int cpu = 0; cpu < nr; cpu++) {
      int[] sorted = slotsOfCpu[cpu].toSortedArray();
      System.arraycopy(sorted, 0, slots, cpu * most, sorted.length);
    }
  }

  private GroupStamps() {
    this.stamps = new long[1];
    this.slots = new int[0];
    this.width = 0;
  }

  /** Stamps that track no group, for a runqueue outside any balancer (tests). */
  public static GroupStamps untracked() {
    return new GroupStamps();
  }

  /** Something {@code update_sg_lb_stats()} reads of {@code cpu} changed. */
  public void cpuChanged(int cpu) {
    long[] s = stamps;
    int[] of = slots;
    for (int i = cpu * width, end = i + width; i < end; i++) {
      s[of[i]]++;
    }
  }

  /** The stamp of group-capacity slot {@code slot}. */
  long stamp(int slot) {
    return stamps[slot];
  }
}
