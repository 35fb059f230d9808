package dev.schedlab.testkit;

import java.util.Objects;

/**
 * One check of a plugin: fails by throwing {@link AssertionError}, is skipped by throwing {@link
 * org.opentest4j.TestAbortedException} (a machine the plugin's capabilities exclude).
 *
 * @param group what is checked ({@code descriptor}, {@code engine smt2})
 * @param name the check within its group
 * @param body the check
 */
public record ConformanceCheck(String group, String name, Body body) {

  /** The code of a check. */
  @FunctionalInterface
  public interface Body {
    /** Runs the check; throws {@link AssertionError} when the plugin does not conform. */
    void run() throws Exception;
  }

  public ConformanceCheck {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(body, "body");
  }

  /** {@code group: name}. */
  public String displayName() {
    return group + ": " + name;
  }
}
