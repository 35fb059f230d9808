/**
 * The NOHZ idle load balancer choice ({@code find_new_ilb()}): first idle CPU (Linux 7.1/7.2) and
 * prefer a fully idle SMT core (merged for 7.3), as {@link dev.schedlab.spi.IlbSelector} plugins.
 */
package dev.schedlab.policies.fair.ilb;
