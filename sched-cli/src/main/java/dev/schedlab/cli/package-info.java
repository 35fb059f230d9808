/**
 * The {@code schedlab} command line's entry point: {@link dev.schedlab.cli.Main}, which wires the
 * picocli commands of {@code dev.schedlab.cli.command} and turns every failure into one line and an
 * exit code, and the top-level command that runs the default comparison.
 */
package dev.schedlab.cli;
