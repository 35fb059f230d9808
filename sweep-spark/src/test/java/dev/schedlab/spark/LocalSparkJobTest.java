package dev.schedlab.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Spark runs a job on an embedded {@code local[2]} master inside the build's JVM. */
final class LocalSparkJobTest {

  @Test
  void localMaster_sumsOnTwoThreads() {
    SparkSession spark = SparkSession.builder().master("local[2]").appName("probe")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    try {
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      int sum = sc.parallelize(List.of(1, 2, 3, 4, 5, 6), 2).map(x -> x * x).reduce(Integer::sum);
      assertThat(sum).isEqualTo(91);
    } finally {
      spark.stop();
    }
  }
}
