package dev.schedlab.cli;

/**
 * Input the command line refuses: its message is the one line the user sees after {@code
 * schedlab: }, naming the problem and what is allowed. Exit code 2.
 */
final class BadInputException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  BadInputException(String message) {
    super(message);
  }

  BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
