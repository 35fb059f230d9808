/**
 * Fixed-width CPU bitmaps in the kernel's {@code cpumask} vocabulary, their text forms, and per-CPU
 * scratch masks.
 */
package dev.schedlab.cpumask;
