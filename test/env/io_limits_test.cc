// The file layer's side of the I/O limits: a WritableFileWriter with a rate
// limiter asks it for every byte it writes (the padded pages with direct
// I/O) and a FilePrefetchBuffer for every chunk it reads; the readahead
// buffer turns block-sized reads into few large ones and returns the same
// bytes; and RangeSync (bytes_per_sync) keeps the file intact on every
// platform -- on Windows it is a no-op (docs/windows.md, "Range sync").

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include "env/file_reader.h"
#include "env/file_writer.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "strata/rate_limiter.h"
#include "test/table/table_test_util.h"
#include "test/util/temp_dir.h"
#include "util/random.h"

namespace strata {
namespace {

std::string RandomBytes(size_t n, uint32_t seed) {
  Random rnd(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rnd.Next());
  return s;
}

class IoLimitsTest : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    env_ = Env::Default();
    dir_.reset(new test::TempDir(env_, "iolimits"));
    options_.use_direct_writes = GetParam();
    options_.use_direct_reads = GetParam();
  }

  Status Write(const std::string& name, const std::string& data,
               RateLimiter* limiter, uint64_t bytes_per_sync = 0) {
    std::unique_ptr<WritableFile> file;
    EnvOptions options = options_;
    options.bytes_per_sync = bytes_per_sync;
    Status s = env_->NewWritableFile(dir_->File(name), &file, options);
    if (!s.ok()) return s;
    WritableFileWriter writer(std::move(file), dir_->File(name), options);
    writer.SetRateLimiter(limiter, Env::IO_LOW);
    for (size_t at = 0; at < data.size() && s.ok(); at += 3000) {
      s = writer.Append(
          Slice(data.data() + at, std::min<size_t>(3000, data.size() - at)));
    }
    if (s.ok()) s = writer.Sync(false);
    Status close = writer.Close();
    return s.ok() ? close : s;
  }

  std::string ReadBack(const std::string& name) {
    std::string got;
    EXPECT_TRUE(ReadFileToString(env_, dir_->File(name), &got).ok());
    return got;
  }

  Env* env_ = nullptr;
  std::unique_ptr<test::TempDir> dir_;
  EnvOptions options_;
};

TEST_P(IoLimitsTest, WriterAsksTheLimiterForEveryByteItWrites) {
  std::unique_ptr<RateLimiter> limiter(NewGenericRateLimiter(1 << 30));
  const std::string data = RandomBytes(3 * 1024 * 1024 + 777, 1);
  ASSERT_TRUE(Write("f", data, limiter.get()).ok());
  EXPECT_EQ(data, ReadBack("f"));
  const int64_t through = limiter->GetTotalBytesThrough(Env::IO_LOW);
  if (GetParam()) {
    // Whole pages, the partial last one written again by each flush.
    EXPECT_GE(through, static_cast<int64_t>(data.size()));
    EXPECT_LE(through, static_cast<int64_t>(data.size()) + 64 * 4096);
  } else {
    EXPECT_EQ(through, static_cast<int64_t>(data.size()));
  }
  // No request is larger than a burst.
  EXPECT_GE(limiter->GetTotalRequests(),
            through / limiter->GetSingleBurstBytes());
  EXPECT_EQ(limiter->GetTotalBytesThrough(Env::IO_HIGH), 0);

  // A limiter for reads only is not asked by a writer.
  std::unique_ptr<RateLimiter> reads(NewGenericRateLimiter(
      1 << 30, 100000, 10, RateLimiter::Mode::kReadsOnly));
  ASSERT_TRUE(Write("g", data, reads.get()).ok());
  EXPECT_EQ(reads->GetTotalRequests(), 0);
}

TEST_P(IoLimitsTest, RangeSyncIsANoOpThatKeepsTheFile) {
  const std::string data = RandomBytes(3 * 1024 * 1024 + 4321, 2);
  ASSERT_TRUE(Write("f", data, nullptr, /*bytes_per_sync=*/1 << 20).ok());
  EXPECT_EQ(data, ReadBack("f"));
  // Called directly, on a file with data and beyond its end: OK.
  std::unique_ptr<WritableFile> file;
  ASSERT_TRUE(env_->NewWritableFile(dir_->File("h"), &file, EnvOptions()).ok());
  ASSERT_TRUE(file->Append(Slice(data.data(), 8192)).ok());
  EXPECT_TRUE(file->RangeSync(0, 8192).ok());
  EXPECT_TRUE(file->RangeSync(4096, 1 << 20).ok());
  ASSERT_TRUE(file->Close().ok());
  EXPECT_EQ(data.substr(0, 8192), ReadBack("h"));
}

TEST_P(IoLimitsTest, PrefetchBufferReadsAheadAndReturnsTheSameBytes) {
  const std::string data = RandomBytes(1024 * 1024 + 100, 3);
  ASSERT_TRUE(Write("f", data, nullptr).ok());
  struct Case {
    size_t readahead;
    int max_reads;
  };
  // Block-sized reads in order; 256 KiB chunks make 5 reads of the file.
  for (const Case& c : {Case{0, 1 << 30}, Case{256 << 10, 5}}) {
    std::unique_ptr<RandomAccessFile> file;
    ASSERT_TRUE(
        env_->NewRandomAccessFile(dir_->File("f"), &file, options_).ok());
    std::atomic<int> reads{0};
    RandomAccessFileReader reader(
        std::make_unique<test::CountingFile>(std::move(file), &reads),
        dir_->File("f"));
    std::unique_ptr<RateLimiter> limiter(
        NewGenericRateLimiter(1 << 30, 100000, 10, RateLimiter::Mode::kAllIo));
    FileScanOptions scan;
    scan.readahead_size = c.readahead;
    scan.rate_limiter = limiter.get();
    FilePrefetchBuffer prefetch(&reader, scan);
    std::string scratch(5000, '\0');
    std::string got;
    for (uint64_t at = 0; at < data.size(); at += 4000) {
      Slice s;
      ASSERT_TRUE(prefetch.Read(at, 4000, &s, &scratch[0]).ok());
      ASSERT_EQ(s.data(), scratch.data());
      got.append(s.data(), s.size());
    }
    EXPECT_EQ(data, got);
    EXPECT_LE(reads.load(), c.max_reads);
    if (c.readahead == 0) {
      EXPECT_EQ(static_cast<size_t>(reads.load()), (data.size() + 3999) / 4000);
    }
    // Every byte read was granted first, at the scan's priority.
    EXPECT_GE(limiter->GetTotalBytesThrough(Env::IO_LOW),
              static_cast<int64_t>(data.size()));
  }
}

INSTANTIATE_TEST_SUITE_P(BufferedAndDirect, IoLimitsTest, testing::Bool());

}  // namespace
}  // namespace strata
