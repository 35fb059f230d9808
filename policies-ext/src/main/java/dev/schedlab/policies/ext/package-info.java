/**
 * Experimental scheduler proposals that are not in mainline, each a separate plugin so any subset
 * can be switched on, and the profile that bundles the SMT_BUDDY_ASSIST RFC as it was posted.
 */
package dev.schedlab.policies.ext;
