/**
 * The discrete-event engine: event queue and executive, per-CPU runqueues with EEVDF-like fair
 * sharing, PELT load tracking, ticks and NO_HZ, NOHZ idle balancing, wakeup placement, and the
 * statistics they feed.
 */
package dev.schedlab.core.engine;
