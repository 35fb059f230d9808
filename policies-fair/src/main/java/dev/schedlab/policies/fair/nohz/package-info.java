/**
 * When an idle CPU joins {@code nohz.idle_cpus_mask}: the legacy transition-only rule and the
 * nohz_full fix, as {@link dev.schedlab.spi.NohzIdleTracking} plugins.
 */
package dev.schedlab.policies.fair.nohz;
