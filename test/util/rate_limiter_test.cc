// GenericRateLimiter on a fake clock: the grants stay within the rate, the
// priorities and fairness decide who is served at a refill, the mode
// decides what is limited, a new rate applies from the next refill, and an
// auto-tuned rate follows the demand within its range.
// Time moves only when the limiter waits, so no test depends on the real
// clock.

#include "util/rate_limiter.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "util/random.h"

namespace strata {
namespace {

using Mode = RateLimiter::Mode;
using OpType = RateLimiter::OpType;

constexpr int64_t kRate = 1000000;   // bytes per second
constexpr int64_t kPeriod = 100000;  // us: a burst of 100000 bytes
constexpr int64_t kBurst = kRate * kPeriod / 1000000;

// A wait jumps the time to its deadline: at once (free running) or when
// the test allows one more wait (Step).
class FakeClock : public RateLimiterClock {
 public:
  explicit FakeClock(bool free_running) : free_running_(free_running) {}

  uint64_t NowMicros() override {
    std::lock_guard<std::mutex> l(mu_);
    return now_;
  }
  void WaitUntil(std::condition_variable* /*cv*/,
                 std::unique_lock<std::mutex>* lock,
                 uint64_t deadline_us) override {
    lock->unlock();
    {
      std::unique_lock<std::mutex> l(mu_);
      ++waiting_;
      cv_.notify_all();
      cv_.wait(l, [&] { return free_running_ || steps_ > 0; });
      if (!free_running_) --steps_;
      --waiting_;
      if (now_ < deadline_us) now_ = deadline_us;
    }
    lock->lock();
  }
  // Time passing while nobody waits (an idle limiter).
  void Advance(uint64_t us) {
    std::lock_guard<std::mutex> l(mu_);
    now_ += us;
  }
  // Lets one waiting refiller go on, once one waits.
  void Step() {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return waiting_ > 0 && steps_ == 0; });
    ++steps_;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  const bool free_running_;
  uint64_t now_ = 1000;
  int steps_ = 0;
  int waiting_ = 0;
};

// Waits (without timing) until the limiter has seen n requests at pri.
void AwaitRequests(const RateLimiter& limiter, Env::IOPriority pri, int64_t n) {
  while (limiter.GetTotalRequests(pri) < n) std::this_thread::yield();
}

TEST(RateLimiterTest, FactoryDefaultsAndBadArguments) {
  std::unique_ptr<RateLimiter> limiter(NewGenericRateLimiter(kRate));
  ASSERT_NE(limiter, nullptr);
  EXPECT_EQ(limiter->GetBytesPerSecond(), kRate);
  EXPECT_EQ(limiter->GetSingleBurstBytes(), kBurst);  // 100 ms period
  EXPECT_TRUE(limiter->IsRateLimited(OpType::kWrite));
  EXPECT_FALSE(limiter->IsRateLimited(OpType::kRead));
  EXPECT_EQ(NewGenericRateLimiter(0), nullptr);
  EXPECT_EQ(NewGenericRateLimiter(-5), nullptr);
  EXPECT_EQ(NewGenericRateLimiter(kRate, 0), nullptr);
  // The first burst is there at once: no wait on the real clock.
  limiter->Request(kBurst, Env::IO_LOW);
  EXPECT_EQ(limiter->GetTotalBytesThrough(), kBurst);
  limiter->SetBytesPerSecond(0);  // ignored
  EXPECT_EQ(limiter->GetBytesPerSecond(), kRate);
}

TEST(RateLimiterTest, GrantsNeverExceedRateTimesElapsedPlusOneBurst) {
  FakeClock clock(/*free_running=*/true);
  const uint64_t start = clock.NowMicros();
  GenericRateLimiter limiter(kRate, kPeriod, 10, Mode::kWritesOnly, &clock);
  Random rnd(301);
  int64_t asked = 0;
  for (int i = 0; i < 2000; ++i) {
    const int64_t bytes = 1 + rnd.Uniform(kBurst);
    asked += bytes;
    limiter.Request(bytes, i % 2 ? Env::IO_HIGH : Env::IO_LOW);
    const uint64_t elapsed = clock.NowMicros() - start;
    const int64_t through = limiter.GetTotalBytesThrough();
    ASSERT_EQ(through, asked);
    ASSERT_LE(through,
              kRate * static_cast<int64_t>(elapsed) / 1000000 + kBurst);
    // And the limiter does not hold back more than a burst either.
    ASSERT_GE(through + 2 * kBurst,
              kRate * static_cast<int64_t>(elapsed) / 1000000);
  }
  EXPECT_EQ(limiter.GetTotalRequests(), 2000);
  EXPECT_EQ(limiter.GetTotalRequests(Env::IO_HIGH), 1000);
  EXPECT_EQ(limiter.GetTotalBytesThrough(Env::IO_HIGH) +
                limiter.GetTotalBytesThrough(Env::IO_LOW),
            asked);
}

TEST(RateLimiterTest, ManyThreadsStayWithinTheRate) {
  FakeClock clock(/*free_running=*/true);
  const uint64_t start = clock.NowMicros();
  GenericRateLimiter limiter(kRate, kPeriod, 10, Mode::kAllIo, &clock);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&limiter, t] {
      const Env::IOPriority pri = t % 2 ? Env::IO_HIGH : Env::IO_LOW;
      for (int i = 0; i < 200; ++i) limiter.Request(kBurst / 3 + t, pri);
    });
  }
  for (std::thread& t : threads) t.join();
  const int64_t asked = 200 * (4 * (kBurst / 3) + 0 + 1 + 2 + 3);
  EXPECT_EQ(limiter.GetTotalBytesThrough(), asked);
  const int64_t elapsed = static_cast<int64_t>(clock.NowMicros() - start);
  EXPECT_LE(asked, kRate * elapsed / 1000000 + kBurst);
}

TEST(RateLimiterTest, LargerThanABurstIsCutToABurst) {
  FakeClock clock(/*free_running=*/true);
  GenericRateLimiter limiter(kRate, kPeriod, 10, Mode::kWritesOnly, &clock);
  limiter.Request(10 * kBurst, Env::IO_LOW);
  EXPECT_EQ(limiter.GetTotalBytesThrough(), kBurst);
}

// Drains the bucket, then queues a low request (the refiller, waiting on
// the clock) and `highs` high ones, each for a whole burst, so that each
// refill serves exactly one. Returns, per refill, the priority served.
std::vector<Env::IOPriority> ServeOrder(int32_t fairness, int highs) {
  FakeClock clock(/*free_running=*/false);
  GenericRateLimiter limiter(kRate, kPeriod, fairness, Mode::kWritesOnly,
                             &clock);
  limiter.Request(kBurst, Env::IO_LOW);  // refill 1, drained
  std::vector<std::thread> threads;
  threads.emplace_back([&] { limiter.Request(kBurst, Env::IO_LOW); });
  AwaitRequests(limiter, Env::IO_LOW, 2);
  for (int i = 0; i < highs; ++i) {
    threads.emplace_back([&] { limiter.Request(kBurst, Env::IO_HIGH); });
  }
  AwaitRequests(limiter, Env::IO_HIGH, highs);
  std::vector<Env::IOPriority> order;
  int64_t low = kBurst;
  int64_t high = 0;
  for (int served = 0; served < highs + 1; ++served) {
    clock.Step();
    while (limiter.GetTotalBytesThrough(Env::IO_LOW) == low &&
           limiter.GetTotalBytesThrough(Env::IO_HIGH) == high) {
      std::this_thread::yield();
    }
    if (limiter.GetTotalBytesThrough(Env::IO_LOW) != low) {
      order.push_back(Env::IO_LOW);
      low += kBurst;
    } else {
      order.push_back(Env::IO_HIGH);
      high += kBurst;
    }
    EXPECT_EQ(limiter.GetTotalBytesThrough(Env::IO_LOW), low);
    EXPECT_EQ(limiter.GetTotalBytesThrough(Env::IO_HIGH), high);
  }
  for (std::thread& t : threads) t.join();
  return order;
}

TEST(RateLimiterTest, HighPriorityIsServedFirst) {
  // Fairness 1000: refills 2 to 5 all serve the high queue first.
  const std::vector<Env::IOPriority> order = ServeOrder(1000, 3);
  const std::vector<Env::IOPriority> expected = {Env::IO_HIGH, Env::IO_HIGH,
                                                 Env::IO_HIGH, Env::IO_LOW};
  EXPECT_EQ(order, expected);
}

TEST(RateLimiterTest, FairnessServesLowWhileHighWait) {
  // Fairness 3: refill 3 serves the low queue first though highs wait.
  const std::vector<Env::IOPriority> order = ServeOrder(3, 4);
  const std::vector<Env::IOPriority> expected = {
      Env::IO_HIGH, Env::IO_LOW, Env::IO_HIGH, Env::IO_HIGH, Env::IO_HIGH};
  EXPECT_EQ(order, expected);
}

TEST(RateLimiterTest, ModeDecidesWhatIsLimited) {
  FakeClock clock(/*free_running=*/true);
  struct Case {
    Mode mode;
    bool reads, writes;
  };
  for (const Case& c :
       {Case{Mode::kWritesOnly, false, true},
        Case{Mode::kReadsOnly, true, false}, Case{Mode::kAllIo, true, true}}) {
    GenericRateLimiter limiter(kRate, kPeriod, 10, c.mode, &clock);
    limiter.Request(100, Env::IO_LOW, nullptr, OpType::kRead);
    EXPECT_EQ(limiter.GetTotalBytesThrough(), c.reads ? 100 : 0);
    EXPECT_EQ(limiter.GetTotalRequests(), c.reads ? 1 : 0);
    limiter.Request(200, Env::IO_LOW, nullptr, OpType::kWrite);
    EXPECT_EQ(limiter.GetTotalBytesThrough(),
              (c.reads ? 100 : 0) + (c.writes ? 200 : 0));
    EXPECT_EQ(limiter.IsRateLimited(OpType::kRead), c.reads);
    EXPECT_EQ(limiter.IsRateLimited(OpType::kWrite), c.writes);
  }
}

TEST(RateLimiterTest, NewRateAppliesAtTheNextRefill) {
  FakeClock clock(/*free_running=*/true);
  GenericRateLimiter limiter(kRate, kPeriod, 10, Mode::kWritesOnly, &clock);
  limiter.Request(kBurst, Env::IO_LOW);  // drained
  const uint64_t before = clock.NowMicros();
  limiter.SetBytesPerSecond(2 * kRate);
  EXPECT_EQ(limiter.GetBytesPerSecond(), 2 * kRate);
  EXPECT_EQ(limiter.GetSingleBurstBytes(), 2 * kBurst);
  // The doubled burst comes with the next refill, one period later.
  limiter.Request(2 * kBurst, Env::IO_LOW);
  EXPECT_EQ(clock.NowMicros() - before, static_cast<uint64_t>(kPeriod));
  EXPECT_EQ(limiter.GetTotalBytesThrough(), 3 * kBurst);
}

// Auto-tuned, the rate moves every GenericRateLimiter::kRefillsPerTune
// periods of time.
constexpr uint64_t kTuneWindow =
    GenericRateLimiter::kRefillsPerTune * static_cast<uint64_t>(kPeriod);

TEST(RateLimiterTest, AutoTunedStartsAtHalfAndRisesToTheBoundUnderDemand) {
  std::unique_ptr<RateLimiter> made(
      NewGenericRateLimiter(kRate, kPeriod, 10, Mode::kWritesOnly, true));
  EXPECT_EQ(made->GetBytesPerSecond(), kRate / 2);

  FakeClock clock(/*free_running=*/true);
  const uint64_t start = clock.NowMicros();
  GenericRateLimiter limiter(kRate, kPeriod, 10, Mode::kWritesOnly, &clock,
                             /*auto_tuned=*/true);
  EXPECT_EQ(limiter.GetBytesPerSecond(), kRate / 2);
  // Every request takes a whole burst: each period the bucket runs dry.
  std::vector<int64_t> rates = {limiter.GetBytesPerSecond()};
  int64_t through = 0;
  while (clock.NowMicros() - start < 30 * kTuneWindow) {
    const int64_t burst = limiter.GetSingleBurstBytes();
    limiter.Request(burst, Env::IO_LOW);
    through += burst;
    if (limiter.GetBytesPerSecond() != rates.back()) {
      rates.push_back(limiter.GetBytesPerSecond());
    }
    // Never more than the bound allows.
    ASSERT_LE(through, kRate * static_cast<int64_t>(clock.NowMicros() - start) /
                               1000000 +
                           kBurst);
  }
  // Up 5% a window: 0.5 * 1.05^14 = 0.99, so the 15th move hits the bound.
  ASSERT_EQ(rates.size(), 16u);
  for (size_t i = 1; i < rates.size(); ++i) {
    EXPECT_GT(rates[i], rates[i - 1]);
    EXPECT_LE(rates[i], rates[i - 1] + rates[i - 1] / 20 + 1);
  }
  EXPECT_EQ(rates.back(), kRate);
}

TEST(RateLimiterTest, AutoTunedFallsToAFloorWhenIdle) {
  FakeClock clock(/*free_running=*/true);
  GenericRateLimiter limiter(kRate, kPeriod, 10, Mode::kWritesOnly, &clock,
                             /*auto_tuned=*/true);
  int64_t rate = limiter.GetBytesPerSecond();
  // One small request a window, never waiting: no demand.
  for (int window = 0; window < 100; ++window) {
    clock.Advance(kTuneWindow);
    limiter.Request(1, Env::IO_LOW);
    const int64_t now = limiter.GetBytesPerSecond();
    if (rate > kRate / 20) {
      EXPECT_LT(now, rate);
      EXPECT_GE(now, rate - rate / 20);  // down about 5% a window
    } else {
      EXPECT_EQ(now, rate);
    }
    rate = now;
  }
  EXPECT_EQ(rate, kRate / 20);
  EXPECT_EQ(limiter.GetTotalBytesThrough(), 100);
}

TEST(RateLimiterTest, AutoTunedDemandBetweenTheWatermarksKeepsTheRate) {
  FakeClock clock(/*free_running=*/true);
  GenericRateLimiter limiter(kRate, kPeriod, 10, Mode::kWritesOnly, &clock,
                             /*auto_tuned=*/true);
  const int64_t rate = limiter.GetBytesPerSecond();
  const uint64_t start = clock.NowMicros();
  // Cycles of 9 periods: 3 idle, then 7 requests of a burst, of which the
  // first finds the bucket refilled and the other 6 wait a period each. 6
  // of 9 periods drained: between the watermarks.
  while (clock.NowMicros() - start < 5 * kTuneWindow) {
    clock.Advance(3 * static_cast<uint64_t>(kPeriod));
    for (int i = 0; i < 7; ++i) {
      limiter.Request(limiter.GetSingleBurstBytes(), Env::IO_LOW);
    }
    ASSERT_EQ(limiter.GetBytesPerSecond(), rate);
  }
}

TEST(RateLimiterTest, AutoTunedSetBytesPerSecondSetsTheRateNotTheBound) {
  FakeClock clock(/*free_running=*/true);
  GenericRateLimiter limiter(kRate, kPeriod, 10, Mode::kWritesOnly, &clock,
                             /*auto_tuned=*/true);
  // As RocksDB: the current rate, even outside the tuned range...
  limiter.SetBytesPerSecond(4 * kRate);
  EXPECT_EQ(limiter.GetBytesPerSecond(), 4 * kRate);
  EXPECT_EQ(limiter.GetSingleBurstBytes(), 4 * kBurst);
  // ...which the next tuning brings back under the bound, however great
  // the demand.
  const uint64_t start = clock.NowMicros();
  while (clock.NowMicros() - start < 3 * kTuneWindow) {
    limiter.Request(limiter.GetSingleBurstBytes(), Env::IO_LOW);
    if (clock.NowMicros() - start > kTuneWindow + kPeriod) {
      ASSERT_EQ(limiter.GetBytesPerSecond(), kRate);
    }
  }
  // A rate under the floor comes back up to it.
  limiter.SetBytesPerSecond(1000);
  EXPECT_EQ(limiter.GetBytesPerSecond(), 1000);
  clock.Advance(kTuneWindow);
  limiter.Request(1, Env::IO_LOW);
  EXPECT_EQ(limiter.GetBytesPerSecond(), kRate / 20);
  limiter.SetBytesPerSecond(0);  // ignored
  EXPECT_EQ(limiter.GetBytesPerSecond(), kRate / 20);
}

}  // namespace
}  // namespace strata
