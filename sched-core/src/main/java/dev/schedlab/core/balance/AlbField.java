package dev.schedlab.core.balance;

/**
 * The active-balance counters of a {@code /proc/schedstat} version 17 domain line, in the order the
 * kernel prints them; all move in {@code active_load_balance_cpu_stop()}.
 */
public enum AlbField {
  /** {@code alb_count}: active balances run on a domain. */
  COUNT("alb_count"),
  /** {@code alb_failed}: active balances that found no task to push. */
  FAILED("alb_failed"),
  /** {@code alb_pushed}: active balances that pushed a task. */
  PUSHED("alb_pushed");

  private final String kernelName;

  AlbField(String kernelName) {
    this.kernelName = kernelName;
  }

  /** The kernel's field name, e.g. {@code alb_count}. */
  public String kernelName() {
    return kernelName;
  }
}
