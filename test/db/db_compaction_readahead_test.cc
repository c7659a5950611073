// DBOptions::compaction_readahead_size: a compaction reads its inputs in
// large chunks, counted here as read calls on the input files. With direct
// I/O the OS reads nothing ahead, and a size of 0 means 2 MiB.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/metadata.h"
#include "strata/rate_limiter.h"
#include "test/db/db_test_util.h"
#include "test/table/table_test_util.h"

namespace strata {
namespace {

using test::DBHolder;
using test::Key;

// Counts the Read calls on each file opened for random access.
class ReadCountingEnv : public EnvWrapper {
 public:
  explicit ReadCountingEnv(Env* target) : EnvWrapper(target) {}

  Status NewRandomAccessFile(const std::string& f,
                             std::unique_ptr<RandomAccessFile>* r,
                             const EnvOptions& options) override {
    std::unique_ptr<RandomAccessFile> file;
    Status s = target()->NewRandomAccessFile(f, &file, options);
    if (s.ok()) {
      std::atomic<int>* reads;
      {
        std::lock_guard<std::mutex> l(mu_);
        reads = &reads_[f];  // map nodes stay put
      }
      r->reset(new test::CountingFile(std::move(file), reads));
    }
    return s;
  }

  // Read calls on files whose names end in one of names.
  uint64_t ReadsOf(const std::set<std::string>& names) {
    std::lock_guard<std::mutex> l(mu_);
    uint64_t n = 0;
    for (const auto& [file, reads] : reads_) {
      for (const std::string& name : names) {
        if (file.size() >= name.size() &&
            file.compare(file.size() - name.size(), name.size(), name) == 0) {
          n += static_cast<uint64_t>(reads.load());
        }
      }
    }
    return n;
  }
  void Reset() {
    std::lock_guard<std::mutex> l(mu_);
    for (auto& entry : reads_) entry.second.store(0);
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::atomic<int>> reads_;
};

struct CompactionReads {
  uint64_t reads = 0;        // on the input files
  uint64_t input_bytes = 0;  // their size
};

// Four level-0 tables of about 200 KiB compacted into level 1: the read
// calls of the compaction on its inputs.
CompactionReads CountCompactionReads(bool direct, size_t readahead,
                                     RateLimiter* limiter = nullptr) {
  ReadCountingEnv env(Env::Default());
  DBHolder h(&env);
  h.options().disable_auto_compactions = true;
  h.options().compression = kNoCompression;
  h.options().use_direct_reads = direct;
  h.options().use_direct_io_for_flush_and_compaction = direct;
  h.options().compaction_readahead_size = readahead;
  if (limiter != nullptr) {
    h.options().rate_limiter.reset(limiter, [](RateLimiter*) {});
  }
  CompactionReads result;
  EXPECT_TRUE(h.Open().ok());
  for (int file = 0; file < 4; file++) {
    for (int i = 0; i < 2000; i++) {
      const int k = i * 4 + file;
      EXPECT_TRUE(
          h.Put(Key(k), std::string(100, static_cast<char>('a' + k % 26)))
              .ok());
    }
    EXPECT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  std::vector<LiveFileMetaData> files;
  h.db()->GetLiveFilesMetaData(&files);
  EXPECT_EQ(files.size(), 4u);
  std::set<std::string> inputs;
  for (const LiveFileMetaData& f : files) {
    inputs.insert(f.name);  // "/000012.sst"
    result.input_bytes += f.size;
  }
  env.Reset();
  EXPECT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  result.reads = env.ReadsOf(inputs);
  // The compaction lost nothing.
  EXPECT_EQ(h.Contents().size(), 8000u);
  EXPECT_EQ(std::string(100, 'a' + 7777 % 26), h.Get(Key(7777)));
  return result;
}

TEST(DBCompactionReadaheadTest, DirectIOReadsAtLeastEightTimesFewer) {
  // A readahead of one byte reads each block alone; 0 with direct I/O is
  // 2 MiB, more than the whole of each input.
  const CompactionReads block_by_block = CountCompactionReads(true, 1);
  const CompactionReads read_ahead = CountCompactionReads(true, 0);
  // In the XML report (--gtest_output=xml): the acceptance's count.
  testing::Test::RecordProperty("reads_block_by_block",
                                std::to_string(block_by_block.reads));
  testing::Test::RecordProperty("reads_with_readahead",
                                std::to_string(read_ahead.reads));
  ASSERT_GT(read_ahead.reads, 0u);
  // About one read of 4 KiB per block of each 200 KiB input.
  EXPECT_GT(block_by_block.reads, block_by_block.input_bytes / 8192);
  EXPECT_GE(block_by_block.reads, 8 * read_ahead.reads)
      << block_by_block.reads << " reads without readahead, "
      << read_ahead.reads << " with";
}

TEST(DBCompactionReadaheadTest, BufferedReadsUseTheGivenSize) {
  const CompactionReads off = CountCompactionReads(false, 0);
  const CompactionReads on = CountCompactionReads(false, 64 << 10);
  // 0 without direct I/O: block by block, as RocksDB.
  EXPECT_GT(off.reads, off.input_bytes / 8192);
  // 64 KiB chunks: about input_bytes / 64 KiB reads (a block crossing a
  // chunk's end starts the next chunk).
  EXPECT_LE(on.reads, on.input_bytes / (60 << 10) + 8);
  EXPECT_GE(off.reads, 8 * on.reads);
}

TEST(DBCompactionReadaheadTest, AReadsLimiterSeesTheCompactionInputs) {
  std::unique_ptr<RateLimiter> limiter(NewGenericRateLimiter(
      1 << 30, 100 * 1000, 10, RateLimiter::Mode::kReadsOnly));
  const CompactionReads reads =
      CountCompactionReads(false, 64 << 10, limiter.get());
  // Each chunk asked for whole: at least the inputs' bytes, at most a
  // chunk more per input file.
  const int64_t through = limiter->GetTotalBytesThrough(Env::IO_LOW);
  EXPECT_GE(through, static_cast<int64_t>(reads.input_bytes));
  EXPECT_LE(through, static_cast<int64_t>(reads.input_bytes + 4 * (64 << 10)));
  EXPECT_EQ(limiter->GetTotalBytesThrough(Env::IO_HIGH), 0);
}

}  // namespace
}  // namespace strata
