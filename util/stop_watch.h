// StopWatch: times a scope into a Statistics histogram. Does nothing (not
// even read the clock) when statistics is null or its level excludes
// timers.

#ifndef STRATA_UTIL_STOP_WATCH_H_
#define STRATA_UTIL_STOP_WATCH_H_

#include <cstdint>

#include "strata/env.h"
#include "strata/statistics.h"

namespace strata {

class StopWatch {
 public:
  StopWatch(Env* env, Statistics* statistics, uint32_t histogram)
      : env_(env),
        statistics_(statistics != nullptr &&
                            statistics->get_stats_level() > kExceptTimers
                        ? statistics
                        : nullptr),
        histogram_(histogram),
        start_(statistics_ != nullptr ? env->NowMicros() : 0) {}
  StopWatch(const StopWatch&) = delete;
  StopWatch& operator=(const StopWatch&) = delete;

  ~StopWatch() {
    if (statistics_ != nullptr) {
      const uint64_t now = env_->NowMicros();
      statistics_->recordInHistogram(histogram_,
                                     now > start_ ? now - start_ : 0);
    }
  }

 private:
  Env* const env_;
  Statistics* const statistics_;
  const uint32_t histogram_;
  const uint64_t start_;
};

// Adds count to ticker if statistics is set.
inline void RecordTick(Statistics* statistics, uint32_t ticker,
                       uint64_t count = 1) {
  if (statistics != nullptr) statistics->recordTick(ticker, count);
}

}  // namespace strata

#endif  // STRATA_UTIL_STOP_WATCH_H_
