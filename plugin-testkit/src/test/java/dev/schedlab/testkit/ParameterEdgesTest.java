package dev.schedlab.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.ParameterSpec;
import org.junit.jupiter.api.Test;

/** Edge values sit exactly on and just beyond each documented bound, written as a user would. */
final class ParameterEdgesTest {

  @Test
  void intRange_edgesAreBoundsAndOneBeyond() {
    ParameterSpec spec = ParameterSpec.ofInt("imbalance_pct", "percent", 117, 105, 200);
    assertThat(ParameterEdges.inside(spec)).containsExactly("105", "200");
    assertThat(ParameterEdges.outside(spec)).containsExactly("104", "201");
    assertThat(ParameterEdges.insideButNotDefault(spec)).containsExactly("105", "200");
  }

  @Test
  void doubleRange_edgesAreNextRepresentableValues() {
    ParameterSpec spec = ParameterSpec.ofDouble("factor", "speed", 0.6, 0.5, 1);
    assertThat(ParameterEdges.outside(spec))
        .containsExactly(Double.toString(Math.nextDown(0.5)), Double.toString(Math.nextUp(1.0)));
  }

  @Test
  void durationRange_edgesAreInNanoseconds() {
    ParameterSpec spec = ParameterSpec.ofDuration("interval", "time", "500us", 1_000, 1_000_000);
    assertThat(ParameterEdges.inside(spec)).containsExactly("1000ns", "1000000ns");
    assertThat(ParameterEdges.outside(spec)).containsExactly("999ns", "1000001ns");
  }

  @Test
  void choice_everyChoiceInsideAndAnOtherWordOutside() {
    ParameterSpec spec = ParameterSpec.ofChoice("pruning", "revision", "v4", "v2", "v3", "v4");
    assertThat(ParameterEdges.inside(spec)).containsExactly("v2", "v3", "v4");
    assertThat(ParameterEdges.insideButNotDefault(spec)).containsExactly("v2", "v3");
    assertThat(ParameterEdges.outside(spec)).containsExactly("not-a-choice");
  }

  @Test
  void unboundedLong_hasNoOutsideValue() {
    ParameterSpec spec = ParameterSpec.ofLong("seed", "any", 1, Long.MIN_VALUE, Long.MAX_VALUE);
    assertThat(ParameterEdges.outside(spec)).isEmpty();
  }
}
