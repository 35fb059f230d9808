/**
 * Whether a runqueue holding only SCHED_IDLE tasks counts as idle for a wakee, before and after the
 * SCHED_IDLE wakee fix, as {@link dev.schedlab.spi.WakeupPolicy} plugins.
 */
package dev.schedlab.policies.fair.wake;
