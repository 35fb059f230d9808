/**
 * The simulated machine: CPUs with capacities, SMT cores, clusters, LLCs, dies, packages, NUMA
 * nodes and distances, and the housekeeping masks of {@code nohz_full=} and {@code isolcpus=},
 * built by a fluent builder or from a shape string.
 */
package dev.schedlab.topology;
