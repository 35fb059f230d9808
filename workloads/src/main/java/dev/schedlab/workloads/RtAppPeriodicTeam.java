package dev.schedlab.workloads;

import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import java.util.List;

/**
 * An rt-app description that is one periodic team: a single task of {@code threads} instances, each
 * running {@code runNs} of work and then waiting for an absolute {@code timer} of period {@code
 * periodNs}, for ever, SCHED_OTHER at nice 0, allowed everywhere, without delay. This is what the
 * kernel oracle's guest program {@code rtapp_periodic} runs, so {@code schedlab kernel --workload
 * wl.rtapp} can run the same file in the guest and in the simulator; anything else in the file is
 * refused by name.
 *
 * @param threads instances of the task
 * @param periodNs the timer's period
 * @param runNs the work of each period ({@code run}, ns at capacity 1024)
 */
public record RtAppPeriodicTeam(int threads, long periodNs, long runNs) {

  /**
   * The team {@code json} describes.
   *
   * @param cpus CPUs of the machine it will run on (for the file's own checks)
   * @throws IllegalArgumentException when the file is invalid or is not one periodic team, naming
   *     what differs
   */
  public static RtAppPeriodicTeam of(String json, int cpus) {
    RtAppConfig config =
        RtAppConfig.parse(
            json, Shape.parse("1n1l" + cpus + "c1t").toTopology(SiblingNumbering.SPLIT));
    if (config.tasks().size() != 1) {
      throw notPeriodic(config.tasks().size() + " tasks (one task, as many instances as needed)");
    }
    RtAppConfig.TaskDef task = config.tasks().get(0);
    if (task.policy() != SchedPolicy.NORMAL || task.nice() != 0) {
      throw notPeriodic("task " + task.name() + " is not SCHED_OTHER at nice 0");
    }
    if (task.cpus() != null) {
      throw notPeriodic("task " + task.name() + " sets cpus (the guest's threads run anywhere)");
    }
    if (task.delayNs() != 0) {
      throw notPeriodic("task " + task.name() + " has a delay");
    }
    if (task.loops() != -1) {
      throw notPeriodic("task " + task.name() + " has loop " + task.loops() + " (-1: for ever)");
    }
    if (config.durationNs() != Long.MAX_VALUE) {
      throw notPeriodic("global.duration is set (--duration gives the run's length)");
    }
    List<RtAppConfig.Event> events = onePass(task);
    if (events.size() != 2
        || events.get(0).kind() != RtAppConfig.EventKind.RUN
        || events.get(1).kind() != RtAppConfig.EventKind.TIMER
        || !events.get(1).absolute()
        || !"unique".equals(events.get(1).resource())) {
      throw notPeriodic(
          "task "
              + task.name()
              + "'s events are not a run followed by an absolute timer of ref unique");
    }
    return new RtAppPeriodicTeam(task.instances(), events.get(1).ns(), events.get(0).ns());
  }

  private static List<RtAppConfig.Event> onePass(RtAppConfig.TaskDef task) {
    if (task.phases().size() != 1 || task.phases().get(0).loops() != 1) {
      throw notPeriodic("task " + task.name() + " has phases (one list of events)");
    }
    return task.phases().get(0).events();
  }

  private static IllegalArgumentException notPeriodic(String what) {
    return new IllegalArgumentException(
        RtAppWorkloadProvider.ID
            + ": the guest's rtapp_periodic runs one periodic team (one task: run, then an"
            + " absolute timer, loop -1, SCHED_OTHER nice 0, no cpus, delay or duration); this"
            + " file has "
            + what);
  }
}
