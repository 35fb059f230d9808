package dev.schedlab.workloads.trace;

/**
 * The steps of a traced task's program, one {@code long} each: the kind in the top four bits, its
 * argument in the other 60. A program is what the task did between the events that concern it: run
 * some work (its CPU bursts, merged across preemptions, split where it woke or forked another
 * task), wake the task that waits at a block, fork a child, sleep a recorded time (a timer or
 * interrupt wakeup), block until its waker reaches the recorded point, exit.
 */
final class TraceOps {

  /** Nothing: a sleep that took no time. */
  static final int NOP = 0;

  /** Run {@code argument} work units (ns on a 1024-capacity CPU running the task alone). */
  static final int RUN = 1;

  /** Sleep {@code argument} ns, as after a timer or interrupt wakeup. */
  static final int SLEEP = 2;

  /** Block until the {@link #WAKE} of block {@code argument} has happened. */
  static final int BLOCK = 3;

  /** Release block {@code argument}, waking its task if it waits there. */
  static final int WAKE = 4;

  /** Fork traced task number {@code argument}. */
  static final int SPAWN = 5;

  /** Exit. */
  static final int EXIT = 6;

  /** Block for good: the recording ended while the task slept. */
  static final int PARK = 7;

  /** A sleep whose end has not been read yet (during an import only). */
  static final int PENDING = 8;

  private static final int SHIFT = 60;
  private static final long MASK = (1L << SHIFT) - 1;
  private static final String LETTERS = ".rsbwfxp?";

  private TraceOps() {}

  static long op(int kind, long argument) {
    if (argument < 0 || argument > MASK) {
      throw new IllegalArgumentException("op argument " + argument + " out of range");
    }
    return (long) kind << SHIFT | argument;
  }

  static int kind(long op) {
    return (int) (op >>> SHIFT);
  }

  static long argument(long op) {
    return op & MASK;
  }

  /** The text form of a program: {@code r1200 w3 b4 s500 f2 x}, NOPs left out. */
  static String format(long[] ops) {
    StringBuilder out = new StringBuilder(ops.length * 8);
    for (long op : ops) {
      int kind = kind(op);
      if (kind == NOP) {
        continue;
      }
      if (out.length() > 0) {
        out.append(' ');
      }
      out.append(LETTERS.charAt(kind));
      if (kind != EXIT && kind != PARK) {
        out.append(argument(op));
      }
    }
    return out.toString();
  }

  /**
   * Reads {@link #format}'s text.
   *
   * @throws IllegalArgumentException naming the first step that is not one
   */
  static long[] parse(String text) {
    long[] ops = new long[16];
    int size = 0;
    int i = 0;
    int n = text.length();
    while (i < n) {
      while (i < n && text.charAt(i) == ' ') {
        i++;
      }
      if (i == n) {
        break;
      }
      int kind = LETTERS.indexOf(text.charAt(i));
      if (kind <= NOP || kind == PENDING) {
        throw new IllegalArgumentException(
            "step "
                + (size + 1)
                + " '"
                + text.charAt(i)
                + "': expected r (run), s (sleep), b (block), w (wake), f (fork), x (exit) or p"
                + " (park)");
      }
      int start = ++i;
      long value = 0;
      while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
        value = value * 10 + (text.charAt(i++) - '0');
        if (value > MASK) {
          throw new IllegalArgumentException("step " + (size + 1) + ": number too large");
        }
      }
      boolean needsNumber = kind != EXIT && kind != PARK;
      if (needsNumber == (i == start) || i < n && text.charAt(i) != ' ') {
        throw new IllegalArgumentException(
            "step "
                + (size + 1)
                + " '"
                + text.substring(start - 1, Math.min(n, Math.max(i, start) + 1)).strip()
                + "': "
                + (needsNumber ? "expected a number after the letter" : "takes no number"));
      }
      if (size == ops.length) {
        ops = java.util.Arrays.copyOf(ops, size * 2);
      }
      ops[size++] = op(kind, value);
    }
    return java.util.Arrays.copyOf(ops, size);
  }
}
