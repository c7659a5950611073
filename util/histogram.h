// Histogram: a distribution of non-negative values (latencies in
// microseconds, sizes) in exponentially growing buckets, with count, min,
// max, average, standard deviation and interpolated percentiles.
//
// Bucket limits grow by about 1.5x and are rounded to two significant
// digits (1, 2, 3, 4, 6, 9, 13, 19, 28, 42, 63, 94, 140, ...), so a
// percentile is exact to within its bucket, interpolated linearly inside it.
//
// Thread safety: an instance is used by one thread at a time; give each
// thread its own and Merge() them.

#ifndef STRATA_UTIL_HISTOGRAM_H_
#define STRATA_UTIL_HISTOGRAM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

class Histogram {
 public:
  Histogram();

  void Clear();
  void Add(uint64_t value);
  void Merge(const Histogram& other);

  uint64_t count() const { return num_; }
  uint64_t min() const { return num_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  double sum() const { return sum_; }

  double Average() const;
  double StandardDeviation() const;
  double Median() const { return Percentile(50.0); }
  // The value below which p percent of the values fall (p in [0, 100]).
  double Percentile(double p) const;

  // A report in the layout of RocksDB's db_bench: count, average, standard
  // deviation, min, median, max, the percentiles P50 P75 P99 P99.9 P99.99,
  // then one line per non-empty bucket with its share and a bar.
  std::string ToString() const;

  // Limits of the buckets: bucket i holds [limit(i-1), limit(i)).
  static size_t NumBuckets();
  static uint64_t BucketLimit(size_t i);

 private:
  size_t BucketIndex(uint64_t value) const;

  uint64_t min_;
  uint64_t max_;
  uint64_t num_;
  double sum_;
  double sum_squares_;
  std::vector<uint64_t> buckets_;
};

}  // namespace strata

#endif  // STRATA_UTIL_HISTOGRAM_H_
