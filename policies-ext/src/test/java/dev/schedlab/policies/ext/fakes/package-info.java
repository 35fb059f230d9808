/**
 * Small machines for this module's tests; the state views, actions and contexts the engine hands to
 * policies come from plugin-testkit ({@code dev.schedlab.testkit.fakes}) and topology-api ({@code
 * ArrayCpuState}).
 */
package dev.schedlab.policies.ext.fakes;
