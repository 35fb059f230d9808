package dev.schedlab.workloads;

import com.google.auto.service.AutoService;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@value #ID}: tbench (dbench's network mode), the request/response benchmark of the
 * SMT_BUDDY_ASSIST thread's tbench series (seeds-digest §3, clients 1..1024). {@code clients}
 * client processes each talk to a server process of their own ({@code tbench_srv} forks one per
 * connection) over loopback TCP, strictly in turn: the client works {@code client_work}, sends a
 * request and blocks for the reply; the server, blocked on its socket, wakes, works {@code
 * server_work}, replies and blocks for the next request.
 *
 * <p>Both wakeups are synchronous ({@code WF_SYNC}), as loopback TCP makes them: the receiving
 * socket's {@code sk_data_ready} is {@code sock_def_readable()}, which wakes the reader with {@code
 * wake_up_interruptible_sync_poll()}. A wakeup is sent only to a peer that sleeps on its socket.
 *
 * <p>Assumptions: what tbench's load file does per operation (the dbench operations and their
 * message sizes) is folded into one request and one reply per round trip, each with a fixed CPU
 * cost, 10 µs by default (a loopback TCP send and receive through the stack plus the operation's
 * processing, as time alone on a full CPU); every server and client is forked from the first CPU of
 * {@code affinity}, server {@code i} just before client {@code i}, where the real benchmark forks
 * clients from the {@code tbench} parent and servers from {@code tbench_srv} as they connect.
 *
 * <p>Metric {@code throughput} in round trips/s (higher is better): round trips whose request was
 * sent at or after {@code warmup}, over the time from {@code warmup} to the end of the run (tbench
 * reports MB/s of its load file, proportional to it for a fixed operation mix). Extras: {@code
 * round_trips}, {@code round_trip_mean_us}.
 */
@AutoService(WorkloadProvider.class)
public final class TbenchWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.tbench";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "tbench-like client/server pairs exchanging requests and replies over loopback TCP;"
                  + " round trips/s")
          .source(
              "tbench (dbench) client processes with one tbench_srv process each; run on Hygon"
                  + " in the SMT_BUDDY_ASSIST thread (seeds-digest §3, clients 1..1024);"
                  + " per-message work is an assumption")
          .parameter(
              ParameterSpec.ofInt("clients", "client processes (tbench's nprocs)", 1, 1, 1_000_000))
          .parameter(
              ParameterSpec.ofDuration(
                  "client_work",
                  "CPU work of a client between a reply and its next request, as time alone on a"
                      + " full CPU; assumption",
                  "10us",
                  1,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofDuration(
                  "server_work",
                  "CPU work of a server between a request and its reply, as time alone on a full"
                      + " CPU; assumption",
                  "10us",
                  1,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofDuration(
                  "warmup",
                  "round trips whose request is sent before this time are not counted",
                  "0",
                  0,
                  1_000_000_000_000L))
          .parameter(WorkloadCpus.affinityParameter("clients and servers"))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public TbenchWorkloadProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    Parameters p = context.parameters();
    CpuMask affinity = WorkloadCpus.affinity(ID, context);
    return new Tbench(
        affinity,
        p.getInt("clients"),
        p.getLong("client_work"),
        p.getLong("server_work"),
        p.getLong("warmup"));
  }

  private static final class Tbench implements Workload {
    private final CpuMask affinity;
    private final double clientWork;
    private final double serverWork;
    private final long warmupNs;

    // Per pair i: the tasks, whether the server sleeps on its socket, whether a request waits for
    // it, and when the client sent it.
    private final int[] serverTask;
    private final int[] clientTask;
    private final boolean[] serverSleeping;
    private final boolean[] requestQueued;
    private final long[] sentNs;

    private long startNs;
    private long roundTrips;
    private double roundTripNsSum;

    Tbench(CpuMask affinity, int clients, long clientWork, long serverWork, long warmupNs) {
      this.affinity = affinity;
      this.clientWork = clientWork;
      this.serverWork = serverWork;
      this.warmupNs = warmupNs;
      this.serverTask = new int[clients];
      this.clientTask = new int[clients];
      this.serverSleeping = new boolean[clients];
      this.requestQueued = new boolean[clients];
      this.sentNs = new long[clients];
    }

    @Override
    public void start(WorkloadHost host) {
      startNs = host.nowNs();
      int parentCpu = affinity.first();
      for (int i = 0; i < serverTask.length; i++) {
        // The server's id is known before its client exists; the client records its own id in
        // its first step (the engine may run that step before spawn() returns).
        serverTask[i] =
            host.spawn(
                new TaskSpec(
                    "tbench/server/" + i, SchedPolicy.NORMAL, 0, affinity, WorkClass.COMPUTE),
                new Server(i),
                parentCpu);
        host.spawn(
            new TaskSpec("tbench/client/" + i, SchedPolicy.NORMAL, 0, affinity, WorkClass.COMPUTE),
            new Client(i),
            parentCpu);
      }
    }

    /** Works, sends a request, sleeps until the reply, and again. */
    private final class Client implements TaskProgram {
      private final int i;
      private boolean started;
      private boolean working;

      Client(int i) {
        this.i = i;
      }

      @Override
      public void next(TaskControl control) {
        if (!started) {
          started = true;
          clientTask[i] = control.taskId();
        } else if (working) {
          working = false;
          sentNs[i] = control.nowNs();
          requestQueued[i] = true;
          if (serverSleeping[i]) {
            serverSleeping[i] = false;
            control.wake(serverTask[i], true);
          }
          control.block();
          return;
        } else if (sentNs[i] >= warmupNs) {
          // Woken by the reply.
          roundTrips++;
          roundTripNsSum += control.nowNs() - sentNs[i];
        }
        working = true;
        control.run(clientWork);
      }
    }

    /** Sleeps until a request, works, replies, and again. */
    private final class Server implements TaskProgram {
      private final int i;
      private boolean working;

      Server(int i) {
        this.i = i;
      }

      @Override
      public void next(TaskControl control) {
        if (working) {
          working = false;
          // The client blocked when it sent the request: it sleeps on its socket.
          control.wake(clientTask[i], true);
        }
        if (!requestQueued[i]) {
          serverSleeping[i] = true;
          control.block();
          return;
        }
        requestQueued[i] = false;
        working = true;
        control.run(serverWork);
      }
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      long measuredNs = simulatedNs - Math.max(startNs, warmupNs);
      double perSecond = measuredNs <= 0 ? 0 : roundTrips * 1e9 / measuredNs;
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("round_trips", (double) roundTrips);
      extra.put("round_trip_mean_us", roundTrips == 0 ? 0 : roundTripNsSum / roundTrips / 1e3);
      return new WorkloadResult("throughput", perSecond, "round trips/s", true, extra);
    }
  }
}
