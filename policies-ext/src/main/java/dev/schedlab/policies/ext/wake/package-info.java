/**
 * Final overrides of wakeup placement for bursts of wakeups: the RFC's NOHZ-idle redirect and the
 * reviewer's runqueue-depth distribution.
 */
package dev.schedlab.policies.ext.wake;
