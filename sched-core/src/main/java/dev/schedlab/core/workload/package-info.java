/**
 * Small built-in workloads for tests and benchmarks of the engine: CPU-bound loops and a
 * GEMM-like bulk-synchronous barrier program. The full workload set lives in its own module.
 */
package dev.schedlab.core.workload;
