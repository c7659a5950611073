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
// Auto-tuned (NewGenericRateLimiter's auto_tuned), the rate moves within
// [max / 20, max], starting at max / 2: every kRefillsPerTune periods of
// time it grows by kTuneStepPct when the bucket ran dry in more than
// kHighDrainPct of them, and shrinks by as much when in fewer than
// kLowDrainPct. docs/rate_limiter.md has the reasons.
//
// The clock is a seam: tests give a clock whose waits advance a fake time
// at once, so that nothing depends on the real one.
//
// Thread safety: all methods may be called from any thread.

#ifndef STRATA_UTIL_RATE_LIMITER_H_
#define STRATA_UTIL_RATE_LIMITER_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
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

// Waits until limiter grants `bytes` of op_type at pri, a burst per
// request; returns at once when limiter is null or does not limit
// op_type.
void RequestInBursts(RateLimiter* limiter, size_t bytes, Env::IOPriority pri,
                     RateLimiter::OpType op_type);

class GenericRateLimiter final : public RateLimiter {
 public:
  static constexpr int64_t kRefillsPerTune = 100;
  static constexpr int64_t kLowDrainPct = 50;
  static constexpr int64_t kHighDrainPct = 90;
  static constexpr int64_t kTuneStepPct = 5;

  // Arguments as validated by NewGenericRateLimiter: rate and period
  // positive, fairness >= 1. With auto_tuned the rate is the upper bound.
  // The clock must outlive the limiter.
  GenericRateLimiter(int64_t rate_bytes_per_sec, int64_t refill_period_us,
                     int32_t fairness, Mode mode, RateLimiterClock* clock,
                     bool auto_tuned = false);
  ~GenericRateLimiter() override;

  // Sets the current rate; auto-tuned, the bound stays.
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
  // Auto-tuned: moves the rate once kRefillsPerTune periods have passed
  // since the last move (lock held).
  void TuneIfDue(uint64_t now);
  // Grants queued requests, in this refill's priority order, while the
  // bucket holds them (lock held).
  void GrantQueued();
  // Makes the first queued waiter the refiller, if any (lock held).
  void PassRefillerOn();
  void Grant(int pri, int64_t bytes);

  const int64_t refill_period_us_;
  const int32_t fairness_;
  RateLimiterClock* const clock_;
  const bool auto_tuned_;
  std::atomic<int64_t> rate_;
  const int64_t max_rate_;  // auto-tuned: the upper bound

  mutable std::mutex mu_;
  int64_t available_ = 0;
  uint64_t next_refill_us_ = 0;
  uint64_t refills_ = 0;
  bool has_refiller_ = false;
  // Auto-tuning: whether a request waited since the last refill, how many
  // refill periods saw one since tuned_us_.
  bool drained_ = false;
  int64_t drained_periods_ = 0;
  uint64_t tuned_us_ = 0;
  std::deque<Waiter*> queues_[Env::IO_TOTAL];
  int64_t bytes_through_[Env::IO_TOTAL] = {};
  int64_t requests_[Env::IO_TOTAL] = {};
};

}  // namespace strata

#endif  // STRATA_UTIL_RATE_LIMITER_H_
