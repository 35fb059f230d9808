package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.LostWork;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import java.util.SplittableRandom;

/**
 * A real machine's background, which a quiet model lacks: timer expiries on every CPU, device
 * interrupts on the boot CPU, and each CPU's bound kernel worker. Rates and costs are {@link
 * EngineOptions} assumptions ({@code -E idle_timer_rate}, {@code timer_irq_cost}, {@code
 * device_irq_rate}, {@code device_irq_cost}, {@code kworker_rate}, {@code kworker_run}); arrivals
 * are Poisson, drawn from a stream of their own.
 *
 * <ul>
 *   <li>Timer expiry ({@code hrtimer_interrupt()}): on a tickless idle CPU the tick's hrtimer is
 *       programmed to the next timer event, so the expiry runs {@code tick_nohz_handler()}'s {@code
 *       sched_tick()}: {@code sched_balance_trigger()} raises SCHED_SOFTIRQ when {@code
 *       rq->next_balance} is due and the CPU balances its domains as {@code CPU_IDLE}; {@code
 *       nohz_balancer_kick()} returns at once ({@code rq->idle_balance}) and the tick stays
 *       stopped. The expiry's own work ({@code timer_irq_cost}) then occupies the hardware thread.
 *       On a CPU running a task the work is stolen from it (its tick already runs).
 *   <li>Device interrupt ({@code generic_handle_domain_irq()}): handled on the boot CPU, the first
 *       online CPU (see {@link EngineOptions#deviceIrqRateHz()} for the routing); stolen from the
 *       running task or occupying the idle CPU, with no tick path.
 *   <li>Kernel worker ({@code worker_thread()} of the CPU's bound pool): one nice-0 task per online
 *       CPU, pinned to it, that sleeps for exponential intervals and runs {@code kworker_run} of
 *       work. Being a task, it takes an idle CPU out of its idle loop and back through newidle
 *       balancing, and on a busy CPU it queues beside the running task.
 * </ul>
 *
 * <p>Simplifications: an interrupt arriving while the CPU is already busy balancing (a softirq or
 * newidle phase) is counted but its time is not added; timer expiries on a CPU whose tick runs cost
 * only their work (the tick path runs at the jiffy anyway).
 */
final class BackgroundIrqs {

  /** {@link Event.BackgroundIrq#source()} of timer expiries. */
  static final int TIMER = 0;

  /** {@link Event.BackgroundIrq#source()} of device interrupts. */
  static final int DEVICE = 1;

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final TaskProgress progress;
  private final BalancingTime balancingTime;
  private final SchedTick schedTick;
  private final CoreSchedule core;
  private final SplittableRandom random;
  private final int[] onlineCpus;
  private final int bootCpu;
  private final double timerRateHz;
  private final double deviceRateHz;
  private final long timerIrqNs;
  private final long deviceIrqNs;
  private final Event.BackgroundIrq timerEvent = new Event.BackgroundIrq(TIMER);
  private final Event.BackgroundIrq deviceEvent = new Event.BackgroundIrq(DEVICE);

  /** Registered at the first arrival of each kind, so that a run without them lists none. */
  private Counter idleTimerExpiries;

  private Counter busyTimerExpiries;
  private Counter deviceIrqs;

  BackgroundIrqs(
      EngineContext ctx,
      TaskProgress progress,
      BalancingTime balancingTime,
      SchedTick schedTick,
      CoreSchedule core) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.progress = progress;
    this.balancingTime = balancingTime;
    this.schedTick = schedTick;
    this.core = core;
    this.random = ctx.random.background();
    CpuMask online = ctx.topology.onlineMask();
    this.onlineCpus = new int[online.weight()];
    int i = 0;
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      onlineCpus[i++] = cpu;
    }
    this.bootCpu = online.first();
    EngineOptions options = ctx.options;
    this.timerRateHz = options.idleTimerRateHz() * onlineCpus.length;
    this.deviceRateHz = options.deviceIrqRateHz();
    this.timerIrqNs = options.timerIrqNs();
    this.deviceIrqNs = options.deviceIrqNs();
  }

  /**
   * Schedules the first arrival of each interrupt source and forks each CPU's kernel worker ({@code
   * -E kworker_rate} above 0) from {@code spawner}.
   */
  void start(Spawner spawner) {
    scheduleNext(timerEvent, timerRateHz);
    scheduleNext(deviceEvent, deviceRateHz);
    double kworkerRateHz = ctx.options.kworkerRateHz();
    if (kworkerRateHz > 0) {
      int nrCpuIds = ctx.topology.nrCpuIds();
      for (int cpu : onlineCpus) {
        TaskSpec spec =
            new TaskSpec(
                "kworker/" + cpu,
                SchedPolicy.NORMAL,
                0,
                CpuMasks.of(nrCpuIds, cpu),
                WorkClass.COMPUTE);
        spawner.spawn(spec, new Kworker(kworkerRateHz, ctx.options.kworkerRunNs()), cpu);
      }
    }
  }

  /** Forks a task at the start of the run (the engine's {@code WorkloadHost}). */
  @FunctionalInterface
  interface Spawner {
    void spawn(TaskSpec spec, TaskProgram program, int cpu);
  }

  /** An arrival of {@code source} ({@link #TIMER} or {@link #DEVICE}). */
  void onArrival(int source) {
    if (source == TIMER) {
      timerExpiry(onlineCpus[random.nextInt(onlineCpus.length)]);
      scheduleNext(timerEvent, timerRateHz);
    } else {
      deviceIrq(bootCpu);
      scheduleNext(deviceEvent, deviceRateHz);
    }
  }

  private void timerExpiry(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    if (rq.curr != null) {
      busyTimerExpiries = count(busyTimerExpiries, "engine.timer_expiries_busy");
      progress.steal(rq, timerIrqNs, LostWork.OWN_IRQ);
      return;
    }
    idleTimerExpiries = count(idleTimerExpiries, "engine.timer_expiries_idle");
    if (rq.phase != CpuPhase.NONE || rq.nr != 0) {
      return;
    }
    if (rq.tickStopped) {
      schedTick.timerExpiryOnIdle(rq);
    }
    occupy(rq, timerIrqNs);
  }

  private void deviceIrq(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    deviceIrqs = count(deviceIrqs, "engine.device_irqs");
    if (rq.curr != null) {
      progress.steal(rq, deviceIrqNs, LostWork.OWN_IRQ);
    } else if (rq.phase == CpuPhase.NONE && rq.nr == 0) {
      occupy(rq, deviceIrqNs);
    }
  }

  /** The interrupt's work on an idle CPU: after the balancing it started, or alone. */
  private void occupy(CpuRunqueue rq, long ns) {
    if (ns <= 0) {
      return;
    }
    if (rq.phase == CpuPhase.NONE) {
      balancingTime.beginPhase(rq, CpuPhase.IDLE_SOFTIRQ, ns);
    } else {
      balancingTime.extendPhase(rq, ns);
    }
    core.afterEvent(rq.cpu);
  }

  private void scheduleNext(Event.BackgroundIrq event, double rateHz) {
    if (rateHz <= 0) {
      return;
    }
    long at = ctx.now() + exponentialNs(random, rateHz);
    if (at < ctx.durationNs) {
      ctx.loop.schedule(at, event);
    }
  }

  private Counter count(Counter counter, String name) {
    Counter c = counter == null ? ctx.counters.counter(name) : counter;
    c.add(1);
    return c;
  }

  /** An exponential interval of mean {@code 1 / rateHz} s, at least 1 ns. */
  static long exponentialNs(SplittableRandom random, double rateHz) {
    double u = 1.0 - random.nextDouble();
    return Math.max(1, (long) (-Math.log(u) / rateHz * 1e9));
  }

  /**
   * A CPU's bound kernel worker: sleeps an exponential interval, runs its work item, sleeps again.
   * Its intervals come from its own stream, split from the background stream at its creation.
   */
  private final class Kworker implements TaskProgram {
    private final double rateHz;
    private final long runNs;
    private final SplittableRandom stream = random.split();
    private boolean workNext;

    Kworker(double rateHz, long runNs) {
      this.rateHz = rateHz;
      this.runNs = runNs;
    }

    @Override
    public void next(TaskControl control) {
      if (workNext && runNs > 0) {
        workNext = false;
        control.run(runNs);
      } else {
        workNext = true;
        control.sleep(exponentialNs(stream, rateHz));
      }
    }
  }
}
