package dev.schedlab.oracle.kernel;

import dev.schedlab.oracle.guest.TarArchive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The guest kernel's sched domains, read from what the guest sent: names, flags and tunables from
 * debugfs ({@code /sys/kernel/debug/sched/domains/cpuN/domainM/}), spans and groups from the boot
 * log that {@code sched_verbose} makes {@code sched_domain_debug_one()} print ("CPU0 attaching
 * sched-domain(s):" blocks). When the domains were rebuilt during boot the last block of each CPU
 * counts. Names are the guest kernel's own (Linux 6.1: {@code DIE}, {@code SD_SHARE_PKG_RESOURCES},
 * {@code SD_OVERLAP}); {@link dev.schedlab.oracle.compare} maps them.
 */
public final class KernelDomains {

  private static final String DEBUGFS = "sys/kernel/debug/sched/domains/";
  private static final List<String> TUNABLES =
      List.of("min_interval", "max_interval", "busy_factor", "imbalance_pct", "cache_nice_tries");
  private static final Pattern ATTACH = Pattern.compile("CPU(\\d+) attaching sched-domain");
  private static final Pattern ATTACH_NULL = Pattern.compile("CPU(\\d+) attaching NULL");
  private static final Pattern DOMAIN = Pattern.compile("domain-(\\d+): span=(\\S*) level=(\\S+)");
  private static final Pattern GROUPS = Pattern.compile("groups: (.*)$");
  private static final Pattern GROUP =
      Pattern.compile("\\d+:\\{ span=(\\S*)(?: mask=(\\S*))?[^}]*\\}");
  private static final Pattern DEBUGFS_FILE = Pattern.compile("cpu(\\d+)/domain(\\d+)/(\\w+)");

  private final Map<Integer, List<DomainView>> byCpu;
  private final List<String> errors;

  private KernelDomains(Map<Integer, List<DomainView>> byCpu, List<String> errors) {
    this.byCpu = byCpu;
    this.errors = errors;
  }

  /** Reads the domains from a guest's archive. */
  public static KernelDomains read(TarArchive archive) {
    Map<Integer, Map<Integer, Map<String, String>>> debugfs = new TreeMap<>();
    for (Map.Entry<String, byte[]> e : archive.files().entrySet()) {
      if (!e.getKey().startsWith(DEBUGFS)) {
        continue;
      }
      Matcher m = DEBUGFS_FILE.matcher(e.getKey().substring(DEBUGFS.length()));
      if (m.matches()) {
        debugfs
            .computeIfAbsent(Integer.parseInt(m.group(1)), c -> new TreeMap<>())
            .computeIfAbsent(Integer.parseInt(m.group(2)), d -> new TreeMap<>())
            .put(
                m.group(3),
                new String(e.getValue(), java.nio.charset.StandardCharsets.UTF_8).trim());
      }
    }
    String dmesg = archive.text("dmesg.txt");
    BootLog log = BootLog.parse(dmesg == null ? "" : dmesg);
    List<String> errors = new ArrayList<>(log.errors);
    if (dmesg == null) {
      errors.add("the guest sent no dmesg.txt: spans and groups unknown");
    }
    Map<Integer, List<DomainView>> out = new TreeMap<>();
    java.util.Set<Integer> cpus = new TreeSet<>(debugfs.keySet());
    cpus.addAll(log.domains.keySet());
    for (int cpu : cpus) {
      Map<Integer, Map<String, String>> files = debugfs.getOrDefault(cpu, Map.of());
      List<BootLogDomain> logged = log.domains.getOrDefault(cpu, List.of());
      int count = Math.max(files.size(), logged.size());
      List<DomainView> chain = new ArrayList<>();
      for (int index = 0; index < count; index++) {
        Map<String, String> f = files.getOrDefault(index, Map.of());
        BootLogDomain l = index < logged.size() ? logged.get(index) : null;
        String name = f.containsKey("name") ? f.get("name") : l != null ? l.name : "?";
        if (l != null && f.containsKey("name") && !l.name.equals(f.get("name"))) {
          errors.add(
              "cpu"
                  + cpu
                  + " domain"
                  + index
                  + ": debugfs names it "
                  + f.get("name")
                  + " but the boot log "
                  + l.name);
        }
        SortedSet<String> flags = new TreeSet<>();
        if (f.containsKey("flags")) {
          flags.addAll(Arrays.asList(f.get("flags").trim().split("\\s+")));
          flags.remove("");
        }
        Map<String, Integer> tunables = new TreeMap<>();
        for (String t : TUNABLES) {
          if (f.containsKey(t) && f.get(t).matches("-?\\d+")) {
            tunables.put(t, Integer.parseInt(f.get(t)));
          }
        }
        chain.add(
            new DomainView(
                cpu,
                index,
                name,
                l == null ? "?" : l.span,
                Collections.unmodifiableSortedSet(flags),
                l == null ? List.of() : List.copyOf(l.groups),
                Collections.unmodifiableMap(tunables)));
      }
      out.put(cpu, List.copyOf(chain));
    }
    for (int cpu : log.nullCpus) {
      out.putIfAbsent(cpu, List.of());
    }
    return new KernelDomains(Collections.unmodifiableMap(out), List.copyOf(errors));
  }

  /** Each CPU's chain, bottom-up; a CPU without domains (isolated) maps to an empty list. */
  public Map<Integer, List<DomainView>> byCpu() {
    return byCpu;
  }

  /** Problems in the guest's data (a domain named differently in debugfs and the log, ...). */
  public List<String> errors() {
    return errors;
  }

  private record BootLogDomain(String name, String span, List<DomainView.GroupView> groups) {}

  /** The "attaching sched-domain(s)" blocks of the boot log. */
  private static final class BootLog {
    final Map<Integer, List<BootLogDomain>> domains = new TreeMap<>();
    final java.util.Set<Integer> nullCpus = new TreeSet<>();
    final List<String> errors = new ArrayList<>();

    static BootLog parse(String dmesg) {
      BootLog log = new BootLog();
      List<BootLogDomain> current = null;
      List<DomainView.GroupView> lastGroups = null;
      String name = null;
      String span = null;
      for (String line : dmesg.split("\n")) {
        Matcher attach = ATTACH.matcher(line);
        if (attach.find()) {
          current = new ArrayList<>();
          lastGroups = null;
          int cpu = Integer.parseInt(attach.group(1));
          log.domains.put(cpu, current);
          log.nullCpus.remove(cpu);
          name = null;
          continue;
        }
        Matcher none = ATTACH_NULL.matcher(line);
        if (none.find()) {
          int cpu = Integer.parseInt(none.group(1));
          log.domains.remove(cpu);
          log.nullCpus.add(cpu);
          current = null;
          continue;
        }
        if (current == null) {
          continue;
        }
        Matcher domain = DOMAIN.matcher(line);
        if (domain.find()) {
          lastGroups = null;
          name = domain.group(3);
          span = CpuList.normalise(domain.group(2));
          continue;
        }
        if (line.contains("ERROR")) {
          log.errors.add(line.replaceFirst("^\\[[^]]*\\]\\s*", "").trim());
        }
        Matcher groups = GROUPS.matcher(line);
        if (groups.find() && name != null) {
          lastGroups = new ArrayList<>();
          addGroups(groups.group(1), lastGroups);
          current.add(new BootLogDomain(name, span, lastGroups));
          name = null;
        } else if (lastGroups != null && GROUP.matcher(line).find()) {
          // printk splits a group list longer than one log record; the rest follows.
          addGroups(line, lastGroups);
        }
      }
      return log;
    }

    private static void addGroups(String text, List<DomainView.GroupView> list) {
      Matcher g = GROUP.matcher(text);
      while (g.find()) {
        String groupSpan = CpuList.normalise(g.group(1));
        String mask = g.group(2) == null ? groupSpan : CpuList.normalise(g.group(2));
        list.add(new DomainView.GroupView(groupSpan, mask));
      }
    }
  }
}
