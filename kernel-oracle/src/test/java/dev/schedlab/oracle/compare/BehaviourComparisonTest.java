package dev.schedlab.oracle.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.oracle.report.OracleRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Level keys are unique bottom-up, and figures agree within the tolerance either way. */
final class BehaviourComparisonTest {

  @Test
  void keys_secondNumaLevel_isNuma2() {
    assertThat(BehaviourComparison.keys(List.of("SMT", "MC", "NUMA", "NUMA")))
        .containsExactly("SMT", "MC", "NUMA", "NUMA2");
  }

  @Test
  void figure_withinAndBeyondTwice_agreesOrNot() {
    assertThat(OracleRow.figure("s", "i", 10, 19, 2).agrees()).isTrue();
    assertThat(OracleRow.figure("s", "i", 10, 4.9, 2).agrees()).isFalse();
    assertThat(OracleRow.figure("s", "i", 0, 0, 2).agrees()).isTrue();
    assertThat(OracleRow.figure("s", "i", 0, 1, 2).agrees()).isFalse();
    assertThat(OracleRow.figure("s", "i", 8, 4, 2).ratio().getAsDouble()).isEqualTo(0.5);
  }
}
