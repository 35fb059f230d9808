/**
 * Test doubles for the state views, actions and contexts the engine hands to policies, small
 * enough that every expectation in the tests can be computed by hand.
 */
package dev.schedlab.policies.ext.fakes;
