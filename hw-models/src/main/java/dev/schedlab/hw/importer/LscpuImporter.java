package dev.schedlab.hw.importer;

import dev.schedlab.spi.FileProblems;
import dev.schedlab.text.InputText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the output of {@code lscpu -p} (parsable: {@code #} comment lines, the last naming the
 * comma-separated columns, e.g. {@code # CPU,Core,Socket,Node,,L1d,L1i,L2,L3}) or {@code lscpu -e}
 * (a table whose first line names whitespace-separated columns, e.g. {@code CPU NODE SOCKET CORE
 * L1d:L1i:L2:L3 ONLINE MAXMHZ}), with or without a column selection ({@code
 * -p=CPU,CORE,SOCKET,NODE,CLUSTER,CACHE,ONLINE,MAXMHZ}).
 *
 * <p>Required columns: CPU, CORE, SOCKET. Optional: NODE (else node 0), CLUSTER (else the L2
 * sharing), caches (LLC = the highest level column; the L3 column gives the L3 count), ONLINE
 * ({@code Y}/{@code yes} or {@code N}/{@code no}; rows with {@code -} or empty ids are offline),
 * MAXMHZ (capacity = 1024 × MHz / fastest when CPUs differ). Other columns are ignored.
 *
 * <p>Limits: lscpu prints no NUMA distances (the topology then uses the kernel's default 10/20), no
 * cache sizes, and no dies.
 */
public final class LscpuImporter {

  /** A line of plain {@code lscpu}'s summary, {@code Architecture: x86_64}. */
  private static final java.util.regex.Pattern PLAIN_LSCPU =
      java.util.regex.Pattern.compile("(?m)^\\s*(Architecture|CPU\\(s\\)|Model name):");

  private LscpuImporter() {}

  /** Reads {@code lscpu -p} or {@code lscpu -e} output from {@code file}. */
  public static ImportedTopology read(Path file) {
    String source = file.getFileName() == null ? file.toString() : file.getFileName().toString();
    try {
      return parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8), source);
    } catch (IOException e) {
      throw new TopologyImportException(
          file.toString(), "cannot read: " + FileProblems.describe(e), e);
    }
  }

  /** Parses lscpu output; {@code source} names it in messages. */
  public static ImportedTopology parse(String text, String source) {
    return new Parser(source).parse(text);
  }

  private static final class Parser {
    private final String source;
    private List<String> columns;
    private boolean parsable;

    Parser(String source) {
      this.source = source;
    }

    ImportedTopology parse(String text) {
      if (PLAIN_LSCPU.matcher(text).find()) {
        // Plain lscpu is a summary: it has no row per CPU to say which core and node it is on.
        throw fail(
            "this is plain lscpu output (Architecture:, CPU(s): ...), a summary without"
                + " the CPU-to-core map; give the output of lscpu -p or lscpu -e");
      }
      String[] lines = text.split("\\R");
      List<String[]> rows = new ArrayList<>();
      List<Integer> lineNumbers = new ArrayList<>();
      String lastComment = null;
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i].strip();
        if (line.isEmpty()) {
          continue;
        }
        if (line.startsWith("#")) {
          lastComment = line.substring(1).strip();
          parsable = true;
          continue;
        }
        if (columns == null) {
          if (parsable || line.contains(",")) {
            parsable = true;
            if (lastComment == null || !lastComment.contains(",") && !lastComment.matches("\\w+")) {
              throw fail("no column header: lscpu -p output must have a '# CPU,Core,...' line");
            }
            columns = splitHeader(lastComment.split(",", -1));
          } else {
            columns = splitHeader(line.split("\\s+"));
            continue;
          }
        }
        String[] fields = parsable ? line.split(",", -1) : line.split("\\s+");
        if (fields.length != columns.size()) {
          throw fail(
              "line "
                  + (i + 1)
                  + " has "
                  + fields.length
                  + " fields but the header names "
                  + columns.size()
                  + " columns");
        }
        rows.add(fields);
        lineNumbers.add(i + 1);
      }
      if (columns == null) {
        throw fail("empty input: expected lscpu -p or lscpu -e output");
      }
      return assemble(rows, lineNumbers);
    }

    /** Upper-cases names and expands a compound cache column {@code L1d:L1i:L2:L3}. */
    private List<String> splitHeader(String[] names) {
      List<String> out = new ArrayList<>();
      for (String n : names) {
        out.add(n.strip().toUpperCase(Locale.ROOT));
      }
      return out;
    }

    private ImportedTopology assemble(List<String[]> rows, List<Integer> lineNumbers) {
      int cpuCol = require("CPU");
      int coreCol = require("CORE");
      int socketCol = require("SOCKET");
      int nodeCol = columns.indexOf("NODE");
      int clusterCol = columns.indexOf("CLUSTER");
      int onlineCol = columns.indexOf("ONLINE");
      int maxMhzCol = columns.indexOf("MAXMHZ");
      int compoundCache = -1;
      List<String> compoundLevels = List.of();
      Map<Integer, Integer> cacheCols = new TreeMap<>(); // level -> column (data/unified only)
      for (int c = 0; c < columns.size(); c++) {
        String name = columns.get(c);
        if (name.contains(":")) {
          compoundCache = c;
          compoundLevels = List.of(name.split(":"));
        } else if (name.matches("L[1-9][DU]?")) {
          cacheCols.put(name.charAt(1) - '0', c);
        }
      }

      List<Row> parsed = new ArrayList<>();
      int maxCpu = -1;
      for (int r = 0; r < rows.size(); r++) {
        String[] f = rows.get(r);
        int line = lineNumbers.get(r);
        int cpu = number(f[cpuCol], "CPU", line);
        if (cpu < 0) {
          throw fail("line " + line + ": CPU field is empty");
        }
        maxCpu = Math.max(maxCpu, cpu);
        boolean online = onlineCol < 0 || isYes(f[onlineCol], line);
        int core = number(f[coreCol], "CORE", line);
        int socket = number(f[socketCol], "SOCKET", line);
        if (core < 0 || socket < 0) {
          online = false;
        }
        Row row = new Row(cpu, online, socket, core);
        row.node = nodeCol < 0 ? 0 : number(f[nodeCol], "NODE", line);
        row.cluster = clusterCol < 0 ? -1 : number(f[clusterCol], "CLUSTER", line);
        for (Map.Entry<Integer, Integer> e : cacheCols.entrySet()) {
          row.caches.put(e.getKey(), number(f[e.getValue()], columns.get(e.getValue()), line));
        }
        if (compoundCache >= 0 && !f[compoundCache].equals("-") && !f[compoundCache].isEmpty()) {
          String[] ids = f[compoundCache].split(":", -1);
          if (ids.length != compoundLevels.size()) {
            throw fail(
                "line "
                    + line
                    + ": cache field \""
                    + f[compoundCache]
                    + "\" does not match"
                    + " header "
                    + String.join(":", compoundLevels));
          }
          for (int k = 0; k < ids.length; k++) {
            String level = compoundLevels.get(k).toUpperCase(Locale.ROOT);
            if (level.matches("L[1-9][DU]?")) {
              row.caches.put(level.charAt(1) - '0', number(ids[k], level, line));
            }
          }
        }
        if (maxMhzCol >= 0 && !f[maxMhzCol].isBlank() && !f[maxMhzCol].equals("-")) {
          try {
            row.maxMhz = Double.parseDouble(f[maxMhzCol].replace(',', '.'));
          } catch (NumberFormatException e) {
            throw fail(
                "line " + line + ": MAXMHZ " + InputText.quote(f[maxMhzCol]) + " is not a number");
          }
        }
        parsed.add(row);
      }
      if (parsed.isEmpty()) {
        throw fail("no CPU rows");
      }
      TopologyAssembler out = new TopologyAssembler(source, "lscpu", maxCpu + 1);
      TreeSet<Integer> nodes = new TreeSet<>();
      double fastest = 0;
      boolean allMhz = true;
      for (Row row : parsed) {
        if (row.online) {
          if (row.node >= 0) {
            nodes.add(row.node);
          }
          fastest = Math.max(fastest, row.maxMhz);
          allMhz &= row.maxMhz > 0;
        }
      }
      out.nodes(nodes.stream().mapToInt(Integer::intValue).toArray(), null);
      if (nodes.size() > 1) {
        out.note("lscpu gives no NUMA distances: the kernel default 10 local / 20 remote applies");
      }
      boolean frequencyCapacity =
          allMhz
              && parsed.stream().filter(r -> r.online).mapToDouble(r -> r.maxMhz).distinct().count()
                  > 1;
      if (frequencyCapacity) {
        out.note("capacity from MAXMHZ relative to the fastest CPU");
      }
      Map<List<Integer>, BitSet> cacheSets =
          new TreeMap<>(
              (a, b) -> {
                int c = Integer.compare(a.get(0), b.get(0));
                return c != 0 ? c : Integer.compare(a.get(1), b.get(1));
              });
      for (Row row : parsed) {
        if (!row.online) {
          out.offline(row.cpu, true);
          continue;
        }
        Object llc = null;
        Object l2 = null;
        for (Map.Entry<Integer, Integer> e : row.caches.entrySet()) {
          if (e.getValue() < 0) {
            continue;
          }
          List<Integer> key = List.of(e.getKey(), e.getValue());
          cacheSets.computeIfAbsent(key, k -> new BitSet()).set(row.cpu);
          llc = key;
          if (e.getKey() == 2) {
            l2 = key;
          }
        }
        Object cluster = row.cluster >= 0 ? List.of("cluster", row.cluster) : l2;
        int capacity =
            frequencyCapacity ? (int) Math.max(1, Math.round(1024 * row.maxMhz / fastest)) : 1024;
        out.online(
            row.cpu,
            row.socket,
            null,
            llc,
            cluster,
            List.of(row.socket, row.core),
            row.node,
            capacity,
            true);
      }
      cacheSets.forEach((key, cpus) -> out.cache(key.get(0), 0, cpus));
      out.info("Backend", parsable ? "lscpu -p" : "lscpu -e");
      return out.build();
    }

    private int require(String column) {
      int index = columns.indexOf(column);
      if (index < 0) {
        throw fail("no " + column + " column (columns: " + String.join(",", columns) + ")");
      }
      return index;
    }

    /** A non-negative id, or -1 for an empty or {@code -} field. */
    private int number(String field, String column, int line) {
      String f = field.strip();
      if (f.isEmpty() || f.equals("-")) {
        return -1;
      }
      try {
        int v = Integer.parseInt(f);
        if (v < 0) {
          throw new NumberFormatException();
        }
        return v;
      } catch (NumberFormatException e) {
        throw fail(
            "line "
                + line
                + ": "
                + column
                + " "
                + InputText.quote(f)
                + " is not a non-negative integer");
      }
    }

    private boolean isYes(String field, int line) {
      String f = field.strip().toLowerCase(Locale.ROOT);
      if (f.equals("y") || f.equals("yes")) {
        return true;
      }
      if (f.equals("n") || f.equals("no") || f.isEmpty() || f.equals("-")) {
        return false;
      }
      throw fail(
          "line " + line + ": ONLINE " + InputText.quote(field.strip()) + " is not Y/N/yes/no");
    }

    /** Every message says which formats are read, so a file of another tool is recognised. */
    private TopologyImportException fail(String problem) {
      return new TopologyImportException(
          source,
          problem.contains("lscpu -p")
              ? problem
              : problem + " (expected the output of lscpu -p or lscpu -e)");
    }
  }

  private static final class Row {
    final int cpu;
    final boolean online;
    final int socket;
    final int core;
    int node;
    int cluster;
    double maxMhz;
    final Map<Integer, Integer> caches = new TreeMap<>();

    Row(int cpu, boolean online, int socket, int core) {
      this.cpu = cpu;
      this.online = online;
      this.socket = socket;
      this.core = core;
    }
  }
}
