/**
 * The plugin conformance kit: canned machines and workloads, descriptor and engine checks for any
 * provider, and reusable ArchUnit rules, for plugin authors to run at test scope in their builds.
 */
package dev.schedlab.testkit;
