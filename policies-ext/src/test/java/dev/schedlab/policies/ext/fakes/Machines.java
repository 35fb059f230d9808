package dev.schedlab.policies.ext.fakes;

import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;

/** Small machines from shape strings, and lookup of one CPU's domain by level name. */
public final class Machines {

  private Machines() {}

  /** The machine of {@code shape} with siblings numbered next to each other. */
  public static Topology adjacent(String shape) {
    return Shape.parse(shape).toTopology(SiblingNumbering.ADJACENT);
  }

  /** The machine of {@code shape} with siblings numbered n, n + cores, ... */
  public static Topology split(String shape) {
    return Shape.parse(shape).toTopology(SiblingNumbering.SPLIT);
  }

  /** {@code cpu}'s domain called {@code name} ({@code SMT}, {@code MC}, ...). */
  public static SchedDomain domain(SchedDomains domains, int cpu, String name) {
    for (SchedDomain sd : domains.domains(cpu)) {
      if (sd.name().equals(name)) {
        return sd;
      }
    }
    throw new IllegalArgumentException(
        "CPU " + cpu + " has no " + name + " domain; it has " + domains.levelNames());
  }
}
