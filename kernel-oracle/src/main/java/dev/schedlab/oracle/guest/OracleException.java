package dev.schedlab.oracle.guest;

/**
 * A run of the oracle that cannot go on for a reason the user can act on: bad input (a shape QEMU
 * cannot express, a missing kernel image), a missing package, or a guest that did not boot or
 * panicked. The message is one line naming the problem and, where it helps, what is allowed or
 * where the guest's last console lines were saved; a command prints it and exits with 2.
 */
public final class OracleException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** An error with its one-line message. */
  public OracleException(String message) {
    super(message);
  }

  /** An error with its one-line message and the exception that caused it. */
  public OracleException(String message, Throwable cause) {
    super(message, cause);
  }
}
