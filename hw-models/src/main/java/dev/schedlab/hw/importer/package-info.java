/**
 * Importers that read a real machine's CPU topology from hwloc XML, a Linux sysfs tree or {@code
 * lscpu} output into an {@link dev.schedlab.hw.importer.ImportedTopology}.
 */
package dev.schedlab.hw.importer;
