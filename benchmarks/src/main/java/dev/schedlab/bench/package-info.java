/**
 * JMH benchmarks of the hot paths: mask operations, ILB selection, the engine's event queue and the
 * trace replay.
 */
package dev.schedlab.bench;
