/**
 * Machines shared by this module's tests; the CPU state, policy context and tasks come from
 * topology-api ({@code ArrayCpuState}) and plugin-testkit ({@code dev.schedlab.testkit.fakes}).
 */
package dev.schedlab.policies.fair.testing;
