#include "util/histogram.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(HistogramTest, Empty) {
  Histogram h;
  EXPECT_EQ(0u, h.count());
  EXPECT_EQ(0u, h.min());
  EXPECT_EQ(0u, h.max());
  EXPECT_EQ(0.0, h.Average());
  EXPECT_EQ(0.0, h.Percentile(99));
  EXPECT_NE(std::string::npos, h.ToString().find("Count: 0"));
}

TEST(HistogramTest, BucketLimitsGrowAndCoverEverything) {
  ASSERT_GT(Histogram::NumBuckets(), 50u);
  EXPECT_EQ(1u, Histogram::BucketLimit(0));
  for (size_t i = 1; i < Histogram::NumBuckets(); i++) {
    EXPECT_GT(Histogram::BucketLimit(i), Histogram::BucketLimit(i - 1));
  }
  EXPECT_EQ(~uint64_t{0}, Histogram::BucketLimit(Histogram::NumBuckets() - 1));
}

TEST(HistogramTest, ConstantValue) {
  Histogram h;
  for (int i = 0; i < 100; i++) h.Add(42);
  EXPECT_EQ(100u, h.count());
  EXPECT_EQ(42u, h.min());
  EXPECT_EQ(42u, h.max());
  EXPECT_DOUBLE_EQ(42.0, h.Average());
  EXPECT_DOUBLE_EQ(0.0, h.StandardDeviation());
  EXPECT_DOUBLE_EQ(42.0, h.Median());
  EXPECT_DOUBLE_EQ(42.0, h.Percentile(99.9));
}

TEST(HistogramTest, UniformPercentilesWithinABucket) {
  Histogram h;
  for (uint64_t v = 1; v <= 10000; v++) h.Add(v);
  EXPECT_NEAR(5000.5, h.Average(), 1e-9);
  // Standard deviation of 1..N is sqrt((N^2 - 1) / 12).
  EXPECT_NEAR(std::sqrt((1e8 - 1) / 12), h.StandardDeviation(), 1e-6);
  // Linear interpolation inside a bucket is exact for uniform data, up to
  // rounding at the bucket edges.
  for (double p : {50.0, 75.0, 95.0, 99.0, 99.9}) {
    EXPECT_NEAR(p * 100, h.Percentile(p), 0.02 * p * 100) << p;
  }
  EXPECT_LE(h.Percentile(100), 10000.0);
  EXPECT_GE(h.Percentile(0), 1.0);
}

TEST(HistogramTest, PercentilesAreMonotonic) {
  Histogram h;
  for (uint64_t v = 0; v < 5000; v++) h.Add(v * v % 100003);
  double prev = -1;
  for (double p = 0; p <= 100; p += 0.5) {
    const double q = h.Percentile(p);
    EXPECT_GE(q, prev) << p;
    prev = q;
  }
}

TEST(HistogramTest, MergeEqualsAddingEverything) {
  Histogram a, b, all;
  for (uint64_t v = 0; v < 1000; v++) {
    a.Add(v);
    all.Add(v);
  }
  for (uint64_t v = 500; v < 3000; v += 3) {
    b.Add(v);
    all.Add(v);
  }
  a.Merge(b);
  EXPECT_EQ(all.count(), a.count());
  EXPECT_EQ(all.min(), a.min());
  EXPECT_EQ(all.max(), a.max());
  EXPECT_DOUBLE_EQ(all.Average(), a.Average());
  EXPECT_DOUBLE_EQ(all.Percentile(99), a.Percentile(99));
  EXPECT_EQ(all.ToString(), a.ToString());

  Histogram empty;
  a.Merge(empty);
  EXPECT_EQ(all.ToString(), a.ToString());
}

TEST(HistogramTest, ReportLayout) {
  Histogram h;
  h.Add(1);
  h.Add(10);
  h.Add(100);
  const std::string r = h.ToString();
  EXPECT_NE(std::string::npos, r.find("Count: 3 Average: 37.0000"));
  EXPECT_NE(std::string::npos, r.find("Min: 1  Median:"));
  EXPECT_NE(std::string::npos, r.find("Percentiles: P50:"));
  EXPECT_NE(std::string::npos, r.find("P99.99:"));
  // One line per non-empty bucket, each with a cumulative share.
  EXPECT_NE(std::string::npos, r.find("100.000%"));
  h.Clear();
  EXPECT_EQ(0u, h.count());
}

}  // namespace
}  // namespace strata
