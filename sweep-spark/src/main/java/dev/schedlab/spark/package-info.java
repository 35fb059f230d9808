/** {@code schedlab sweep} on Apache Spark: one task per sweep cell, embedded or spark-submit. */
package dev.schedlab.spark;
