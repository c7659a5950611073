// db_bench's --rate_limiter_* flags and --compaction_readahead_size: they
// reach Options::rate_limiter and compaction_readahead_size, and bad
// values are refused naming the flag.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/options.h"
#include "strata/rate_limiter.h"
#include "tools/db_bench/bench_options.h"
#include "tools/db_bench/flags.h"

namespace strata {
namespace bench {
namespace {

Status ParseArgs(const std::vector<std::string>& args, Flags* flags) {
  std::vector<const char*> argv = {"db_bench"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  bool help = false;
  return ParseFlags(static_cast<int>(argv.size()), argv.data(), flags, &help);
}

// The Options that args make: parsed, validated and built.
Status BuildFrom(const std::vector<std::string>& args, Options* options) {
  Flags f;
  Status s = ParseArgs(args, &f);
  if (s.ok()) s = ValidateFlags(f);
  if (s.ok()) s = BuildOptions(f, options);
  return s;
}

TEST(DbBenchIoLimitsTest, NoLimiterByDefault) {
  Flags f;
  ASSERT_TRUE(ParseArgs({}, &f).ok());
  EXPECT_EQ(0u, f.rate_limiter_bytes_per_sec);
  EXPECT_EQ(100000, f.rate_limiter_refill_period_us);
  Options o;
  ASSERT_TRUE(BuildOptions(f, &o).ok());
  EXPECT_EQ(nullptr, o.rate_limiter);
  EXPECT_EQ(0u, o.compaction_readahead_size);
}

TEST(DbBenchIoLimitsTest, RateLimiterFlagsBuildTheLimiter) {
  Options o;
  ASSERT_TRUE(BuildFrom({"--rate_limiter_bytes_per_sec=20000000",
                         "--rate_limiter_refill_period_us=50000",
                         "--compaction_readahead_size=1048576"},
                        &o)
                  .ok());
  ASSERT_NE(nullptr, o.rate_limiter);
  EXPECT_EQ(20000000, o.rate_limiter->GetBytesPerSecond());
  EXPECT_EQ(1000000, o.rate_limiter->GetSingleBurstBytes());  // 50 ms
  EXPECT_TRUE(o.rate_limiter->IsRateLimited(RateLimiter::OpType::kWrite));
  EXPECT_FALSE(o.rate_limiter->IsRateLimited(RateLimiter::OpType::kRead));
  EXPECT_EQ(1048576u, o.compaction_readahead_size);

  ASSERT_TRUE(
      BuildFrom({"--rate_limiter_bytes_per_sec=1000", "--rate_limit_bg_reads"},
                &o)
          .ok());
  EXPECT_TRUE(o.rate_limiter->IsRateLimited(RateLimiter::OpType::kRead));
  EXPECT_FALSE(o.rate_limiter->IsRateLimited(RateLimiter::OpType::kWrite));
}

TEST(DbBenchIoLimitsTest, AutoTunedLimiterStartsAtHalfTheBound) {
  Options o;
  ASSERT_TRUE(BuildFrom({"--rate_limiter_bytes_per_sec=1000000",
                         "--rate_limiter_auto_tuned"},
                        &o)
                  .ok());
  ASSERT_NE(nullptr, o.rate_limiter);
  EXPECT_EQ(500000, o.rate_limiter->GetBytesPerSecond());
}

TEST(DbBenchIoLimitsTest, BadLimitsAreRefusedNamingTheFlag) {
  Flags f;
  Status s;
  ASSERT_TRUE(ParseArgs({"--rate_limiter_bytes_per_sec=1000",
                         "--rate_limiter_refill_period_us=0"},
                        &f)
                  .ok());
  s = ValidateFlags(f);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos,
            s.ToString().find("--rate_limiter_refill_period_us"));

  ASSERT_TRUE(ParseArgs({"--compaction_readahead_size=-1"}, &f).ok());
  s = ValidateFlags(f);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos,
            s.ToString().find("--compaction_readahead_size"));
}

}  // namespace
}  // namespace bench
}  // namespace strata
