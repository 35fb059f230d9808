package dev.schedlab.oracle.report;

import java.util.OptionalDouble;

/**
 * One line of the oracle's report: what is compared, the guest kernel's value and the simulator's,
 * as text for people and, for figures, as numbers with their ratio. A command prints rows through
 * its table or JSON writer.
 *
 * @param section the block, e.g. {@code domains}, {@code schedstat}, {@code softirqs}
 * @param item what the row compares, e.g. {@code MC busy lb_count/s}
 * @param kernel the guest kernel's value as shown
 * @param simulator the simulator's value as shown
 * @param kernelValue the kernel's figure, NaN when the row is not a figure
 * @param simulatorValue the simulator's figure, NaN when the row is not a figure
 * @param agrees whether the two agree (equal text, or for figures within the row's tolerance)
 */
public record OracleRow(
    String section,
    String item,
    String kernel,
    String simulator,
    double kernelValue,
    double simulatorValue,
    boolean agrees) {

  /** A row comparing text, agreeing when equal. */
  public static OracleRow text(String section, String item, String kernel, String simulator) {
    return new OracleRow(
        section, item, kernel, simulator, Double.NaN, Double.NaN, kernel.equals(simulator));
  }

  /** A row comparing figures, agreeing within a factor of {@code tolerance} either way. */
  public static OracleRow figure(
      String section, String item, double kernel, double simulator, double tolerance) {
    boolean agrees =
        (kernel == 0 && simulator == 0)
            || (kernel > 0
                && simulator > 0
                && simulator / kernel <= tolerance
                && kernel / simulator <= tolerance);
    return new OracleRow(
        section, item, format(kernel), format(simulator), kernel, simulator, agrees);
  }

  /** simulator / kernel, empty when either is not a figure or the kernel's is 0. */
  public OptionalDouble ratio() {
    if (Double.isNaN(kernelValue) || Double.isNaN(simulatorValue) || kernelValue == 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(simulatorValue / kernelValue);
  }

  /** A figure with up to three significant decimals, as the report shows it. */
  public static String format(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    double abs = Math.abs(value);
    if (abs >= 100 || value == Math.rint(value)) {
      return String.format(java.util.Locale.ROOT, "%.0f", value);
    }
    return String.format(java.util.Locale.ROOT, abs >= 10 ? "%.1f" : "%.2f", value);
  }
}
