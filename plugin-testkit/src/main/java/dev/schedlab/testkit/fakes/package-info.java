/**
 * Stand-ins for what the engine hands a policy (its creation context, tasks, a wakeup, a balancing
 * pass and its actions), small enough that a plugin's unit test can compute every expectation by
 * hand; the CPU state is topology-api's {@link dev.schedlab.spi.view.ArrayCpuState}.
 */
package dev.schedlab.testkit.fakes;
