/** Guest kernel against simulator: name rules between kernel versions and the comparisons. */
package dev.schedlab.oracle.compare;
