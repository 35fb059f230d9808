package dev.schedlab.workloads;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of an rt-app JSON description the simulator runs, in rt-app's own terms: tasks with
 * {@code instance}, {@code loop}, {@code policy}, {@code priority} (nice; {@code nice} is accepted
 * too), {@code cpus}, {@code delay} and either events or {@code phases}, each phase with a {@code
 * loop} and events. Events, in file order: {@code run} (µs of work at full speed), {@code runtime}
 * (µs of wall time busy), {@code sleep} (µs), {@code timer} ({@code ref}, {@code period} µs, {@code
 * mode} relative or absolute) and {@code barrier} (a name shared by the tasks that meet there). An
 * event key may carry a suffix ({@code run0}, {@code sleep_long}). Global keys: {@code duration}
 * (s, -1 for none) and {@code default_policy}; rt-app's logging and calibration keys are accepted
 * and ignored. Anything else is rejected with a message naming the key and the supported set.
 *
 * @param tasks the tasks, in file order
 * @param durationNs when every task stops; {@link Long#MAX_VALUE} for never
 */
record RtAppConfig(List<RtAppConfig.TaskDef> tasks, long durationNs) {

  /** Event types. */
  enum EventKind {
    RUN,
    RUNTIME,
    SLEEP,
    TIMER,
    BARRIER
  }

  /**
   * One event of a phase.
   *
   * @param kind its type
   * @param ns work units (RUN), busy wall time (RUNTIME), sleep (SLEEP) or period (TIMER); 0 for
   *     BARRIER
   * @param resource the timer's {@code ref} or the barrier's name; null otherwise
   * @param absolute for a timer: absolute mode (a late period does not move the next one)
   */
  record Event(EventKind kind, long ns, String resource, boolean absolute) {}

  /**
   * One phase: its events, repeated {@code loops} times.
   *
   * @param name the phase's key (the task's name when the task has no {@code phases})
   * @param loops repetitions, at least 1
   * @param events events in file order
   */
  record Phase(String name, long loops, List<Event> events) {
    Phase {
      events = List.copyOf(events);
    }
  }

  /**
   * One task.
   *
   * @param name its key under {@code tasks}
   * @param instances number of threads
   * @param policy fair-class policy
   * @param nice nice value (rt-app's {@code priority} for SCHED_OTHER)
   * @param cpus affinity; null means every CPU
   * @param loops passes over all phases; -1 for ever
   * @param delayNs sleep before the first pass
   * @param phases phases in file order
   */
  record TaskDef(
      String name,
      int instances,
      SchedPolicy policy,
      int nice,
      ImmutableCpuMask cpus,
      long loops,
      long delayNs,
      List<Phase> phases) {
    TaskDef {
      phases = List.copyOf(phases);
    }
  }

  static final List<String> TOP_KEYS = List.of("tasks", "global");
  static final List<String> TASK_KEYS =
      List.of("instance", "loop", "policy", "priority", "nice", "cpus", "delay", "phases");
  static final List<String> PHASE_KEYS = List.of("loop");
  static final List<String> EVENTS = List.of("run", "runtime", "sleep", "timer", "barrier");
  static final List<String> TIMER_KEYS = List.of("ref", "period", "mode");
  static final List<String> GLOBAL_KEYS = List.of("duration", "default_policy");
  static final List<String> IGNORED_GLOBAL_KEYS =
      List.of(
          "calibration",
          "logdir",
          "log_basename",
          "log_size",
          "lock_pages",
          "ftrace",
          "gnuplot",
          "pi_enabled",
          "io_device",
          "mem_buffer_size",
          "cumulative_slack");
  static final List<String> POLICIES = List.of("SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE");

  private static final long MAX_US = Long.MAX_VALUE / 1_000 / 4;

  public RtAppConfig {
    tasks = List.copyOf(tasks);
  }

  /** Number of threads over all tasks. */
  int threadCount() {
    int threads = 0;
    for (TaskDef task : tasks) {
      threads += task.instances();
    }
    return threads;
  }

  /**
   * Parses and validates {@code json} for {@code topology}.
   *
   * @throws IllegalArgumentException naming the offending key or value and what is supported
   */
  static RtAppConfig parse(String json, Topology topology) {
    try {
      return parseDocument(json, topology);
    } catch (IllegalArgumentException e) {
      // Keys and strings are quoted from the file: a JSON escape such as \r in a key must not
      // break the one-line message.
      String line = e.getMessage() == null ? null : oneLine(e.getMessage());
      if (line == null || line.equals(e.getMessage())) {
        throw e;
      }
      throw new IllegalArgumentException(line, e);
    }
  }

  /** {@code text} with control characters shown as {@code \\n}, {@code \\u0001}. */
  private static String oneLine(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static RtAppConfig parseDocument(String json, Topology topology) {
    Object document = JsonReader.parse(json);
    Map<String, Object> top = object(document, "the document");
    checkKeys(top, "the document", TOP_KEYS, List.of());
    long durationNs = Long.MAX_VALUE;
    SchedPolicy defaultPolicy = SchedPolicy.NORMAL;
    if (top.containsKey("global")) {
      Map<String, Object> global = object(top.get("global"), "\"global\"");
      checkKeys(global, "\"global\"", GLOBAL_KEYS, IGNORED_GLOBAL_KEYS);
      if (global.containsKey("duration")) {
        long seconds = integer(global.get("duration"), "global \"duration\"");
        if (seconds == 0 || seconds < -1 || seconds > MAX_US / 1_000_000) {
          throw new IllegalArgumentException(
              "global \"duration\" is "
                  + seconds
                  + ": allowed -1 (none) or a positive number of"
                  + " seconds");
        }
        durationNs = seconds < 0 ? Long.MAX_VALUE : seconds * 1_000_000_000L;
      }
      if (global.containsKey("default_policy")) {
        defaultPolicy = policy(global.get("default_policy"), "global \"default_policy\"");
      }
    }
    if (!top.containsKey("tasks")) {
      throw new IllegalArgumentException("the document has no \"tasks\" object");
    }
    Map<String, Object> taskObjects = object(top.get("tasks"), "\"tasks\"");
    if (taskObjects.isEmpty()) {
      throw new IllegalArgumentException("\"tasks\" is empty");
    }
    List<TaskDef> tasks = new ArrayList<>();
    for (Map.Entry<String, Object> entry : taskObjects.entrySet()) {
      tasks.add(task(entry.getKey(), entry.getValue(), defaultPolicy, topology));
    }
    return new RtAppConfig(tasks, durationNs);
  }

  private static TaskDef task(
      String name, Object value, SchedPolicy defaultPolicy, Topology topology) {
    String where = "task \"" + name + "\"";
    Map<String, Object> members = object(value, where);
    int instances = 1;
    long loops = -1;
    SchedPolicy policy = defaultPolicy;
    int nice = 0;
    ImmutableCpuMask cpus = null;
    long delayNs = 0;
    List<Phase> phases = new ArrayList<>();
    Map<String, Object> events = new LinkedHashMap<>();
    for (Map.Entry<String, Object> member : members.entrySet()) {
      String key = member.getKey();
      Object v = member.getValue();
      switch (key) {
        case "instance" -> instances = (int) range(v, where + " \"instance\"", 0, 100_000);
        case "loop" -> loops = loops(v, where + " \"loop\"", true);
        case "policy" -> policy = policy(v, where + " \"policy\"");
        case "priority", "nice" -> nice = (int) range(v, where + " \"" + key + "\"", -20, 19);
        case "cpus" -> cpus = cpus(v, where, topology);
        case "delay" -> delayNs = range(v, where + " \"delay\"", 0, MAX_US) * 1_000;
        case "phases" -> {
          Map<String, Object> phaseObjects = object(v, where + " \"phases\"");
          if (phaseObjects.isEmpty()) {
            throw new IllegalArgumentException(where + " has an empty \"phases\" object");
          }
          for (Map.Entry<String, Object> phase : phaseObjects.entrySet()) {
            phases.add(phase(where, phase.getKey(), phase.getValue()));
          }
        }
        default -> {
          if (eventKind(key) == null) {
            throw unsupported(where, key, TASK_KEYS);
          }
          events.put(key, v);
        }
      }
    }
    if (!phases.isEmpty() && !events.isEmpty()) {
      throw new IllegalArgumentException(
          where
              + " has both \"phases\" and events ("
              + String.join(", ", events.keySet())
              + "): put the events inside a phase");
    }
    if (phases.isEmpty()) {
      if (events.isEmpty()) {
        throw new IllegalArgumentException(
            where + " has no events: give one of " + String.join(", ", EVENTS) + " or \"phases\"");
      }
      phases.add(phaseEvents(where, name, 1, events));
    }
    return new TaskDef(name, instances, policy, nice, cpus, loops, delayNs, phases);
  }

  private static Phase phase(String taskWhere, String name, Object value) {
    String where = taskWhere + " phase \"" + name + "\"";
    Map<String, Object> members = object(value, where);
    long loops = 1;
    Map<String, Object> events = new LinkedHashMap<>();
    for (Map.Entry<String, Object> member : members.entrySet()) {
      String key = member.getKey();
      if (key.equals("loop")) {
        loops = loops(member.getValue(), where + " \"loop\"", false);
      } else if (eventKind(key) != null) {
        events.put(key, member.getValue());
      } else if (key.equals("cpus")) {
        throw new IllegalArgumentException(
            where
                + ": \"cpus\" inside a phase is not supported (a task's affinity is fixed when"
                + " it is created); set \"cpus\" on the task");
      } else {
        throw unsupported(where, key, PHASE_KEYS);
      }
    }
    if (events.isEmpty()) {
      throw new IllegalArgumentException(
          where + " has no events: give one of " + String.join(", ", EVENTS));
    }
    return phaseEvents(where, name, loops, events);
  }

  private static Phase phaseEvents(
      String where, String name, long loops, Map<String, Object> eventObjects) {
    List<Event> events = new ArrayList<>();
    boolean takesTime = false;
    for (Map.Entry<String, Object> entry : eventObjects.entrySet()) {
      String key = entry.getKey();
      String at = where + " \"" + key + "\"";
      Object v = entry.getValue();
      EventKind kind = eventKind(key);
      switch (kind) {
        case RUN, RUNTIME, SLEEP -> {
          long us = range(v, at, 0, MAX_US);
          if (us > 0) {
            events.add(new Event(kind, us * 1_000, null, false));
            takesTime = true;
          }
        }
        case TIMER -> {
          events.add(timer(v, at));
          takesTime = true;
        }
        default -> {
          if (!(v instanceof String barrier) || barrier.isEmpty()) {
            throw new IllegalArgumentException(at + " must be a barrier name (a string)");
          }
          events.add(new Event(EventKind.BARRIER, 0, barrier, false));
        }
      }
    }
    if (!takesTime) {
      throw new IllegalArgumentException(
          where + " takes no time: it needs a run, runtime, sleep or timer event above 0");
    }
    return new Phase(name, loops, events);
  }

  private static Event timer(Object value, String where) {
    Map<String, Object> members = object(value, where);
    String ref = null;
    long periodNs = 0;
    boolean absolute = false;
    for (Map.Entry<String, Object> member : members.entrySet()) {
      Object v = member.getValue();
      switch (member.getKey()) {
        case "ref" -> {
          if (!(v instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException(where + " \"ref\" must be a timer name (a string)");
          }
          ref = s;
        }
        case "period" -> periodNs = range(v, where + " \"period\"", 1, MAX_US) * 1_000;
        case "mode" -> {
          if ("absolute".equals(v)) {
            absolute = true;
          } else if (!"relative".equals(v)) {
            throw new IllegalArgumentException(
                where + " \"mode\" is " + describe(v) + ": allowed relative, absolute");
          }
        }
        default -> throw unsupported(where, member.getKey(), TIMER_KEYS);
      }
    }
    if (ref == null || periodNs == 0) {
      throw new IllegalArgumentException(where + " needs \"ref\" and \"period\"");
    }
    return new Event(EventKind.TIMER, periodNs, ref, absolute);
  }

  /** The event type of a key ({@code run}, {@code run0}, {@code sleep_long}), or null. */
  static EventKind eventKind(String key) {
    // "runtime" before "run": both are prefixes of "runtime1".
    String[] names = {"runtime", "run", "sleep", "timer", "barrier"};
    EventKind[] kinds = {
      EventKind.RUNTIME, EventKind.RUN, EventKind.SLEEP, EventKind.TIMER, EventKind.BARRIER
    };
    for (int i = 0; i < names.length; i++) {
      if (key.startsWith(names[i])) {
        String rest = key.substring(names[i].length());
        if (rest.isEmpty()
            || Character.isDigit(rest.charAt(0))
            || rest.charAt(0) == '_'
            || rest.charAt(0) == '-') {
          return kinds[i];
        }
      }
    }
    return null;
  }

  private static ImmutableCpuMask cpus(Object value, String where, Topology topology) {
    if (!(value instanceof List<?> list) || list.isEmpty()) {
      throw new IllegalArgumentException(
          where + " \"cpus\" must be a non-empty array of CPU numbers, e.g. [0, 2]");
    }
    MutableCpuMask mask = CpuMasks.mutable(topology.nrCpuIds());
    for (Object element : list) {
      long cpu = integer(element, where + " \"cpus\"");
      if (cpu < 0 || cpu >= topology.nrCpuIds() || !topology.isOnline((int) cpu)) {
        throw new IllegalArgumentException(
            where
                + " \"cpus\" names CPU "
                + cpu
                + ": online CPUs are "
                + topology.onlineMask().toCpuList());
      }
      mask.set((int) cpu);
    }
    return mask.toImmutable();
  }

  private static SchedPolicy policy(Object value, String where) {
    if ("SCHED_OTHER".equals(value)) {
      return SchedPolicy.NORMAL;
    }
    if ("SCHED_BATCH".equals(value)) {
      return SchedPolicy.BATCH;
    }
    if ("SCHED_IDLE".equals(value)) {
      return SchedPolicy.IDLE;
    }
    throw new IllegalArgumentException(
        where
            + " is "
            + describe(value)
            + ": only the fair class is simulated; allowed "
            + String.join(", ", POLICIES));
  }

  private static long loops(Object value, String where, boolean foreverAllowed) {
    long loops = integer(value, where);
    if (loops == -1 && foreverAllowed) {
      return -1;
    }
    if (loops < 1) {
      throw new IllegalArgumentException(
          where
              + " is "
              + loops
              + ": allowed "
              + (foreverAllowed ? "-1 (for ever) or " : "")
              + "a positive count");
    }
    return loops;
  }

  private static long range(Object value, String where, long min, long max) {
    long v = integer(value, where);
    if (v < min || v > max) {
      throw new IllegalArgumentException(where + " is " + v + ": allowed " + min + ".." + max);
    }
    return v;
  }

  private static long integer(Object value, String where) {
    if (value instanceof Long l) {
      return l;
    }
    throw new IllegalArgumentException(where + " is " + describe(value) + ": expected an integer");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object value, String where) {
    if (value instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new IllegalArgumentException(where + " must be a JSON object, not " + describe(value));
  }

  private static void checkKeys(
      Map<String, Object> members, String where, List<String> supported, List<String> ignored) {
    for (String key : members.keySet()) {
      if (!supported.contains(key) && !ignored.contains(key)) {
        List<String> all = new ArrayList<>(supported);
        all.addAll(ignored);
        throw unsupported(where, key, all);
      }
    }
  }

  private static IllegalArgumentException unsupported(
      String where, String key, List<String> supported) {
    String events =
        supported == TASK_KEYS || supported == PHASE_KEYS
            ? "; events: " + String.join(", ", EVENTS) + " (optionally suffixed, e.g. run0)"
            : "";
    return new IllegalArgumentException(
        where
            + ": unsupported key \""
            + key
            + "\"; supported: "
            + String.join(", ", supported)
            + events);
  }

  private static String describe(Object value) {
    return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
  }
}
