/**
 * NOHZ idle-load-balancer selectors proposed on the list but not merged: the round-robin choice
 * that spreads the ILB work over the idle CPUs instead of loading the lowest-numbered one.
 */
package dev.schedlab.policies.ext.ilb;
