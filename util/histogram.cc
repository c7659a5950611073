#include "util/histogram.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>

#include "util/no_destructor.h"

namespace strata {

namespace {

// Rounds v down to its two most significant decimal digits.
uint64_t RoundToTwoDigits(uint64_t v) {
  uint64_t scale = 1;
  while (v / scale >= 100) scale *= 10;
  return v / scale * scale;
}

std::vector<uint64_t> MakeLimits() {
  std::vector<uint64_t> limits;
  uint64_t limit = 1;
  limits.push_back(limit);
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  while (true) {
    const double next_exact = static_cast<double>(limit) * 1.5;
    if (next_exact >= static_cast<double>(kMax / 10)) break;
    uint64_t next = RoundToTwoDigits(static_cast<uint64_t>(next_exact));
    if (next <= limit) next = limit + 1;
    limit = next;
    limits.push_back(limit);
  }
  limits.push_back(kMax);
  return limits;
}

const std::vector<uint64_t>& Limits() {
  static const NoDestructor<std::vector<uint64_t>> limits(MakeLimits());
  return *limits;
}

}  // namespace

size_t Histogram::NumBuckets() { return Limits().size(); }

uint64_t Histogram::BucketLimit(size_t i) { return Limits()[i]; }

Histogram::Histogram() : buckets_(NumBuckets(), 0) { Clear(); }

void Histogram::Clear() {
  min_ = std::numeric_limits<uint64_t>::max();
  max_ = 0;
  num_ = 0;
  sum_ = 0;
  sum_squares_ = 0;
  std::fill(buckets_.begin(), buckets_.end(), 0);
}

size_t Histogram::BucketIndex(uint64_t value) const {
  const std::vector<uint64_t>& limits = Limits();
  // The first limit strictly greater than value.
  const auto it = std::upper_bound(limits.begin(), limits.end(), value);
  return it == limits.end() ? limits.size() - 1
                            : static_cast<size_t>(it - limits.begin());
}

void Histogram::Add(uint64_t value) {
  buckets_[BucketIndex(value)]++;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  num_++;
  const double v = static_cast<double>(value);
  sum_ += v;
  sum_squares_ += v * v;
}

void Histogram::Merge(const Histogram& other) {
  if (other.num_ == 0) return;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  num_ += other.num_;
  sum_ += other.sum_;
  sum_squares_ += other.sum_squares_;
  for (size_t i = 0; i < buckets_.size(); i++) {
    buckets_[i] += other.buckets_[i];
  }
}

double Histogram::Average() const {
  return num_ == 0 ? 0.0 : sum_ / static_cast<double>(num_);
}

double Histogram::StandardDeviation() const {
  if (num_ == 0) return 0.0;
  const double n = static_cast<double>(num_);
  const double variance = (sum_squares_ * n - sum_ * sum_) / (n * n);
  return variance > 0 ? std::sqrt(variance) : 0.0;
}

double Histogram::Percentile(double p) const {
  if (num_ == 0) return 0.0;
  const double threshold = static_cast<double>(num_) * (p / 100.0);
  uint64_t cumulative = 0;
  for (size_t b = 0; b < buckets_.size(); b++) {
    if (buckets_[b] == 0) continue;
    const uint64_t before = cumulative;
    cumulative += buckets_[b];
    if (static_cast<double>(cumulative) >= threshold) {
      // Interpolate inside the bucket, clamped to the values seen.
      const double left =
          static_cast<double>(std::max(b == 0 ? 0 : BucketLimit(b - 1), min_));
      const double right = static_cast<double>(std::min(
          BucketLimit(b),
          max_ == std::numeric_limits<uint64_t>::max() ? max_ : max_ + 1));
      const double fraction = (threshold - static_cast<double>(before)) /
                              static_cast<double>(buckets_[b]);
      const double r = left + (right - left) * fraction;
      return std::min(r, static_cast<double>(max_));
    }
  }
  return static_cast<double>(max_);
}

std::string Histogram::ToString() const {
  std::string r;
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "Count: %" PRIu64 " Average: %.4f  StdDev: %.2f\n", num_,
                Average(), StandardDeviation());
  r.append(buf);
  std::snprintf(buf, sizeof(buf),
                "Min: %" PRIu64 "  Median: %.4f  Max: %" PRIu64 "\n", min(),
                Median(), max_);
  r.append(buf);
  std::snprintf(buf, sizeof(buf),
                "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f "
                "P99.99: %.2f\n",
                Percentile(50), Percentile(75), Percentile(99),
                Percentile(99.9), Percentile(99.99));
  r.append(buf);
  r.append("------------------------------------------------------\n");
  if (num_ == 0) return r;
  const double mult = 100.0 / static_cast<double>(num_);
  uint64_t cumulative = 0;
  for (size_t b = 0; b < buckets_.size(); b++) {
    if (buckets_[b] == 0) continue;
    cumulative += buckets_[b];
    std::snprintf(buf, sizeof(buf),
                  "[ %7" PRIu64 ", %7" PRIu64 " ) %8" PRIu64
                  " %7.3f%% %7.3f%% ",
                  b == 0 ? 0 : BucketLimit(b - 1), BucketLimit(b), buckets_[b],
                  mult * static_cast<double>(buckets_[b]),
                  mult * static_cast<double>(cumulative));
    r.append(buf);
    // One '#' per 5% of the values.
    const int marks = static_cast<int>(20.0 * static_cast<double>(buckets_[b]) /
                                           static_cast<double>(num_) +
                                       0.5);
    r.append(static_cast<size_t>(marks), '#');
    r.push_back('\n');
  }
  return r;
}

}  // namespace strata
