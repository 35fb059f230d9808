/**
 * The {@code schedlab} command line: picocli commands, the variant and scenario syntax, and the
 * reports (aligned tables, JSON, CSV, {@code /proc/schedstat} files, Chrome traces, HTML).
 */
package dev.schedlab.cli;
