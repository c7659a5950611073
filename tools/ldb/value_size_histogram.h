// The distribution of value sizes that `ldb dump --count_only` prints,
// laid out as RocksDB's ldb lays it out, so the two print the same bytes.
//
// Bucket limits are 1, 2, then each about 1.5 times the one before, cut
// to two significant digits (3, 4, 6, 9, 13, 19, 28, 42, 63, 94, 140...).
// Bucket b holds the values in (limit(b-1), limit(b)] (bucket 0: [0, 1]).
// A percentile is interpolated linearly inside its bucket and clamped to
// [min, max].
//
// (strata's util/histogram.h has the same limits but half-open buckets
// [limit(b-1), limit(b)), the layout of strata's db_bench reports.)
//
// Thread safety: one thread at a time.

#ifndef STRATA_TOOLS_LDB_VALUE_SIZE_HISTOGRAM_H_
#define STRATA_TOOLS_LDB_VALUE_SIZE_HISTOGRAM_H_

#include <cstdint>
#include <string>
#include <vector>

namespace strata {
namespace ldb {

class ValueSizeHistogram {
 public:
  ValueSizeHistogram();

  void Add(uint64_t value);

  double Average() const;
  double StandardDeviation() const;
  double Percentile(double p) const;

  // Count, average and standard deviation; min, median and max; five
  // percentiles; then a line per non-empty bucket with its share, the
  // running share and a bar of one '#' per 5%.
  std::string ToString() const;

 private:
  std::vector<uint64_t> limits_;
  std::vector<uint64_t> counts_;
  uint64_t num_ = 0;
  uint64_t min_ = 0;
  uint64_t max_ = 0;
  double sum_ = 0;
  double sum_squares_ = 0;
};

}  // namespace ldb
}  // namespace strata

#endif  // STRATA_TOOLS_LDB_VALUE_SIZE_HISTOGRAM_H_
