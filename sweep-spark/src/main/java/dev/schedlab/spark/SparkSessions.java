package dev.schedlab.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark session a sweep runs in. Under spark-submit (which sets {@code spark.master}) it is the
 * cluster's, configured by the user; otherwise an embedded master in this JVM: {@code local[*,4]}
 * (every core, a failed task tried up to four times as on a cluster), or {@code local[N,4]} with
 * {@code --threads N}, bound to the loopback address, without the web UI, and logging errors only,
 * so that the sweep's own lines are what stderr shows. A session that was running already (a
 * test's, a notebook's) is used as it is and left running.
 */
final class SparkSessions {

  /** The embedded master's log configuration, a class path resource. */
  static final String EMBEDDED_LOG_CONFIG = "dev/schedlab/spark/embedded-log4j2.properties";

  /** Attempts per task on the embedded master, as {@code spark.task.maxFailures} on a cluster. */
  static final int EMBEDDED_ATTEMPTS = 4;

  private final SparkSession session;
  private final boolean owned;

  private SparkSessions(SparkSession session, boolean owned) {
    this.session = session;
    this.owned = owned;
  }

  /**
   * The running session, or a new one.
   *
   * @param threads the embedded master's threads, null for every core
   */
  static SparkSessions start(Integer threads) {
    if (SparkSession.getActiveSession().isDefined()) {
      return new SparkSessions(SparkSession.getActiveSession().get(), false);
    }
    if (SparkSession.getDefaultSession().isDefined()) {
      return new SparkSessions(SparkSession.getDefaultSession().get(), false);
    }
    // SparkConf reads the spark.* system properties, where spark-submit puts its settings.
    SparkConf conf = new SparkConf();
    if (!conf.contains("spark.master")) {
      if (System.getProperty("log4j2.configurationFile") == null) {
        System.setProperty("log4j2.configurationFile", EMBEDDED_LOG_CONFIG);
      }
      conf.setMaster(
          "local[" + (threads == null ? "*" : threads.toString()) + "," + EMBEDDED_ATTEMPTS + "]");
      conf.setIfMissing("spark.ui.enabled", "false");
      conf.setIfMissing("spark.driver.host", "127.0.0.1");
      conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
    }
    conf.setIfMissing("spark.app.name", "schedlab sweep");
    // The sweep's listener reports progress; Spark's own bar would interleave with it.
    conf.set("spark.ui.showConsoleProgress", "false");
    return new SparkSessions(SparkSession.builder().config(conf).getOrCreate(), true);
  }

  SparkSession session() {
    return session;
  }

  /** Stops the session if this sweep started it. */
  void stopIfOwned() {
    if (owned) {
      session.stop();
    }
  }
}
