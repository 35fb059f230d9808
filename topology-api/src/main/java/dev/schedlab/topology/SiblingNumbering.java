package dev.schedlab.topology;

/** How a machine numbers the hardware threads of its SMT cores. */
public enum SiblingNumbering {

  /** Thread {@code j} of core {@code k} is CPU {@code k * threads + j}: siblings are neighbours. */
  ADJACENT,

  /**
   * Thread {@code j} of core {@code k} is CPU {@code k + j * cores}: first every core's thread 0,
   * then every core's thread 1, as x86 firmware and NVIDIA Vera enumerate them (on a 176-core Vera,
   * CPU {@code n} and CPU {@code n + 176} are siblings).
   */
  SPLIT
}
