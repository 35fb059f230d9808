/**
 * The reports of a run: the comparison (aligned table, JSON, CSV) and its metrics, the HTML page,
 * the Perfetto and Chrome traces and the recording behind it and the heat map, {@code
 * /proc/schedstat} files through {@code ReportFiles} (complete or not at all), and the text, JSON
 * and CSV writers.
 */
package dev.schedlab.cli.report;
