/** Restrictions on how far up the sched-domain hierarchy newidle balancing may pull tasks. */
package dev.schedlab.policies.ext.newidle;
