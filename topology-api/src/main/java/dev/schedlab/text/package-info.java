/**
 * Quoting a user's input in an error message so the message stays on one line whatever the input
 * holds ({@link dev.schedlab.text.InputText}).
 */
package dev.schedlab.text;
