package dev.schedlab.cli.command;

/** The {@code --format} choices of the commands that print for people or for tools. */
enum TextOrJson {
  text,
  json
}
