package dev.schedlab.spi;

/**
 * What a plugin needs from the machine or says about itself; the registry filters on these instead
 * of on types.
 */
public enum Capability {
  /** Only meaningful on machines with SMT (more than one thread per core). */
  NEEDS_SMT,
  /** Only meaningful on machines with more than one NUMA node. */
  NEEDS_NUMA,
  /** Only meaningful with asymmetric CPU capacity ({@code SD_ASYM_CPUCAPACITY}). */
  NEEDS_ASYM_CAPACITY,
  /** Behaviour merged in a mainline kernel. */
  MAINLINE,
  /** A proposal not in mainline (RFC, reviewer suggestion). */
  EXPERIMENTAL
}
