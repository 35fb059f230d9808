/**
 * What the user typed, parsed and checked before anything runs: the scenario options and their
 * resolution, variants, plugin arguments ({@code id:key=value;...}, {@code -M}/{@code -W}), engine
 * settings ({@code -E}), the topology source of {@code topology} and {@code explain-ilb}, and the
 * one-line bad-input error.
 */
package dev.schedlab.cli.args;
