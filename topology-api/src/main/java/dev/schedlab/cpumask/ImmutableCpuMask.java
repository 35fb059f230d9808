package dev.schedlab.cpumask;

/**
 * A CPU bitmap that never changes after creation: safe to publish and share between threads
 * (topology spans, sched-domain spans, housekeeping masks).
 */
public interface ImmutableCpuMask extends CpuMask {}
