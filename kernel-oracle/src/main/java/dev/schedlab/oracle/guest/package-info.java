/** Booting a guest: machine shapes for QEMU, the initramfs, the serial console, host tools. */
package dev.schedlab.oracle.guest;
