/** The built-in machines ({@code hw.*} providers) and the assumptions each one states. */
package dev.schedlab.hw.machines;
