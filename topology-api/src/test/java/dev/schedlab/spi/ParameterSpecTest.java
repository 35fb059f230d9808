package dev.schedlab.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Typed parameters parse their values, enforce their ranges and name the range when refusing. */
final class ParameterSpecTest {

  private final ParameterSpec pct =
      ParameterSpec.ofInt("imbalance_pct", "push threshold in percent", 125, 105, 200);

  @Test
  void intParam_atBounds_accepted() {
    assertThat(pct.parse("105")).isEqualTo(105);
    assertThat(pct.parse(" 200 ")).isEqualTo(200);
  }

  @Test
  void intParam_outOfRange_messageNamesRange() {
    assertThatThrownBy(() -> pct.parse("300"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("imbalance_pct=300 is out of range: allowed 105..200");
    assertThatThrownBy(() -> pct.parse("104")).hasMessageContaining("allowed 105..200");
  }

  @Test
  void intParam_notANumber_messageNamesType() {
    assertThatThrownBy(() -> pct.parse("lots"))
        .hasMessage("imbalance_pct=lots is not a valid int: allowed 105..200");
  }

  @Test
  void intParam_beyondIntRange_rejectedNotWrapped() {
    assertThatThrownBy(() -> pct.parse("4294967421")).hasMessageContaining("out of range");
  }

  @Test
  void choice_unknownWord_listsChoices() {
    ParameterSpec pruning = ParameterSpec.ofChoice("pruning", "variant", "v4", "v2", "v3", "v4");
    assertThat(pruning.parse("v2")).isEqualTo("v2");
    assertThatThrownBy(() -> pruning.parse("v5")).hasMessageContaining("allowed v2|v3|v4");
  }

  @Test
  void duration_units_convertToNanoseconds() {
    ParameterSpec d = ParameterSpec.ofDuration("spin", "spin time", "50us", 0, 1_000_000_000L);
    assertThat(d.parse("50us")).isEqualTo(50_000L);
    assertThat(d.parse("2ms")).isEqualTo(2_000_000L);
    assertThat(d.parse("1s")).isEqualTo(1_000_000_000L);
    assertThatThrownBy(() -> d.parse("7"))
        .hasMessageContaining("spin=7 has no unit")
        .hasMessageContaining("ns, us, ms or s");
    assertThat(d.parse("0")).isEqualTo(0L);
    assertThatThrownBy(() -> d.parse("2s")).hasMessageContaining("allowed 0ns..1s");
    assertThatThrownBy(() -> d.parse("5 parsecs")).hasMessageContaining("not a valid duration");
  }

  @Test
  void booleanAndCpuList_validateSyntax() {
    ParameterSpec b = ParameterSpec.ofBoolean("equal_capacity", "firmware variant", false);
    assertThat(b.parse("on")).isEqualTo(true);
    assertThatThrownBy(() -> b.parse("maybe")).hasMessageContaining("allowed true|false");
    ParameterSpec list = ParameterSpec.ofCpuList("affinity", "cpus", "0-87,176-263");
    assertThat(list.parse("0-3,8")).isEqualTo("0-3,8");
    assertThatThrownBy(() -> list.parse("0-")).hasMessageContaining("not a valid cpulist");
  }

  @Test
  void construction_defaultOutsideRange_rejected() {
    assertThatThrownBy(() -> ParameterSpec.ofInt("threshold", "x", 1, 2, 10))
        .hasMessageContaining("threshold=1 is out of range: allowed 2..10");
  }

  @Test
  void construction_badName_rejected() {
    assertThatThrownBy(() -> ParameterSpec.ofInt("Bad-Name", "x", 1, 0, 10))
        .hasMessageContaining("must match");
  }
}
