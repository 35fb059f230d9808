package dev.schedlab.cli.report;

import dev.schedlab.cli.args.RunSpec;
import dev.schedlab.core.stats.SimulationResult;

/**
 * A finished run.
 *
 * @param spec what ran
 * @param result what it measured
 * @param recording its timeline, when one was asked for (null otherwise)
 */
public record RunOutcome(RunSpec spec, SimulationResult result, Recording recording) {}
