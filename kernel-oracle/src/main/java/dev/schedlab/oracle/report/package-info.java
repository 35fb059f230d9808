/**
 * The oracle's report as plain data: facts about the run and rows comparing the guest kernel's
 * figures with the simulator's, for the command line's table, JSON and CSV writers.
 */
package dev.schedlab.oracle.report;
