package dev.schedlab.cpumask;

import java.lang.reflect.Proxy;

/**
 * A {@link CpuMask} from outside this package, built as a dynamic proxy that answers only {@code
 * nrCpuIds()}, {@code wordCount()} and {@code word(int)}: enough for a mask of this package to use
 * it as an operand.
 */
final class ForeignMask {

  private ForeignMask() {}

  /** A foreign mask of width {@code nrCpuIds} whose words are exactly {@code words}. */
  static CpuMask withBits(int nrCpuIds, long... words) {
    return (CpuMask)
        Proxy.newProxyInstance(
            CpuMask.class.getClassLoader(),
            new Class<?>[] {CpuMask.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "nrCpuIds" -> nrCpuIds;
                  case "wordCount" -> words.length;
                  case "word" -> words[(Integer) args[0]];
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
