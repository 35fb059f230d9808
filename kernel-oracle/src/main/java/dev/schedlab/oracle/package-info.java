/** A real Linux kernel in QEMU as the simulator's oracle: the entry point and its report. */
package dev.schedlab.oracle;
