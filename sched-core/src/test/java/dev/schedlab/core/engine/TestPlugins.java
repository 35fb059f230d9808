package dev.schedlab.core.engine;

import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.spi.NohzIdleTracking;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicyProvider;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.TaskView;
import java.util.List;

/** Small plugins for engine tests. */
final class TestPlugins {

  private TestPlugins() {}

  /** The fixed registration rule: register on every idle entry. */
  static NohzIdleTrackingProvider registerAlways() {
    return new NohzIdleTrackingProvider() {
      @Override
      public PluginDescriptor descriptor() {
        return PluginDescriptor.builder("test.nohz-always", PluginKind.NOHZ_IDLE_TRACKING)
            .description("registers every idle entry")
            .build();
      }

      @Override
      public NohzIdleTracking create(PolicyContext context) {
        return (cpu, tickWasAlreadyStopped) -> true;
      }
    };
  }

  /** Records, in order, every CPU a CPU_IDLE periodic or NOHZ pass balanced for. */
  static BalancePassProvider recordIdlePasses(List<Integer> into) {
    return new BalancePassProvider() {
      @Override
      public PluginDescriptor descriptor() {
        return PluginDescriptor.builder("test.record-passes", PluginKind.BALANCE_PASS)
            .description("records idle passes")
            .build();
      }

      @Override
      public BalancePass create(PolicyContext context) {
        return new BalancePass() {
          @Override
          public void beforeDomainWalk(BalancePassState pass, BalanceActions actions) {
            if (pass.idleType() == IdleType.IDLE) {
              into.add(pass.cpu());
            }
          }
        };
      }
    };
  }

  /** Answers {@code vote} to every SCHED_IDLE-runqueue question. */
  static WakeupPolicyProvider schedIdleVote(WakeupPolicy.Vote vote) {
    return new WakeupPolicyProvider() {
      @Override
      public PluginDescriptor descriptor() {
        return PluginDescriptor.builder(
                "test.vote-" + vote.name().toLowerCase(), PluginKind.WAKEUP_POLICY)
            .description("votes " + vote)
            .build();
      }

      @Override
      public WakeupPolicy create(PolicyContext context) {
        return new WakeupPolicy() {
          @Override
          public WakeupPolicy.Vote schedIdleRqCountsAsIdle(TaskView wakee) {
            return vote;
          }
        };
      }
    };
  }
}
