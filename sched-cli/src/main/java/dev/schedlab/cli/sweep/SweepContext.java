package dev.schedlab.cli.sweep;

import java.io.PrintStream;

/**
 * Where a sweep engine reports and how far it may spread.
 *
 * @param err progress and notes
 * @param interactive whether to show progress on {@code err}: it is a terminal someone watches, or
 *     --progress asked for it
 * @param quiet whether progress was turned off ({@code --quiet})
 * @param threads {@code --threads}, or null for the engine's default
 * @param rowsPreamble the {@code #} lines a new CSV rows file starts with (the version, commit and
 *     scenario lines of the sweep's CSV report), or empty
 */
public record SweepContext(
    PrintStream err, boolean interactive, boolean quiet, Integer threads, String rowsPreamble) {}
