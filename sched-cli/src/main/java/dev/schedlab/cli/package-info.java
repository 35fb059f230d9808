/** The {@code schedlab} command line. */
package dev.schedlab.cli;
