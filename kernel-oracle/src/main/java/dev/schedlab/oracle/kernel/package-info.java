/** What the guest kernel reports, parsed: sched domains, schedstat, softirqs, traces. */
package dev.schedlab.oracle.kernel;
