// DBOptions::rate_limiter: the tables of flushes go through it at IO_HIGH,
// those of compactions at IO_LOW, byte for byte; the WAL and the MANIFEST
// never do, and the flush and compaction tickers count the same bytes; a
// limiter that limits reads only sees no writes.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/metadata.h"
#include "strata/rate_limiter.h"
#include "strata/statistics.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;
using test::Key;

// Bytes of the live tables at `level` (-1: all levels).
uint64_t TableBytes(DB* db, int level) {
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  uint64_t bytes = 0;
  for (const LiveFileMetaData& f : files) {
    if (level < 0 || f.level == level) bytes += f.size;
  }
  return bytes;
}

Status WriteKeys(DBHolder* h, int from, int to) {
  for (int i = from; i < to; i++) {
    Status s =
        h->Put(Key(i), std::string(100, static_cast<char>('a' + i % 26)));
    if (!s.ok()) return s;
  }
  return Status::OK();
}

TEST(DBRateLimiterTest, FlushAndCompactionWritesGoThroughTheLimiter) {
  // Fast enough never to wait here: the test counts, it does not time.
  std::shared_ptr<RateLimiter> limiter(NewGenericRateLimiter(1 << 30));
  DBHolder h;
  h.options().rate_limiter = limiter;
  h.options().disable_auto_compactions = true;
  h.options().statistics = CreateDBStatistics();
  Statistics* stats = h.options().statistics.get();
  ASSERT_TRUE(h.Open().ok());

  // WAL records and the MANIFEST: not limited.
  ASSERT_TRUE(WriteKeys(&h, 0, 3000).ok());
  EXPECT_EQ(limiter->GetTotalBytesThrough(), 0);
  EXPECT_EQ(limiter->GetTotalRequests(), 0);

  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  const uint64_t first = TableBytes(h.db(), 0);
  ASSERT_GT(first, 0u);
  EXPECT_EQ(static_cast<uint64_t>(limiter->GetTotalBytesThrough(Env::IO_HIGH)),
            first);
  EXPECT_EQ(limiter->GetTotalBytesThrough(Env::IO_LOW), 0);

  ASSERT_TRUE(WriteKeys(&h, 1500, 4500).ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  const uint64_t flushed = TableBytes(h.db(), 0);
  EXPECT_EQ(static_cast<uint64_t>(limiter->GetTotalBytesThrough(Env::IO_HIGH)),
            flushed);
  // The tickers count the same bytes.
  EXPECT_EQ(stats->getTickerCount(FLUSH_WRITE_BYTES), flushed);
  EXPECT_EQ(stats->getTickerCount(COMPACT_WRITE_BYTES), 0u);

  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  const uint64_t compacted = TableBytes(h.db(), -1);
  ASSERT_GT(compacted, 0u);
  EXPECT_EQ(TableBytes(h.db(), 0), 0u);
  EXPECT_EQ(static_cast<uint64_t>(limiter->GetTotalBytesThrough(Env::IO_LOW)),
            compacted);
  EXPECT_EQ(stats->getTickerCount(COMPACT_WRITE_BYTES), compacted);
  EXPECT_EQ(stats->getTickerCount(FLUSH_WRITE_BYTES), flushed);
  EXPECT_EQ(static_cast<uint64_t>(limiter->GetTotalBytesThrough(Env::IO_HIGH)),
            flushed);
  EXPECT_EQ("NOT_FOUND", h.Get(Key(4500)));
  EXPECT_EQ(std::string(100, 'a'), h.Get(Key(0)));
}

TEST(DBRateLimiterTest, AReadsOnlyLimiterSeesNoWrites) {
  std::shared_ptr<RateLimiter> limiter(NewGenericRateLimiter(
      1 << 30, 100 * 1000, 10, RateLimiter::Mode::kReadsOnly));
  DBHolder h;
  h.options().rate_limiter = limiter;
  h.options().disable_auto_compactions = true;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(WriteKeys(&h, 0, 2000).ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  EXPECT_GT(TableBytes(h.db(), 0), 0u);
  EXPECT_EQ(limiter->GetTotalBytesThrough(Env::IO_HIGH), 0);
}

}  // namespace
}  // namespace strata
