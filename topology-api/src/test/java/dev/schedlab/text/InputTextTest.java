package dev.schedlab.text;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

final class InputTextTest {

  @Test
  void quote_escapesQuotesBackslashesAndControlCharacters() {
    assertThat(InputText.quote("1n4c")).isEqualTo("\"1n4c\"");
    assertThat(InputText.quote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
    assertThat(InputText.quote(" \n\r\t")).isEqualTo("\" \\n\\r\\t\"");
    assertThat(InputText.quote("\u0000\u001f\u007f")).isEqualTo("\"\\u0000\\u001f\\u007f\"");
    assertThat(InputText.quote("µs")).isEqualTo("\"µs\"");
  }

  @Test
  void printable_isTheTextItselfUnlessItHoldsAControlCharacter() {
    String plain = "5 \"ms\" \\";
    assertThat(InputText.printable(plain)).isSameAs(plain);
    assertThat(InputText.printable("5\n0\\s")).isEqualTo("5\\n0\\\\s");
  }

  @Test
  void describe_quotesOneCharacter() {
    assertThat(InputText.describe('x')).isEqualTo("'x'");
    assertThat(InputText.describe('\\')).isEqualTo("'\\'");
    assertThat(InputText.describe('\n')).isEqualTo("\"\\n\"");
  }

  @Property(tries = 300)
  void anyText_quotesOnOneLineOfPrintableCharacters(@ForAll String text) {
    for (String shown : new String[] {InputText.quote(text), InputText.printable(text)}) {
      assertThat(shown.chars()).noneMatch(c -> c < ' ' || c == 0x7f);
    }
  }
}
