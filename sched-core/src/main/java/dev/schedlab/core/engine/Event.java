package dev.schedlab.core.engine;

/**
 * A simulation event. Events are immutable records; the executive orders them by (time, {@link
 * #priority()}, sequence of scheduling) and {@link #fire fires} them one at a time.
 */
sealed interface Event
    permits Event.JiffyTick,
        Event.SkewedTick,
        Event.SleepEnd,
        Event.CpuTimer,
        Event.NohzKickIpi,
        Event.ReschedIpi,
        Event.ActiveBalanceStop,
        Event.PhaseEnd,
        Event.BackgroundIrq,
        Event.End {

  /** Tie-break among events at the same instant: lower fires first. */
  int priority();

  /** Performs the event's effect. */
  void fire(Handler handler);

  /** What events do: the engine's top ({@link Engine}) routes each to the part it concerns. */
  interface Handler {
    void onJiffy(long jiffy);

    void onSkewedTick();

    void onSleepEnd(int task, long token);

    void onCpuTimer(int cpu);

    void onKickIpi(int cpu);

    void onReschedIpi(int cpu);

    void onActiveBalance(int busiestCpu, int targetCpu);

    void onPhaseEnd(int cpu, long token);

    void onBackgroundIrq(int source);

    void onEnd();

    /**
     * The events at the instant about to run, {@code events[0..n)} (a few or all of them), before
     * the first fires: a handler may read ahead the state they will read, so that their cache
     * misses overlap. Must change nothing. The default does nothing.
     */
    default void touchAhead(Event[] events, int n) {}
  }

  /** The global tick at a jiffy boundary (ticks are not skewed: {@code sched_skew_tick=0}). */
  record JiffyTick(long jiffy) implements Event {
    @Override
    public int priority() {
      return 0;
    }

    @Override
    public void fire(Handler handler) {
      handler.onJiffy(jiffy);
    }
  }

  /**
   * With {@code skew_tick=1}: the tick of the next CPU in the current jiffy's chain ({@link
   * SchedTick} knows which); one instance per simulation, re-scheduled link by link.
   */
  record SkewedTick() implements Event {
    @Override
    public int priority() {
      return 0;
    }

    @Override
    public void fire(Handler handler) {
      handler.onSkewedTick();
    }
  }

  /** A sleeping task's timer expires ({@code hrtimer_wakeup()}). */
  record SleepEnd(int task, long token) implements Event {
    @Override
    public int priority() {
      return 1;
    }

    @Override
    public void fire(Handler handler) {
      handler.onSleepEnd(task, token);
    }
  }

  /**
   * The running task of {@code cpu} finishes its step, or its speed changes. One per CPU, reused:
   * it is scheduled under the CPU's slot, so re-arming moves it and it is never stale.
   */
  record CpuTimer(int cpu) implements Event {
    @Override
    public int priority() {
      return 2;
    }

    @Override
    public void fire(Handler handler) {
      handler.onCpuTimer(cpu);
    }
  }

  /** The NOHZ kick IPI reaches the chosen idle load balancer ({@code nohz_csd_func()}). */
  record NohzKickIpi(int cpu) implements Event {
    @Override
    public int priority() {
      return 3;
    }

    @Override
    public void fire(Handler handler) {
      handler.onKickIpi(cpu);
    }
  }

  /** A reschedule IPI reaches {@code cpu} ({@code resched_curr()} of a remote CPU). */
  record ReschedIpi(int cpu) implements Event {
    @Override
    public int priority() {
      return 4;
    }

    @Override
    public void fire(Handler handler) {
      handler.onReschedIpi(cpu);
    }
  }

  /** The stopper runs {@code active_load_balance_cpu_stop()} on {@code busiestCpu}. */
  record ActiveBalanceStop(int busiestCpu, int targetCpu) implements Event {
    @Override
    public int priority() {
      return 5;
    }

    @Override
    public void fire(Handler handler) {
      handler.onActiveBalance(busiestCpu, targetCpu);
    }
  }

  /** Balancing work occupying {@code cpu} (newidle or softirq from idle) ends. */
  record PhaseEnd(int cpu, long token) implements Event {
    @Override
    public int priority() {
      return 6;
    }

    @Override
    public void fire(Handler handler) {
      handler.onPhaseEnd(cpu, token);
    }
  }

  /**
   * The next arrival of one source of the machine's background ({@link BackgroundIrqs}: timer
   * expiries, device interrupts, kernel-worker wakeups); one instance per source, re-scheduled.
   */
  record BackgroundIrq(int source) implements Event {
    @Override
    public int priority() {
      return 7;
    }

    @Override
    public void fire(Handler handler) {
      handler.onBackgroundIrq(source);
    }
  }

  /** The end of the simulated interval. */
  record End() implements Event {
    @Override
    public int priority() {
      return 9;
    }

    @Override
    public void fire(Handler handler) {
      handler.onEnd();
    }
  }
}
