/** JMH benchmarks of the hot paths: mask operations, ILB selection and the engine. */
package dev.schedlab.bench;
