/** Read-only views of simulator state that policies may read, and the few actions they may request. */
package dev.schedlab.spi.view;
