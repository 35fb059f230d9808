package dev.schedlab.spark;

import dev.schedlab.cli.sweep.SweepRow;
import java.io.Serializable;

/**
 * What a cell's task sends back to the driver: the cell's row, or the one-line message of the bad
 * input it was given. Bad input comes back as data rather than as a failed task, since Spark would
 * retry a failed task and a bad input is bad on every attempt.
 *
 * @param cell the cell's number
 * @param row the row, or null
 * @param badInput the message, or null
 */
record CellResult(long cell, SweepRow row, String badInput) implements Serializable {}
