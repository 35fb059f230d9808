/**
 * The workloads users run ({@code wl.gemm}, {@code wl.hackbench}, {@code wl.schbench}, {@code
 * wl.stream}, {@code wl.build}, {@code wl.inference}, {@code wl.rtapp}, {@code wl.tbench}), each a
 * provider whose task programs report the benchmark's own metric.
 */
package dev.schedlab.workloads;
