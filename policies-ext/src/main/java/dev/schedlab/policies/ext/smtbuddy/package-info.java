/**
 * The balancing parts of the SMT_BUDDY_ASSIST RFC: push to an SMT sibling before the periodic
 * domain walk, then keep the rest of that pass from undoing the push.
 */
package dev.schedlab.policies.ext.smtbuddy;
