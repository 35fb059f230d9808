/**
 * {@code wl.trace}: a recorded workload ({@code perf script} of {@code perf sched record}, or
 * ftrace text) turned into one task program per traced task and replayed on any machine.
 */
package dev.schedlab.workloads.trace;
