package dev.schedlab.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** spark-submit's main class runs {@code sweep} with the Spark engine unless told otherwise. */
final class SparkSweepTest {

  @Test
  void sweep_getsTheSparkEngine_aLaterEngineOptionWins() {
    assertThat(SparkSweep.arguments(new String[] {"sweep", "--machine", "hw.vera"}))
        .containsExactly("sweep", "--engine", "spark", "--machine", "hw.vera");
    assertThat(SparkSweep.arguments(new String[] {"sweep", "--engine", "local"}))
        .containsExactly("sweep", "--engine", "spark", "--engine", "local");
  }

  @Test
  void otherCommands_unchanged() {
    assertThat(SparkSweep.arguments(new String[] {"machines"})).containsExactly("machines");
    assertThat(SparkSweep.arguments(new String[0])).isEmpty();
  }
}
