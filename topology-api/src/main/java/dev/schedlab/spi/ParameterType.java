package dev.schedlab.spi;

/** The closed set of parameter value types a plugin may declare. */
public enum ParameterType {
  /** A 32-bit integer with an inclusive range. */
  INT,
  /** A 64-bit integer with an inclusive range. */
  LONG,
  /** A floating-point number with an inclusive range. */
  DOUBLE,
  /** {@code true} or {@code false}. */
  BOOLEAN,
  /** One of a fixed list of words. */
  CHOICE,
  /** Free text. */
  STRING,
  /** A cpulist such as {@code 0-87,176-263}; checked for syntax here, for width by the user. */
  CPULIST,
  /**
   * A duration: a number with unit {@code ns}, {@code us}, {@code ms} or {@code s}; stored in ns.
   */
  DURATION
}
