#include "tools/ldb/value_size_histogram.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "strata/export.h"

namespace strata {
namespace ldb {

namespace {

STRATA_PRINTF_FORMAT(2, 3)
void Appendf(std::string* out, const char* format, ...) {
  char buf[200];
  std::va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buf, sizeof(buf), format, args);
  va_end(args);
  if (n > 0)
    out->append(buf, std::min(static_cast<size_t>(n), sizeof(buf) - 1));
}

}  // namespace

ValueSizeHistogram::ValueSizeHistogram() {
  limits_ = {1, 2};
  // The growth runs on the unrounded value; each limit is that value cut
  // to two significant digits (172 becomes 170; 100..109 keep three).
  const double kTop = 18446744073709551615.0;  // 2^64, as a double
  for (double grown = 1.5 * 2; grown < kTop; grown *= 1.5) {
    uint64_t limit = static_cast<uint64_t>(grown);
    uint64_t scale = 1;
    while (limit / 10 > 10) {
      limit /= 10;
      scale *= 10;
    }
    limits_.push_back(limit * scale);
  }
  counts_.assign(limits_.size(), 0);
}

void ValueSizeHistogram::Add(uint64_t value) {
  const size_t bucket = static_cast<size_t>(
      std::lower_bound(limits_.begin(), limits_.end(), value) -
      limits_.begin());
  counts_[std::min(bucket, counts_.size() - 1)]++;
  min_ = num_ == 0 ? value : std::min(min_, value);
  max_ = std::max(max_, value);
  num_++;
  const double v = static_cast<double>(value);
  sum_ += v;
  sum_squares_ += v * v;
}

double ValueSizeHistogram::Average() const {
  return num_ == 0 ? 0 : sum_ / static_cast<double>(num_);
}

double ValueSizeHistogram::StandardDeviation() const {
  if (num_ == 0) return 0;
  const double n = static_cast<double>(num_);
  const double variance = (sum_squares_ * n - sum_ * sum_) / (n * n);
  return std::sqrt(std::max(variance, 0.0));
}

double ValueSizeHistogram::Percentile(double p) const {
  if (num_ == 0) return 0;
  const double threshold = static_cast<double>(num_) * (p / 100.0);
  uint64_t below = 0;  // values in the buckets before b
  for (size_t b = 0; b < counts_.size(); b++) {
    const uint64_t through = below + counts_[b];
    if (static_cast<double>(through) >= threshold) {
      const double left = b == 0 ? 0 : static_cast<double>(limits_[b - 1]);
      const double right = static_cast<double>(limits_[b]);
      const double pos = counts_[b] == 0
                             ? 0
                             : (threshold - static_cast<double>(below)) /
                                   static_cast<double>(counts_[b]);
      const double r = left + (right - left) * pos;
      return std::min(std::max(r, static_cast<double>(min_)),
                      static_cast<double>(max_));
    }
    below = through;
  }
  return static_cast<double>(max_);
}

std::string ValueSizeHistogram::ToString() const {
  std::string r;
  Appendf(&r, "Count: %" PRIu64 " Average: %.4f  StdDev: %.2f\n", num_,
          Average(), StandardDeviation());
  Appendf(&r, "Min: %" PRIu64 "  Median: %.4f  Max: %" PRIu64 "\n", min_,
          Percentile(50), max_);
  Appendf(&r, "Percentiles:");
  const double kShown[] = {50, 75, 99, 99.9, 99.99};
  for (double p : kShown) Appendf(&r, " P%g: %.2f", p, Percentile(p));
  r.append("\n------------------------------------------------------\n");
  if (num_ == 0) return r;
  const double share = 100.0 / static_cast<double>(num_);
  uint64_t running = 0;
  for (size_t b = 0; b < counts_.size(); b++) {
    if (counts_[b] == 0) continue;
    running += counts_[b];
    const double bucket_share = share * static_cast<double>(counts_[b]);
    Appendf(&r, "%c %7" PRIu64 ", %7" PRIu64 " ] %8" PRIu64 " %7.3f%% %7.3f%% ",
            b == 0 ? '[' : '(', b == 0 ? 0 : limits_[b - 1], limits_[b],
            counts_[b], bucket_share, share * static_cast<double>(running));
    r.append(static_cast<size_t>(bucket_share / 5 + 0.5), '#');
    r.push_back('\n');
  }
  return r;
}

}  // namespace ldb
}  // namespace strata
