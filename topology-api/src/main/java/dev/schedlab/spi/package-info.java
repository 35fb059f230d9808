/**
 * The plugin SPI: one small provider interface per extension point, plugin descriptors with typed
 * parameters, and the registry that discovers providers with {@link java.util.ServiceLoader}.
 */
package dev.schedlab.spi;
