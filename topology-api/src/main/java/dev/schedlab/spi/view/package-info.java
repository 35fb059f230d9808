/**
 * Read-only views of simulator state that policies may read, the few actions they may request, and
 * {@link dev.schedlab.spi.view.ArrayCpuState}, a state its owner sets, for running a policy outside
 * a simulation.
 */
package dev.schedlab.spi.view;
