#include "env/file_writer.h"

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "env/io_util.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"
#include "util/random.h"

namespace strata {
namespace {

// Forwards to a real file and records every transfer the writer makes.
class RecordingFile : public WritableFile {
 public:
  struct Transfer {
    uint64_t offset;
    size_t size;
    bool address_aligned;
  };

  explicit RecordingFile(std::unique_ptr<WritableFile> target)
      : target_(std::move(target)) {}

  Status Append(const Slice& data) override {
    Record(target_->GetFileSize(), data);
    return target_->Append(data);
  }
  Status PositionedAppend(const Slice& data, uint64_t offset) override {
    Record(offset, data);
    return target_->PositionedAppend(data, offset);
  }
  Status Truncate(uint64_t size) override {
    truncated_to.push_back(size);
    return target_->Truncate(size);
  }
  Status Close() override { return target_->Close(); }
  Status Flush() override { return target_->Flush(); }
  Status Sync() override {
    syncs++;
    return target_->Sync();
  }
  Status Fsync() override {
    fsyncs++;
    return target_->Fsync();
  }
  Status AppendAndSync(const Slice& data) override {
    durable_appends.push_back(data.ToString());
    if (fail_after_append) {
      // The bytes land, the sync fails.
      Status s = target_->Append(data);
      return s.ok() ? Status::IOError("injected sync failure") : s;
    }
    return target_->AppendAndSync(data);
  }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  uint64_t GetFileSize() override { return target_->GetFileSize(); }
  Status Allocate(uint64_t offset, uint64_t len) override {
    allocations.emplace_back(offset, len);
    return target_->Allocate(offset, len);
  }
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    range_syncs.emplace_back(offset, nbytes);
    return target_->RangeSync(offset, nbytes);
  }

  std::vector<Transfer> transfers;
  std::vector<uint64_t> truncated_to;
  std::vector<std::pair<uint64_t, uint64_t>> allocations;
  std::vector<std::pair<uint64_t, uint64_t>> range_syncs;
  int syncs = 0;
  int fsyncs = 0;
  std::vector<std::string> durable_appends;
  bool fail_after_append = false;

 private:
  void Record(uint64_t offset, const Slice& data) {
    transfers.push_back(
        Transfer{offset, data.size(),
                 IsAligned(data.data(), GetRequiredBufferAlignment())});
  }

  std::unique_ptr<WritableFile> target_;
};

struct WriterParam {
  const char* name;
  bool mem;
  bool direct;
};

void PrintTo(const WriterParam& p, std::ostream* os) { *os << p.name; }

class WritableFileWriterTest : public testing::TestWithParam<WriterParam> {
 protected:
  void SetUp() override {
    if (GetParam().mem) {
      mem_.reset(NewMemEnv(Env::Default()));
      env_ = mem_.get();
    } else {
      env_ = Env::Default();
    }
    dir_.reset(new test::TempDir(env_, "writer"));
    options_.use_direct_writes = GetParam().direct;
  }

  // A writer over a RecordingFile; *recorder stays valid while it lives.
  std::unique_ptr<WritableFileWriter> NewWriter(const std::string& name,
                                                RecordingFile** recorder) {
    std::unique_ptr<WritableFile> file;
    Status s = env_->NewWritableFile(dir_->File(name), &file, options_);
    EXPECT_TRUE(s.ok()) << s.ToString();
    *recorder = new RecordingFile(std::move(file));
    return std::unique_ptr<WritableFileWriter>(new WritableFileWriter(
        std::unique_ptr<WritableFile>(*recorder), dir_->File(name), options_));
  }

  std::string Contents(const std::string& name) {
    std::string data;
    EXPECT_TRUE(ReadFileToString(env_, dir_->File(name), &data).ok());
    return data;
  }

  void ExpectAlignedTransfers(const RecordingFile& f) {
    if (!GetParam().direct) return;
    const size_t align = f.GetRequiredBufferAlignment();
    for (const auto& t : f.transfers) {
      EXPECT_TRUE(IsAligned(t.offset, align)) << t.offset;
      EXPECT_TRUE(IsAligned(t.size, align)) << t.size;
      EXPECT_TRUE(t.address_aligned);
    }
  }

  std::unique_ptr<Env> mem_;
  Env* env_ = nullptr;
  std::unique_ptr<test::TempDir> dir_;
  EnvOptions options_;
};

TEST_P(WritableFileWriterTest, OddSizedAppendsWithFlushes) {
  RecordingFile* rec = nullptr;
  auto writer = NewWriter("odd", &rec);
  ASSERT_EQ(GetParam().direct, writer->use_direct_io());
  Random rnd(301);
  std::string expected;
  for (int i = 0; i < 300; i++) {
    std::string piece(1 + rnd.Uniform(i % 10 == 0 ? 20000 : 300),
                      static_cast<char>('a' + i % 26));
    expected += piece;
    ASSERT_TRUE(writer->Append(piece).ok());
    EXPECT_EQ(expected.size(), writer->GetFileSize());
    if (rnd.OneIn(5)) {
      ASSERT_TRUE(writer->Flush().ok());
      // Once flushed, a reader sees every byte (a direct file shows the
      // zero padding of its last page beyond them until Close).
      EXPECT_EQ(expected, Contents("odd").substr(0, expected.size()));
    }
  }
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ(expected, Contents("odd"));
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(dir_->File("odd"), &size).ok());
  EXPECT_EQ(expected.size(), size);
  ExpectAlignedTransfers(*rec);
  if (GetParam().direct) {
    ASSERT_FALSE(rec->truncated_to.empty());
    EXPECT_EQ(expected.size(), rec->truncated_to.back());
  }
}

// Behaviour of direct-I/O writers only / buffered writers only.
class DirectWriterTest : public WritableFileWriterTest {};
class BufferedWriterTest : public WritableFileWriterTest {};

TEST_P(DirectWriterTest, PartialTailPageIsRewrittenInPlace) {
  RecordingFile* rec = nullptr;
  auto writer = NewWriter("tail", &rec);
  const size_t align = rec->GetRequiredBufferAlignment();
  ASSERT_TRUE(writer->Append(std::string(align + 10, 'x')).ok());
  ASSERT_TRUE(writer->Flush().ok());
  ASSERT_TRUE(writer->Append(std::string(5, 'y')).ok());
  ASSERT_TRUE(writer->Sync(false).ok());
  ASSERT_TRUE(writer->Close().ok());
  ASSERT_EQ(2u, rec->transfers.size());
  // First: two pages from 0. Second: the partial page again, at align.
  EXPECT_EQ(0u, rec->transfers[0].offset);
  EXPECT_EQ(2 * align, rec->transfers[0].size);
  EXPECT_EQ(align, rec->transfers[1].offset);
  EXPECT_EQ(align, rec->transfers[1].size);
  EXPECT_EQ(1, rec->syncs);
  EXPECT_EQ(std::string(align + 10, 'x') + "yyyyy", Contents("tail"));
}

TEST_P(WritableFileWriterTest, LargeAppendsAndEmptyFile) {
  RecordingFile* rec = nullptr;
  auto writer = NewWriter("large", &rec);
  const std::string big(3 * 1024 * 1024 + 17, 'b');
  ASSERT_TRUE(writer->Append("head").ok());
  ASSERT_TRUE(writer->Append(big).ok());
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ("head" + big, Contents("large"));
  ExpectAlignedTransfers(*rec);
  // Close twice is harmless; appending after close is an error.
  EXPECT_TRUE(writer->Close().ok());
  EXPECT_FALSE(writer->Append("late").ok());

  auto empty = NewWriter("empty", &rec);
  ASSERT_TRUE(empty->Close().ok());
  EXPECT_EQ("", Contents("empty"));
}

TEST_P(WritableFileWriterTest, PreallocatesInBlocks) {
  RecordingFile* rec = nullptr;
  auto writer = NewWriter("prealloc", &rec);
  rec->SetPreallocationBlockSize(64 * 1024);
  for (int i = 0; i < 100; i++) {
    ASSERT_TRUE(writer->Append(std::string(3000, 'p')).ok());
  }
  ASSERT_TRUE(writer->Flush().ok());
  // Reserved space does not count in the size (a direct file may show its
  // zero-padded last page until Close).
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(dir_->File("prealloc"), &size).ok());
  EXPECT_GE(size, 300000u);
  EXPECT_LT(size, 300000u + rec->GetRequiredBufferAlignment());
  ASSERT_TRUE(writer->Close().ok());
  // 300000 bytes: five 64 KiB blocks, reserved as the writes reach them.
  ASSERT_FALSE(rec->allocations.empty());
  uint64_t reserved_end = 0;
  for (const auto& a : rec->allocations) {
    EXPECT_EQ(reserved_end, a.first);  // contiguous, in order
    EXPECT_EQ(0u, a.second % (64 * 1024));
    reserved_end = a.first + a.second;
  }
  EXPECT_EQ(5u * 64 * 1024, reserved_end);
  EXPECT_EQ(300000u, Contents("prealloc").size());
}

TEST_P(BufferedWriterTest, BytesPerSyncStartsWriteBack) {
  options_.bytes_per_sync = 64 * 1024;
  options_.writable_file_max_buffer_size = 16 * 1024;
  RecordingFile* rec = nullptr;
  auto writer = NewWriter("bps", &rec);
  for (int i = 0; i < 64; i++) {
    ASSERT_TRUE(writer->Append(std::string(4096, 's')).ok());
  }
  ASSERT_TRUE(writer->Close().ok());
  ASSERT_GE(rec->range_syncs.size(), 3u);
  uint64_t end = 0;
  for (const auto& r : rec->range_syncs) {
    EXPECT_EQ(end, r.first);
    EXPECT_GE(r.second, 64u * 1024);
    end = r.first + r.second;
  }
}

// A writer whose file failed is abandoned (DB::Resume after a WAL
// failure): what it still buffers never reaches the file, not even from
// its destructor.
TEST_P(BufferedWriterTest, AbandonDropsWhatIsBuffered) {
  RecordingFile* rec = nullptr;
  auto writer = NewWriter("abandoned", &rec);
  ASSERT_TRUE(writer->Append("written").ok());
  ASSERT_TRUE(writer->Flush().ok());
  ASSERT_TRUE(writer->Append("buffered").ok());
  ASSERT_TRUE(writer->Abandon().ok());
  EXPECT_EQ(7u, writer->GetFileSize());
  EXPECT_TRUE(writer->Append("x").IsIOError());  // closed
  EXPECT_TRUE(writer->Close().ok());
  writer.reset();
  EXPECT_EQ("written", Contents("abandoned"));
}

// A sync hands what is still buffered to the file together with the sync,
// so a write-through file can make it one durable write; with nothing
// buffered, or for Fsync, it is a plain sync.
TEST_P(BufferedWriterTest, SyncHandsTheBufferOverWithTheSync) {
  RecordingFile* rec = nullptr;
  auto writer = NewWriter("synced", &rec);
  ASSERT_TRUE(writer->Append("one;").ok());
  ASSERT_TRUE(writer->Append("two;").ok());
  ASSERT_TRUE(writer->Sync(/*use_fsync=*/false).ok());
  ASSERT_EQ(1u, rec->durable_appends.size());
  EXPECT_EQ("one;two;", rec->durable_appends[0]);
  EXPECT_TRUE(rec->transfers.empty());
  ASSERT_TRUE(writer->Sync(false).ok());  // nothing buffered
  EXPECT_EQ(1u, rec->durable_appends.size());
  EXPECT_EQ(1, rec->syncs);
  ASSERT_TRUE(writer->Append("three;").ok());
  ASSERT_TRUE(writer->Sync(/*use_fsync=*/true).ok());
  EXPECT_EQ(1u, rec->durable_appends.size());
  EXPECT_EQ(1u, rec->transfers.size());
  EXPECT_EQ(1, rec->fsyncs);
  EXPECT_EQ(14u, writer->GetFileSize());
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ("one;two;three;", Contents("synced"));
}

// A failed AppendAndSync may have written its bytes: the writer never
// hands them to the file a second time.
TEST_P(BufferedWriterTest, FailedSyncNeverRepeatsTheBytes) {
  RecordingFile* rec = nullptr;
  auto writer = NewWriter("failed-sync", &rec);
  ASSERT_TRUE(writer->Append("record;").ok());
  rec->fail_after_append = true;
  EXPECT_TRUE(writer->Sync(false).IsIOError());
  rec->fail_after_append = false;
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ("record;", Contents("failed-sync"));
}

TEST_P(DirectWriterTest, AppendToAnUnalignedFileIsRefused) {
  ASSERT_TRUE(WriteStringToFile(env_, "abc", dir_->File("odd-size")).ok());
  std::unique_ptr<WritableFile> file;
  ASSERT_TRUE(
      env_->ReopenWritableFile(dir_->File("odd-size"), &file, options_).ok());
  WritableFileWriter writer(std::move(file), dir_->File("odd-size"), options_);
  Status s = writer.Append("more");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ("abc", Contents("odd-size"));
}

std::string ParamName(const testing::TestParamInfo<WriterParam>& info) {
  return info.param.name;
}

const WriterParam kPlatformBuffered{"platform_buffered", false, false};
const WriterParam kPlatformDirect{"platform_direct", false, true};
const WriterParam kMemBuffered{"mem_buffered", true, false};
const WriterParam kMemDirect{"mem_direct", true, true};

INSTANTIATE_TEST_SUITE_P(Modes, WritableFileWriterTest,
                         testing::Values(kPlatformBuffered, kPlatformDirect,
                                         kMemBuffered, kMemDirect),
                         ParamName);
INSTANTIATE_TEST_SUITE_P(Modes, DirectWriterTest,
                         testing::Values(kPlatformDirect, kMemDirect),
                         ParamName);
INSTANTIATE_TEST_SUITE_P(Modes, BufferedWriterTest,
                         testing::Values(kPlatformBuffered, kMemBuffered),
                         ParamName);

}  // namespace
}  // namespace strata
