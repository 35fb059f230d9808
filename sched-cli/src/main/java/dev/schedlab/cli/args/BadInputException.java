package dev.schedlab.cli.args;

/**
 * Input the command line refuses: its message is the one line the user sees after {@code schedlab:
 * }, naming the problem and what is allowed. Exit code 2.
 */
public final class BadInputException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  public BadInputException(String message) {
    super(message);
  }

  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
