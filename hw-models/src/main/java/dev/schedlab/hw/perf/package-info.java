/**
 * Performance models: how fast a thread runs given its SMT siblings, its cache state after a
 * migration and the memory bandwidth it shares.
 */
package dev.schedlab.hw.perf;
