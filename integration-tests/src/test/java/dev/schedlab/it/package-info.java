/** Architecture rules, end-to-end scenarios and real-topology conformance tests. */
package dev.schedlab.it;
