/**
 * Named kernel profiles ({@code profile.mainline-7.3} and friends): bundles of this module's
 * plugins, each choice with its source.
 */
package dev.schedlab.policies.fair.profile;
