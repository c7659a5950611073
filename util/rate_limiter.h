// GenericRateLimiter: the token bucket behind NewGenericRateLimiter
// (strata/rate_limiter.h).
//
// Waiting requests queue by priority. One of them, the refiller, sleeps
// until the next refill time; the others sleep on their own condition
// variables until the refiller grants them or hands the refiller's role
// on. No thread spins. A refill adds one burst unless the bucket holds a
// burst already, and refills are a period apart, so the bytes granted by
// time t never exceed rate * (t - start) + one burst.
//
// The clock is a seam: tests give a clock whose waits advance a fake time
// at once, so that nothing depends on the real one.
//
// Thread safety: all methods may be called from any thread.

#ifndef STRATA_UTIL_RATE_LIMITER_H_
#define STRATA_UTIL_RATE_LIMITER_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>

#include "strata/rate_limiter.h"

namespace strata {

class RateLimiterClock {
 public:
  virtual ~RateLimiterClock() = default;
  virtual uint64_t NowMicros() = 0;
  // Sleeps on cv (lock held, as for cv.wait) until notified or until
  // NowMicros() reaches deadline_us; may return early.
  virtual void WaitUntil(std::condition_variable* cv,
                         std::unique_lock<std::mutex>* lock,
                         uint64_t deadline_us) = 0;
};

// The process's steady clock.
RateLimiterClock* SteadyRateLimiterClock();

class GenericRateLimiter final : public RateLimiter {
 public:
  // Arguments as validated by NewGenericRateLimiter: rate and period
  // positive, fairness >= 1. The clock must outlive the limiter.
  GenericRateLimiter(int64_t rate_bytes_per_sec, int64_t refill_period_us,
                     int32_t fairness, Mode mode, RateLimiterClock* clock);
  ~GenericRateLimiter() override;

  void SetBytesPerSecond(int64_t bytes_per_second) override;
  using RateLimiter::Request;
  void Request(const int64_t bytes, const Env::IOPriority pri) override;
  int64_t GetSingleBurstBytes() const override;
  int64_t GetTotalBytesThrough(
      const Env::IOPriority pri = Env::IO_TOTAL) const override;
  int64_t GetTotalRequests(
      const Env::IOPriority pri = Env::IO_TOTAL) const override;
  int64_t GetBytesPerSecond() const override;

 private:
  struct Waiter {
    int64_t bytes;
    int pri;
    bool granted = false;
    bool refiller = false;
    std::condition_variable cv;
  };

  static int64_t BurstOf(int64_t rate, int64_t period_us);
  // Adds the refills due by now (lock held).
  void RefillIfDue(uint64_t now);
  // Grants queued requests, in this refill's priority order, while the
  // bucket holds them (lock held).
  void GrantQueued();
  // Makes the first queued waiter the refiller, if any (lock held).
  void PassRefillerOn();
  void Grant(int pri, int64_t bytes);

  const int64_t refill_period_us_;
  const int32_t fairness_;
  RateLimiterClock* const clock_;
  std::atomic<int64_t> rate_;

  mutable std::mutex mu_;
  int64_t available_ = 0;
  uint64_t next_refill_us_ = 0;
  uint64_t refills_ = 0;
  bool has_refiller_ = false;
  std::deque<Waiter*> queues_[Env::IO_TOTAL];
  int64_t bytes_through_[Env::IO_TOTAL] = {};
  int64_t requests_[Env::IO_TOTAL] = {};
};

}  // namespace strata

#endif  // STRATA_UTIL_RATE_LIMITER_H_
