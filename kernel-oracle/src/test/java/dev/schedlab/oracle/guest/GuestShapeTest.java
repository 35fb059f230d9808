package dev.schedlab.oracle.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A guest shape parses from its text form, turns into QEMU's arguments and rejects the rest. */
final class GuestShapeTest {

  @Test
  void parse_twoSocketsWithSmt_countsCpusAndNodes() {
    GuestShape shape = GuestShape.parse("2s1d4c2t");
    assertThat(shape.cpus()).isEqualTo(16);
    assertThat(shape.nodes()).isEqualTo(2);
    assertThat(shape.nodeOf(7)).isZero();
    assertThat(shape.nodeOf(8)).isEqualTo(1);
    assertThat(shape.toString()).isEqualTo("2s1d4c2t");
  }

  @Test
  void qemuArguments_twoNodes_oneBackendAndNodePerNodeAndBothDistances() {
    GuestShape shape = GuestShape.parse("1s2d2c2t2n:d=10,21/21,10");
    assertThat(String.join(" ", shape.qemuArguments()))
        .contains("-smp 8,sockets=1,dies=2,cores=2,threads=2")
        .contains("memory-backend-ram,id=m1,size=")
        .contains("node,cpus=0-3,nodeid=0,memdev=m0")
        .contains("node,cpus=4-7,nodeid=1,memdev=m1")
        .contains("dist,src=0,dst=1,val=21")
        .contains("dist,src=1,dst=0,val=21");
  }

  @Test
  void toString_customDistances_roundTrips() {
    String text = "4s1d2c1t:d=10,20,30,20/20,10,20,30/30,20,10,20/20,30,20,10";
    assertThat(GuestShape.parse(text).toString()).isEqualTo(text);
    assertThat(GuestShape.parse(text)).isEqualTo(GuestShape.parse(text));
  }

  @Test
  void parse_nodesSplittingACore_isRejectedWithTheReason() {
    assertThatThrownBy(() -> GuestShape.parse("1s1d3c2t2n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not divide");
  }

  @Test
  void parse_asymmetricOrLocalDistance_isRejected() {
    assertThatThrownBy(() -> GuestShape.parse("2s1d1c1t:d=10,20/30,10"))
        .hasMessageContaining("symmetric");
    assertThatThrownBy(() -> GuestShape.parse("2s1d1c1t:d=10,10/10,10"))
        .hasMessageContaining("11-254");
  }

  @Test
  void parse_tooManyCpusOrBadText_isRejectedWithTheGrammar() {
    assertThatThrownBy(() -> GuestShape.parse("8s4d16c2t")).hasMessageContaining("at most 255");
    assertThatThrownBy(() -> GuestShape.parse("2n4l8c2t")).hasMessageContaining("<S>s<D>d");
  }
}
