/**
 * Mainline fair-class behaviours as plugins: the ILB selectors in {@code ilb}, NOHZ idle
 * registration in {@code nohz}, the SCHED_IDLE wakee rule in {@code wake} and the named kernel
 * profiles that bundle them in {@code profile}.
 */
package dev.schedlab.policies.fair;
