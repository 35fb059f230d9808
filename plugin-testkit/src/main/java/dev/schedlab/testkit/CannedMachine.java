package dev.schedlab.testkit;

import dev.schedlab.spi.HardwareModel;
import java.util.Objects;

/**
 * A small machine the kit runs plugins on.
 *
 * @param name short name used in check names ({@code smt2}, {@code numa})
 * @param description what it exercises, in one line
 * @param hardware the topology and performance model
 */
public record CannedMachine(String name, String description, HardwareModel hardware) {

  public CannedMachine {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(hardware, "hardware");
  }

  @Override
  public String toString() {
    return name + " (" + description + ")";
  }
}
