package dev.schedlab.spi;

/** Provider of a named machine ({@code hw.vera}); every assumed number is a parameter. */
public interface HardwareModelProvider extends PluginProvider {

  /** The machine built with {@code parameters} (resolved against {@link #descriptor()}). */
  HardwareModel create(Parameters parameters);
}
