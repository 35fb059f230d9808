package dev.schedlab.spi;

/**
 * A named counter a plugin reports in the run's results (pushes made, CPUs examined). Not
 * thread-safe: one simulation runs on one thread.
 */
public final class Counter {
  private final String name;
  private long value;

  /** A counter starting at zero. */
  public Counter(String name) {
    this.name = name;
  }

  /** The counter's name as reported. */
  public String name() {
    return name;
  }

  /** Adds one. */
  public void increment() {
    value++;
  }

  /** Adds {@code delta}. */
  public void add(long delta) {
    value += delta;
  }

  /** The current value. */
  public long get() {
    return value;
  }

  @Override
  public String toString() {
    return name + "=" + value;
  }
}
