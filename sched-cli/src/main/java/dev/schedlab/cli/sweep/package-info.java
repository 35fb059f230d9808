/**
 * A sweep as data: its grid of cells (grid point × variant × seed), a cell's run and row, the
 * engines that run cells (local threads, or another engine found through ServiceLoader), the rows
 * files a sweep writes and resumes from, and the summary the {@code sweep} command prints.
 */
package dev.schedlab.cli.sweep;
