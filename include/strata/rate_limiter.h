// RateLimiter: a budget of bytes per second shared by the I/O of one or
// more DBs (DBOptions::rate_limiter). The engine asks it before writing the
// tables of flushes (Env::IO_HIGH) and compactions (Env::IO_LOW) and, in
// kReadsOnly or kAllIo mode, before reading a compaction's inputs; the WAL
// and the MANIFEST never wait for it. docs/rate_limiter.md describes where
// it applies.
//
// The generic limiter (NewGenericRateLimiter) is a token bucket: every
// refill period it receives rate * period / 1e6 bytes, its single burst,
// and a request waits until the bucket holds its bytes. A request is for at
// most GetSingleBurstBytes() bytes; a caller with more splits them. Waiting
// requests are served by priority, IO_USER, IO_HIGH, IO_MID, then IO_LOW,
// except that one refill in `fairness` serves the lower priorities first,
// so that a stream of high-priority requests cannot starve the low ones.
//
// Thread safety: all methods may be called from any thread.

#ifndef STRATA_INCLUDE_RATE_LIMITER_H_
#define STRATA_INCLUDE_RATE_LIMITER_H_

#include <cstdint>

#include "strata/env.h"
#include "strata/export.h"
#include "strata/statistics.h"

namespace strata {

class STRATA_EXPORT RateLimiter {
 public:
  enum class OpType { kRead, kWrite };
  // Which operations the limiter limits; the others pass untouched.
  enum class Mode { kReadsOnly, kWritesOnly, kAllIo };

  explicit RateLimiter(Mode mode = Mode::kWritesOnly) : mode_(mode) {}
  virtual ~RateLimiter() = default;

  // The new rate is used from the next refill on. A rate <= 0 is ignored.
  virtual void SetBytesPerSecond(int64_t bytes_per_second) = 0;

  // Blocks until `bytes` (at most GetSingleBurstBytes()) may be
  // transferred at priority `pri`. An implementation overrides this one or
  // the three-argument form.
  virtual void Request(const int64_t bytes, const Env::IOPriority pri) {
    (void)bytes;
    (void)pri;
  }
  virtual void Request(const int64_t bytes, const Env::IOPriority pri,
                       Statistics* stats) {
    (void)stats;
    Request(bytes, pri);
  }
  // As above for an operation of type op_type: returns at once when the
  // mode does not limit that type.
  virtual void Request(const int64_t bytes, const Env::IOPriority pri,
                       Statistics* stats, OpType op_type) {
    if (IsRateLimited(op_type)) Request(bytes, pri, stats);
  }

  // The most bytes one Request may ask for.
  virtual int64_t GetSingleBurstBytes() const = 0;
  // Bytes granted and requests served at priority pri (IO_TOTAL: all).
  virtual int64_t GetTotalBytesThrough(
      const Env::IOPriority pri = Env::IO_TOTAL) const = 0;
  virtual int64_t GetTotalRequests(
      const Env::IOPriority pri = Env::IO_TOTAL) const = 0;
  virtual int64_t GetBytesPerSecond() const = 0;

  virtual bool IsRateLimited(OpType op_type) {
    switch (mode_) {
      case Mode::kReadsOnly:
        return op_type == OpType::kRead;
      case Mode::kWritesOnly:
        return op_type == OpType::kWrite;
      case Mode::kAllIo:
        return true;
    }
    return true;
  }

 protected:
  Mode GetMode() const { return mode_; }

 private:
  const Mode mode_;
};

// A token-bucket limiter of rate_bytes_per_sec, refilled every
// refill_period_us; nullptr (no limiter) when either is not positive. A
// fairness below 1 is taken as 1. With auto_tuned the rate is a bound: the
// limiter starts at half of it and follows the demand within [bound / 20,
// bound] (docs/rate_limiter.md); SetBytesPerSecond sets the current rate.
STRATA_EXPORT RateLimiter* NewGenericRateLimiter(
    int64_t rate_bytes_per_sec, int64_t refill_period_us = 100 * 1000,
    int32_t fairness = 10,
    RateLimiter::Mode mode = RateLimiter::Mode::kWritesOnly,
    bool auto_tuned = false);

}  // namespace strata

#endif  // STRATA_INCLUDE_RATE_LIMITER_H_
