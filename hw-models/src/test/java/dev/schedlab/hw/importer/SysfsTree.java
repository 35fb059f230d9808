package dev.schedlab.hw.importer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a small synthetic sysfs tree for importer tests. */
final class SysfsTree {

  final Path root;

  SysfsTree(Path root) {
    this.root = root;
  }

  /** A CPU directory with its core and package sibling lists. */
  SysfsTree cpu(int cpu, String threadSiblings, String packageCpus) {
    String t = "devices/system/cpu/cpu" + cpu + "/topology/";
    write(t + "thread_siblings_list", threadSiblings);
    write(t + "core_siblings_list", packageCpus);
    write(t + "physical_package_id", "0");
    return this;
  }

  SysfsTree cache(int cpu, int index, int level, String type, String shared, String size) {
    String c = "devices/system/cpu/cpu" + cpu + "/cache/index" + index + "/";
    write(c + "level", Integer.toString(level));
    write(c + "type", type);
    write(c + "shared_cpu_list", shared);
    write(c + "size", size);
    return this;
  }

  SysfsTree node(int node, String cpulist, String distance) {
    String n = "devices/system/node/node" + node + "/";
    write(n + "cpulist", cpulist);
    write(n + "distance", distance);
    return this;
  }

  SysfsTree write(String relative, String content) {
    try {
      Path file = root.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.writeString(file, content + "\n");
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
