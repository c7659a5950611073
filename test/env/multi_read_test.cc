// RandomAccessFile::MultiRead and the engine's ReadBatch: every request
// gets the bytes a Read of it gets (short at the end of the file, empty
// past it, refused when misaligned with direct I/O), and the reads of the
// OS Envs' files are in flight together (io_uring on Linux, overlapped
// ReadFile on Windows; IOStats counts them), across several files and a
// file of another Env in one batch. Where no ring is to be had the reads
// go one by one with the same results.

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "env/file_reader.h"
#include "env/io_util.h"
#include "env/os_file.h"
#include "env/read_batch.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/read_ring.h"
#include "test/util/temp_dir.h"
#include "util/aligned_buffer.h"
#include "util/random.h"

namespace strata {
namespace {

// Not a multiple of a page: reads near the end are short.
constexpr size_t kReadFileSize = 5 * 65536 + 777;

char FileByte(int file, uint64_t i) {
  return static_cast<char>(((i + 131 * file) * 2654435761u) >> 13);
}

std::string FileContents(int file) {
  std::string data(kReadFileSize, '\0');
  for (size_t i = 0; i < kReadFileSize; i++) data[i] = FileByte(file, i);
  return data;
}

// "" if got is what a read of n bytes at offset of file must return.
std::string CheckBytes(int file, uint64_t offset, size_t n, const Status& s,
                       const Slice& got) {
  const std::string where = "file " + std::to_string(file) + ", " +
                            std::to_string(n) + " bytes at " +
                            std::to_string(offset);
  if (!s.ok()) return where + ": " + s.ToString();
  const size_t expected =
      offset >= kReadFileSize
          ? 0
          : std::min<size_t>(n, kReadFileSize - static_cast<size_t>(offset));
  if (got.size() != expected) {
    return where + ": got " + std::to_string(got.size()) + " bytes";
  }
  for (size_t i = 0; i < got.size(); i++) {
    if (got[i] != FileByte(file, offset + i)) {
      return where + ": wrong byte at " + std::to_string(offset + i);
    }
  }
  return "";
}

class MultiReadTest : public testing::Test {
 protected:
  MultiReadTest() : env_(Env::Default()), dir_(env_, "multi_read") {
    for (int f = 0; f < 3; f++) {
      Status s = WriteStringToFile(env_, FileContents(f), Path(f), false);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
  }

  std::string Path(int file) const {
    return dir_.File("00000" + std::to_string(file) + ".sst");
  }

  std::unique_ptr<RandomAccessFile> Open(int file, bool direct) {
    EnvOptions options;
    options.use_direct_reads = direct;
    std::unique_ptr<RandomAccessFile> f;
    Status s = env_->NewRandomAccessFile(Path(file), &f, options);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return f;
  }

  // Requests of random lengths at random offsets, all inside the file
  // (aligned to alignment when it is not 1), into buffers of their own.
  std::vector<ReadRequest> RandomRequests(
      size_t count, size_t alignment,
      std::vector<std::unique_ptr<AlignedBuffer>>* bufs) {
    std::vector<ReadRequest> reqs(count);
    bufs->clear();
    for (size_t i = 0; i < count; i++) {
      size_t len = 1 + rnd_.Uniform(20000);
      uint64_t offset = rnd_.Uniform(static_cast<int>(kReadFileSize - len));
      if (alignment > 1) {
        offset = TruncateToAlignment(offset, alignment);
        len = static_cast<size_t>(RoundUpToAlignment(len, alignment));
        if (offset + len > kReadFileSize) offset -= alignment;
      }
      bufs->emplace_back(new AlignedBuffer);
      bufs->back()->Alignment(alignment > 1 ? alignment : 8);
      bufs->back()->AllocateNewBuffer(len);
      reqs[i].offset = offset;
      reqs[i].len = len;
      reqs[i].scratch = bufs->back()->BufferStart();
    }
    return reqs;
  }

  Env* const env_;
  test::TempDir dir_;
  Random rnd_{301};
};

TEST_F(MultiReadTest, EveryRequestGetsWhatReadGetsAllInFlightTogether) {
  std::unique_ptr<RandomAccessFile> file = Open(0, /*direct=*/false);
  std::vector<std::unique_ptr<AlignedBuffer>> bufs;
  std::vector<ReadRequest> reqs = RandomRequests(150, 1, &bufs);
  const uint64_t together = GetIOStats().reads_together.load();
  ASSERT_TRUE(file->MultiRead(reqs.data(), reqs.size()).ok());
  for (const ReadRequest& r : reqs) {
    ASSERT_EQ(CheckBytes(0, r.offset, r.len, r.status, r.result), "");
  }
  // 150 requests: more than one ring's worth, so they went in rounds.
  EXPECT_EQ(GetIOStats().reads_together.load() - together,
            test::RingOrOverlapped() ? reqs.size() : 0u);
}

TEST_F(MultiReadTest, ShortAtTheEndEmptyPastItLikeRead) {
  std::unique_ptr<RandomAccessFile> file = Open(1, /*direct=*/false);
  std::vector<std::string> bufs(4, std::string(4096, '\0'));
  std::vector<ReadRequest> reqs(4);
  const uint64_t offsets[] = {kReadFileSize - 100, kReadFileSize,
                              kReadFileSize + 5000, 0};
  for (size_t i = 0; i < reqs.size(); i++) {
    reqs[i].offset = offsets[i];
    reqs[i].len = bufs[i].size();
    reqs[i].scratch = &bufs[i][0];
  }
  ASSERT_TRUE(file->MultiRead(reqs.data(), reqs.size()).ok());
  for (const ReadRequest& r : reqs) {
    ASSERT_EQ(CheckBytes(1, r.offset, r.len, r.status, r.result), "");
  }
  EXPECT_EQ(reqs[0].result.size(), 100u);
  EXPECT_EQ(reqs[1].result.size(), 0u);
  EXPECT_EQ(reqs[2].result.size(), 0u);
}

TEST_F(MultiReadTest, DirectReadsAlignedReadMisalignedRefusedAlone) {
  std::unique_ptr<RandomAccessFile> file = Open(2, /*direct=*/true);
  ASSERT_TRUE(file->use_direct_io());
  const size_t alignment = file->GetRequiredBufferAlignment();
  std::vector<std::unique_ptr<AlignedBuffer>> bufs;
  std::vector<ReadRequest> reqs = RandomRequests(40, alignment, &bufs);
  // One request off by a byte: refused, and only it.
  reqs[17].offset += 1;
  const uint64_t refused = GetIOStats().misaligned_direct_io.load();
  ASSERT_TRUE(file->MultiRead(reqs.data(), reqs.size()).ok());
  for (size_t i = 0; i < reqs.size(); i++) {
    const ReadRequest& r = reqs[i];
    if (i == 17) {
      EXPECT_TRUE(r.status.IsInvalidArgument()) << r.status.ToString();
      EXPECT_EQ(r.result.size(), 0u);
      continue;
    }
    ASSERT_EQ(CheckBytes(2, r.offset, r.len, r.status, r.result), "") << i;
  }
  EXPECT_EQ(GetIOStats().misaligned_direct_io.load() - refused, 1u);
}

TEST_F(MultiReadTest, WithoutARingTheReadsGoOneByOneAlike) {
  // The refusal is the thread's: a thread of its own.
  std::thread([&] {
    OsRandomAccessFile::TEST_RefuseReadRing();
    std::unique_ptr<RandomAccessFile> file = Open(0, /*direct=*/false);
    std::vector<std::unique_ptr<AlignedBuffer>> bufs;
    std::vector<ReadRequest> reqs = RandomRequests(20, 1, &bufs);
    const uint64_t together = GetIOStats().reads_together.load();
    const uint64_t alone = GetIOStats().reads_one_by_one.load();
    ASSERT_TRUE(file->MultiRead(reqs.data(), reqs.size()).ok());
    for (const ReadRequest& r : reqs) {
      ASSERT_EQ(CheckBytes(0, r.offset, r.len, r.status, r.result), "");
    }
#if defined(_WIN32)
    // Overlapped reads need no ring: nothing to refuse.
    EXPECT_EQ(GetIOStats().reads_together.load() - together, reqs.size());
    EXPECT_EQ(GetIOStats().reads_one_by_one.load() - alone, 0u);
#else
    EXPECT_EQ(GetIOStats().reads_together.load() - together, 0u);
    EXPECT_EQ(GetIOStats().reads_one_by_one.load() - alone, reqs.size());
#endif
  }).join();
}

// A batch over three OS files (one direct, at unaligned offsets) and a
// file of a MemEnv: each read sees its own file's bytes.
TEST_F(MultiReadTest, ReadBatchAcrossFilesAndEnvs) {
  std::unique_ptr<Env> mem(NewMemEnv(env_));
  ASSERT_TRUE(
      WriteStringToFile(mem.get(), FileContents(3), "/mem.sst", false).ok());
  std::vector<std::unique_ptr<RandomAccessFileReader>> readers;
  for (int f = 0; f < 4; f++) {
    std::unique_ptr<RandomAccessFile> file;
    if (f < 3) {
      file = Open(f, /*direct=*/f == 2);
    } else {
      ASSERT_TRUE(
          mem->NewRandomAccessFile("/mem.sst", &file, EnvOptions()).ok());
    }
    readers.emplace_back(new RandomAccessFileReader(
        std::move(file), "file" + std::to_string(f)));
  }
  ReadBatch batch;
  struct Want {
    int file;
    uint64_t offset;
    size_t n;
    const BatchRead* read;
  };
  std::vector<Want> wants;
  for (int i = 0; i < 60; i++) {
    const int f = i % 4;
    const size_t n = 1 + rnd_.Uniform(9000);
    const uint64_t offset = rnd_.Uniform(static_cast<int>(kReadFileSize + 100));
    wants.push_back(Want{f, offset, n, batch.Add(readers[f].get(), offset, n)});
  }
  const uint64_t together = GetIOStats().reads_together.load();
  batch.Run();
  for (const Want& w : wants) {
    ASSERT_TRUE(w.read->done);
    ASSERT_EQ(CheckBytes(w.file, w.offset, w.n, w.read->status, w.read->result),
              "");
  }
  // The OS files' 45 reads went together, at least those of the buffered
  // files that end inside the file (a short read may be finished by pread,
  // counted apart); the MemEnv's 15 went through its MultiRead.
  size_t inside = 0;
  for (const Want& w : wants) {
    if (w.file < 2 && w.offset + w.n <= kReadFileSize) inside++;
  }
  const uint64_t counted = GetIOStats().reads_together.load() - together;
  if (test::RingOrOverlapped()) {
    EXPECT_GE(counted, inside);
    EXPECT_LE(counted, 45u);
  } else {
    EXPECT_EQ(counted, 0u);
  }
  // A second Run reads only what was added since.
  const BatchRead* more = batch.Add(readers[0].get(), 10, 20);
  batch.Run();
  ASSERT_EQ(CheckBytes(0, 10, 20, more->status, more->result), "");
  EXPECT_EQ(batch.size(), wants.size() + 1);
}

}  // namespace
}  // namespace strata
