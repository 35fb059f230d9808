/**
 * The kernel's sched domains and sched groups built from a topology, with the flags and balancing
 * defaults of {@code kernel/sched/topology.c}.
 */
package dev.schedlab.topology.domain;
