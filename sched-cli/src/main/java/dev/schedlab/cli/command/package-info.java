/**
 * The {@code schedlab} subcommands ({@code compare}, {@code run}, {@code sweep}, the listings,
 * {@code topology}, {@code explain-ilb}), the environment of one invocation and the runner that
 * simulates many configurations in parallel.
 */
package dev.schedlab.cli.command;
