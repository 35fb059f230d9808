package dev.schedlab.spi;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * Plain words for why a file could not be read or written, for the one-line messages users see: "no
 * such file or directory" rather than {@code java.nio.file.NoSuchFileException: x}. Every module
 * that reads a user's file (importers, workload descriptions) or writes a report says it the same
 * way, in the words of the C library's {@code strerror()} that users know from other tools.
 */
public final class FileProblems {

  private FileProblems() {}

  /** Why {@code e} happened, in lower-case words without the path or any class name. */
  public static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof FileSystemLoopException) {
      return "too many levels of symbolic links";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "already exists";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "directory not empty";
    }
    if (e instanceof CharacterCodingException) {
      return "not UTF-8 text";
    }
    String reason = e instanceof FileSystemException fs ? fs.getReason() : e.getMessage();
    if (reason == null || reason.isBlank()) {
      return "input/output error";
    }
    String line = reason.strip().replaceAll("\\s*\\R\\s*", "; ");
    return line.substring(0, 1).toLowerCase(Locale.ROOT) + line.substring(1);
  }
}
