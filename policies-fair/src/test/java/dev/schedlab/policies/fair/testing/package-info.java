/**
 * Test doubles shared by this module's tests: a CPU-state view, a policy context, tasks and
 * machines.
 */
package dev.schedlab.policies.fair.testing;
