#include "util/rate_limiter.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "util/no_destructor.h"

namespace strata {

namespace {

class SteadyClock final : public RateLimiterClock {
 public:
  uint64_t NowMicros() override {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count());
  }
  void WaitUntil(std::condition_variable* cv,
                 std::unique_lock<std::mutex>* lock,
                 uint64_t deadline_us) override {
    const std::chrono::steady_clock::time_point deadline{
        std::chrono::microseconds(deadline_us)};
    cv->wait_until(*lock, deadline);
  }
};

// Serves a priority index given by a caller: out-of-range ones as IO_LOW.
int PriorityIndex(Env::IOPriority pri) {
  return pri >= Env::IO_LOW && pri < Env::IO_TOTAL ? static_cast<int>(pri)
                                                   : Env::IO_LOW;
}

// counts[pri]; for IO_TOTAL their sum; 0 for a priority out of range.
int64_t CountAt(const int64_t (&counts)[Env::IO_TOTAL], Env::IOPriority pri) {
  if (pri == Env::IO_TOTAL) {
    int64_t sum = 0;
    for (int64_t c : counts) sum += c;
    return sum;
  }
  return pri >= Env::IO_LOW && pri < Env::IO_TOTAL ? counts[pri] : 0;
}

}  // namespace

RateLimiterClock* SteadyRateLimiterClock() {
  static NoDestructor<SteadyClock> clock;
  return clock.get();
}

void RequestInBursts(RateLimiter* limiter, size_t bytes, Env::IOPriority pri,
                     RateLimiter::OpType op_type) {
  if (limiter == nullptr || !limiter->IsRateLimited(op_type)) return;
  // A request may be for one burst at most.
  for (size_t left = bytes; left > 0;) {
    const size_t burst = static_cast<size_t>(
        std::max<int64_t>(limiter->GetSingleBurstBytes(), 1));
    const size_t n = std::min(left, burst);
    limiter->Request(static_cast<int64_t>(n), pri, nullptr, op_type);
    left -= n;
  }
}

GenericRateLimiter::GenericRateLimiter(int64_t rate_bytes_per_sec,
                                       int64_t refill_period_us,
                                       int32_t fairness, Mode mode,
                                       RateLimiterClock* clock, bool auto_tuned)
    : RateLimiter(mode),
      refill_period_us_(refill_period_us),
      fairness_(fairness),
      clock_(clock),
      auto_tuned_(auto_tuned),
      rate_(auto_tuned ? std::max<int64_t>(rate_bytes_per_sec / 2, 1)
                       : rate_bytes_per_sec),
      max_rate_(rate_bytes_per_sec) {
  // The first request finds a refill due: the bucket starts with a burst.
  next_refill_us_ = clock_->NowMicros();
  tuned_us_ = next_refill_us_;
}

GenericRateLimiter::~GenericRateLimiter() = default;

int64_t GenericRateLimiter::BurstOf(int64_t rate, int64_t period_us) {
  const int64_t burst = rate <= std::numeric_limits<int64_t>::max() / period_us
                            ? rate * period_us / 1000000
                            : rate / 1000000 * period_us;
  return std::max<int64_t>(burst, 1);
}

namespace {

// The auto-tuned range of an upper bound: [max / 20, max].
int64_t TunedFloor(int64_t max) { return std::max<int64_t>(max / 20, 1); }

}  // namespace

void GenericRateLimiter::SetBytesPerSecond(int64_t bytes_per_second) {
  // Auto-tuned too, as RocksDB: this sets the current rate, and the next
  // tuning moves it back inside [max / 20, max] if it is outside.
  if (bytes_per_second > 0) rate_.store(bytes_per_second);
}

void GenericRateLimiter::TuneIfDue(uint64_t now) {
  const int64_t periods =
      static_cast<int64_t>(now - tuned_us_) / refill_period_us_;
  if (periods < kRefillsPerTune) return;
  const int64_t drained_pct = drained_periods_ * 100 / periods;
  const int64_t rate = rate_.load();
  const int64_t max = max_rate_;
  int64_t tuned = rate;
  if (drained_pct > kHighDrainPct) {
    // Up by the step (at least a byte, so that a tiny rate still moves),
    // written so that nothing overflows near the int64_t range.
    const int64_t up = std::max<int64_t>(rate / (100 / kTuneStepPct), 1);
    tuned = rate > max - up ? max : rate + up;
  } else if (drained_pct < kLowDrainPct) {
    tuned = rate - rate / (100 / kTuneStepPct + 1);  // rate * 100 / 105
  }
  rate_.store(std::min(std::max(tuned, TunedFloor(max)), max));
  drained_periods_ = 0;
  tuned_us_ = now;
}

int64_t GenericRateLimiter::GetSingleBurstBytes() const {
  return BurstOf(rate_.load(), refill_period_us_);
}

int64_t GenericRateLimiter::GetBytesPerSecond() const { return rate_.load(); }

int64_t GenericRateLimiter::GetTotalBytesThrough(
    const Env::IOPriority pri) const {
  std::lock_guard<std::mutex> lock(mu_);
  return CountAt(bytes_through_, pri);
}

int64_t GenericRateLimiter::GetTotalRequests(const Env::IOPriority pri) const {
  std::lock_guard<std::mutex> lock(mu_);
  return CountAt(requests_, pri);
}

void GenericRateLimiter::RefillIfDue(uint64_t now) {
  if (now < next_refill_us_) return;
  if (drained_) ++drained_periods_;
  drained_ = false;
  if (auto_tuned_) TuneIfDue(now);
  // A rate changed by SetBytesPerSecond counts from here on. Bytes left
  // over from a period carry into the next, but an idle bucket stops
  // filling at one burst.
  const int64_t burst = BurstOf(rate_.load(), refill_period_us_);
  if (available_ < burst) available_ += burst;
  next_refill_us_ = now + static_cast<uint64_t>(refill_period_us_);
  ++refills_;
}

void GenericRateLimiter::Grant(int pri, int64_t bytes) {
  available_ -= bytes;
  bytes_through_[pri] += bytes;
}

void GenericRateLimiter::GrantQueued() {
  // IO_USER always first; then high to low, except on one refill in
  // fairness_, which serves low to high.
  static constexpr int kHighFirst[] = {Env::IO_USER, Env::IO_HIGH, Env::IO_MID,
                                       Env::IO_LOW};
  static constexpr int kLowFirst[] = {Env::IO_USER, Env::IO_LOW, Env::IO_MID,
                                      Env::IO_HIGH};
  const bool low_first = refills_ % static_cast<uint64_t>(fairness_) == 0;
  const int* order = low_first ? kLowFirst : kHighFirst;
  const int64_t burst = BurstOf(rate_.load(), refill_period_us_);
  for (int i = 0; i < Env::IO_TOTAL; ++i) {
    std::deque<Waiter*>& queue = queues_[order[i]];
    while (!queue.empty()) {
      Waiter* w = queue.front();
      // A rate lowered while it waited must not leave it too big to fit.
      w->bytes = std::min(w->bytes, burst);
      // Strict order: nobody passes a request the bucket cannot hold yet.
      if (w->bytes > available_) return;
      queue.pop_front();
      Grant(w->pri, w->bytes);
      w->granted = true;
      w->cv.notify_one();
    }
  }
}

void GenericRateLimiter::PassRefillerOn() {
  for (std::deque<Waiter*>& queue : queues_) {
    if (!queue.empty()) {
      has_refiller_ = true;
      queue.front()->refiller = true;
      queue.front()->cv.notify_one();
      return;
    }
  }
}

void GenericRateLimiter::Request(const int64_t bytes,
                                 const Env::IOPriority pri) {
  const int p = PriorityIndex(pri);
  std::unique_lock<std::mutex> lock(mu_);
  ++requests_[p];
  if (bytes <= 0) return;
  RefillIfDue(clock_->NowMicros());
  GrantQueued();
  const int64_t wanted =
      std::min(bytes, BurstOf(rate_.load(), refill_period_us_));
  bool queued = false;
  for (const std::deque<Waiter*>& queue : queues_) queued |= !queue.empty();
  if (!queued && wanted <= available_) {
    Grant(p, wanted);
    return;
  }

  drained_ = true;  // this request waits for a refill
  Waiter w;
  w.bytes = wanted;
  w.pri = p;
  queues_[p].push_back(&w);
  if (!has_refiller_) {
    has_refiller_ = true;
    w.refiller = true;
  }
  while (!w.granted) {
    if (w.refiller) {
      clock_->WaitUntil(&w.cv, &lock, next_refill_us_);
      RefillIfDue(clock_->NowMicros());
      GrantQueued();
    } else {
      w.cv.wait(lock);
    }
  }
  if (w.refiller) {
    has_refiller_ = false;
    PassRefillerOn();
  }
}

RateLimiter* NewGenericRateLimiter(int64_t rate_bytes_per_sec,
                                   int64_t refill_period_us, int32_t fairness,
                                   RateLimiter::Mode mode, bool auto_tuned) {
  if (rate_bytes_per_sec <= 0 || refill_period_us <= 0) return nullptr;
  return new GenericRateLimiter(rate_bytes_per_sec, refill_period_us,
                                std::max<int32_t>(fairness, 1), mode,
                                SteadyRateLimiterClock(), auto_tuned);
}

}  // namespace strata
