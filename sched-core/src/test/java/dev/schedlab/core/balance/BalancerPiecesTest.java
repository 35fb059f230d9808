package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tests' wiring of the balancer's pieces ({@link BalancerPieces}) is the production one: the
 * same run of periodic, newidle and active balancing through {@link LoadBalancer} and through the
 * pieces moves the same tasks at the same moments and leaves the same counters, {@code
 * next_balance} and {@code max_idle_balance_cost}. Machine {@code 1n2l2c2t}, 12 tasks started on
 * CPU 0, one of them pinned there.
 */
final class BalancerPiecesTest {

  /** What one side of the comparison drives. */
  private interface Balancer {
    void balanceDomains(int cpu, IdleType idle, BalanceCost cost);

    int newidleBalance(int cpu, BalanceCost cost);

    void activeLoadBalanceCpuStop(int busiestCpu, int targetCpu, BalanceCost cost);

    long nextBalance(int cpu);

    long maxIdleBalanceCostNs(int cpu);

    LbStats stats();
  }

  private static FakeHost machine() {
    FakeHost host = FakeHost.of("1n2l2c2t");
    host.addTask(0, host.mask(0));
    host.addTasks(0, 11);
    return host;
  }

  /** 400 ms at HZ 1000: due periodic passes, newidle on idle CPUs, requested stoppers. */
  private static List<Long> run(FakeHost host, Balancer balancer) {
    BalanceCost cost = new BalanceCost();
    List<Long> trace = new ArrayList<>();
    for (int step = 1; step <= 400; step++) {
      host.setNowMs(step);
      for (int cpu = 0; cpu < 8; cpu++) {
        if (host.idle(cpu)) {
          trace.add((long) balancer.newidleBalance(cpu, cost));
        }
        if (host.jiffies() >= balancer.nextBalance(cpu)) {
          balancer.balanceDomains(cpu, host.idle(cpu) ? IdleType.IDLE : IdleType.NOT_IDLE, cost);
        }
      }
      while (!host.activeBalanceRequests.isEmpty()) {
        int[] request = host.activeBalanceRequests.remove(0);
        host.stopperCpu = request[0];
        try {
          balancer.activeLoadBalanceCpuStop(request[0], request[1], cost);
        } finally {
          host.stopperCpu = -1;
          host.activeBalancePending[request[0]] = false;
        }
      }
    }
    for (int[] migration : host.migrations) {
      for (int value : migration) {
        trace.add((long) value);
      }
    }
    LbStats stats = balancer.stats();
    for (int cpu = 0; cpu < 8; cpu++) {
      trace.add(balancer.nextBalance(cpu));
      trace.add(balancer.maxIdleBalanceCostNs(cpu));
      for (int level = 0; level < 3; level++) {
        for (IdleType idle : IdleType.values()) {
          for (LbField field : LbField.values()) {
            trace.add(stats.lb(cpu, level, idle, field));
          }
        }
        for (AlbField field : AlbField.values()) {
          trace.add(stats.alb(cpu, level, field));
        }
      }
    }
    trace.add(cost.cpusScanned);
    trace.add(cost.tasksExamined);
    return trace;
  }

  private static Balancer facade(LoadBalancer lb) {
    return new Balancer() {
      @Override
      public void balanceDomains(int cpu, IdleType idle, BalanceCost cost) {
        lb.balanceDomains(cpu, idle, cost);
      }

      @Override
      public int newidleBalance(int cpu, BalanceCost cost) {
        return lb.newidleBalance(cpu, cost);
      }

      @Override
      public void activeLoadBalanceCpuStop(int busiestCpu, int targetCpu, BalanceCost cost) {
        lb.activeLoadBalanceCpuStop(busiestCpu, targetCpu, cost);
      }

      @Override
      public long nextBalance(int cpu) {
        return lb.nextBalance(cpu);
      }

      @Override
      public long maxIdleBalanceCostNs(int cpu) {
        return lb.maxIdleBalanceCostNs(cpu);
      }

      @Override
      public LbStats stats() {
        return lb.stats();
      }
    };
  }

  private static Balancer pieces(BalancerPieces p) {
    return new Balancer() {
      @Override
      public void balanceDomains(int cpu, IdleType idle, BalanceCost cost) {
        p.balanceDomains(cpu, idle, cost);
      }

      @Override
      public int newidleBalance(int cpu, BalanceCost cost) {
        return p.newidleBalance(cpu, cost);
      }

      @Override
      public void activeLoadBalanceCpuStop(int busiestCpu, int targetCpu, BalanceCost cost) {
        p.activeBalance.activeLoadBalanceCpuStop(busiestCpu, targetCpu, cost);
      }

      @Override
      public long nextBalance(int cpu) {
        return p.nextBalance(cpu);
      }

      @Override
      public long maxIdleBalanceCostNs(int cpu) {
        return p.maxIdleBalanceCostNs(cpu);
      }

      @Override
      public LbStats stats() {
        return p.stats();
      }
    };
  }

  @Test
  void pieces_sameRunAsLoadBalancer_sameMovesCountersAndState() {
    FakeHost viaFacade = machine();
    LoadBalancer lb = viaFacade.loadBalancer();
    lb.addNrRunning(0, 1, 2);
    List<Long> expected = run(viaFacade, facade(lb));

    FakeHost viaPieces = machine();
    BalancerPieces p = viaPieces.balancer();
    p.addNrRunning(1, 2);
    List<Long> actual = run(viaPieces, pieces(p));

    assertThat(viaFacade.migrations).as("the run moves tasks").hasSizeGreaterThan(5);
    assertThat(lb.stats().lbTotal(LbField.COUNT)).isPositive();
    assertThat(actual).containsExactlyElementsOf(expected);
  }
}
