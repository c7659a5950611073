// What the platform Env (PosixEnv / WinEnv) must do beyond the shared
// contract, checked through the counters the Env keeps (IOStats) where the
// OS itself — Wine in particular — would not tell: direct-I/O alignment
// asked once per volume and never violated, preallocation that leaves the
// size alone, write-through syncs that issue no flush, long and relative
// paths.

#include <memory>
#include <string>
#include <vector>

#include "env/file_reader.h"
#include "env/file_writer.h"
#include "env/io_util.h"
#include "gtest/gtest.h"
#include "port/port.h"
#include "strata/env.h"
#include "strata/options.h"
#include "test/util/temp_dir.h"
#include "util/aligned_buffer.h"
#include "util/random.h"

namespace strata {
namespace {

class PlatformIOTest : public testing::Test {
 protected:
  PlatformIOTest() : env_(Env::Default()), dir_(env_, "platform") {}

  std::string Read(const std::string& path) {
    std::string data;
    Status s = ReadFileToString(env_, path, &data);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return data;
  }

  Env* const env_;
  test::TempDir dir_;
};

TEST_F(PlatformIOTest, DirectIOAlignmentIsQueriedOncePerVolume) {
  EnvOptions direct;
  direct.use_direct_writes = true;
  std::unique_ptr<WritableFile> first;
  ASSERT_TRUE(env_->NewWritableFile(dir_.File("f0"), &first, direct).ok());
  const size_t alignment = first->GetRequiredBufferAlignment();
  EXPECT_GE(alignment, 512u);
  EXPECT_EQ(0u, alignment & (alignment - 1)) << alignment;
#if defined(_WIN32)
  // Windows: max(page size, the volume's sector size).
  EXPECT_GE(alignment, port::GetPageSize());
#endif

  // The volume is known now: more files on it ask nothing more, however
  // their paths are spelled (a long one takes the \\?\ form on Windows).
  const uint64_t queries = GetIOStats().alignment_queries.load();
  for (int i = 1; i <= 20; i++) {
    std::unique_ptr<WritableFile> f;
    ASSERT_TRUE(
        env_->NewWritableFile(dir_.File("f" + std::to_string(i)), &f, direct)
            .ok());
    EXPECT_EQ(alignment, f->GetRequiredBufferAlignment());
  }
  const std::string long_dir = dir_.File(std::string(250, 'l'));
  ASSERT_TRUE(env_->CreateDir(long_dir).ok());
  std::unique_ptr<WritableFile> far;
  ASSERT_TRUE(env_->NewWritableFile(long_dir + "/far", &far, direct).ok());
  EXPECT_EQ(alignment, far->GetRequiredBufferAlignment());
  EXPECT_EQ(queries, GetIOStats().alignment_queries.load());
}

TEST_F(PlatformIOTest, DirectIOWorkloadHasZeroAlignmentViolations) {
  EnvOptions direct;
  direct.use_direct_writes = true;
  direct.use_direct_reads = true;
  const uint64_t violations = GetIOStats().misaligned_direct_io.load();

  // Odd-sized appends, flushes and syncs through the engine's writer...
  std::unique_ptr<WritableFile> file;
  ASSERT_TRUE(env_->NewWritableFile(dir_.File("data"), &file, direct).ok());
  file->SetPreallocationBlockSize(256 * 1024);
  WritableFileWriter writer(std::move(file), dir_.File("data"), direct);
  Random rnd(301);
  std::string expected;
  for (int i = 0; i < 400; i++) {
    std::string piece(1 + rnd.Uniform(9000), static_cast<char>('a' + i % 26));
    expected += piece;
    ASSERT_TRUE(writer.Append(piece).ok());
    if (rnd.OneIn(10)) {
      ASSERT_TRUE(writer.Flush().ok());
    }
    if (rnd.OneIn(40)) {
      ASSERT_TRUE(writer.Sync(false).ok());
    }
  }
  ASSERT_TRUE(writer.Close().ok());

  // ...and reads of any offset and length through the engine's readers.
  std::unique_ptr<RandomAccessFile> raw;
  ASSERT_TRUE(env_->NewRandomAccessFile(dir_.File("data"), &raw, direct).ok());
  RandomAccessFileReader reader(std::move(raw), dir_.File("data"));
  std::string scratch(20000, '\0');
  for (int i = 0; i < 500; i++) {
    const uint64_t offset = rnd.Uniform(static_cast<int>(expected.size()));
    const size_t n = 1 + rnd.Uniform(20000);
    Slice got;
    ASSERT_TRUE(reader.Read(offset, n, &got, &scratch[0]).ok());
    ASSERT_EQ(expected.substr(offset, n), got.ToString());
  }
  std::unique_ptr<SequentialFile> seq_raw;
  ASSERT_TRUE(
      env_->NewSequentialFile(dir_.File("data"), &seq_raw, direct).ok());
  SequentialFileReader seq(std::move(seq_raw), dir_.File("data"));
  std::string all;
  for (Slice got;;) {
    ASSERT_TRUE(seq.Read(7777, &got, &scratch[0]).ok());
    if (got.empty()) break;
    all.append(got.data(), got.size());
  }
  EXPECT_EQ(expected, all);
  EXPECT_EQ(violations, GetIOStats().misaligned_direct_io.load());
}

TEST_F(PlatformIOTest, PreallocationKeepsTheSizeAndToleratesRefusal) {
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(env_->NewWritableFile(dir_.File("pre"), &w, EnvOptions()).ok());
  IOStats& stats = GetIOStats();
  const uint64_t answered =
      stats.preallocations.load() + stats.preallocation_refusals.load();
  ASSERT_TRUE(w->Allocate(0, 4 << 20).ok());  // refused or not: OK
  // Each reservation is either granted or counted as refused.
  EXPECT_EQ(answered + 1,
            stats.preallocations.load() + stats.preallocation_refusals.load());
  uint64_t size = 1;
  ASSERT_TRUE(env_->GetFileSize(dir_.File("pre"), &size).ok());
  EXPECT_EQ(0u, size);
  ASSERT_TRUE(w->Append("after the reservation").ok());
  ASSERT_TRUE(env_->GetFileSize(dir_.File("pre"), &size).ok());
  EXPECT_EQ(21u, size);
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ("after the reservation", Read(dir_.File("pre")));
}

TEST_F(PlatformIOTest, PreallocationNeverShrinksTheFile) {
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(env_->NewWritableFile(dir_.File("grown"), &w, EnvOptions()).ok());
  const std::string data(64 * 1024, 'g');
  ASSERT_TRUE(w->Append(data).ok());
  IOStats& stats = GetIOStats();
  const uint64_t asked =
      stats.preallocations.load() + stats.preallocation_refusals.load();
  // Below the written size (on Windows an allocation size below the end of
  // file would move the end of file down): not even asked.
  ASSERT_TRUE(w->Allocate(0, 4096).ok());
  EXPECT_EQ(asked,
            stats.preallocations.load() + stats.preallocation_refusals.load());
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(dir_.File("grown"), &size).ok());
  EXPECT_EQ(data.size(), size);
  // Beyond it: asked once.
  ASSERT_TRUE(w->Allocate(0, 1 << 20).ok());
  EXPECT_EQ(asked + 1,
            stats.preallocations.load() + stats.preallocation_refusals.load());
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ(data, Read(dir_.File("grown")));
}

// A WAL opened write-through, as the engine opens it, and the flush and
// write-through counters since it was opened.
class WriteThroughLog {
 public:
  WriteThroughLog(Env* env, const std::string& fname) {
    DBOptions db;
    db.wal_write_through = true;
    const EnvOptions wal = env->OptimizeForLogWrite(EnvOptions(db), db);
    EXPECT_TRUE(wal.use_write_through);
    status_ = env->NewWritableFile(fname, &file_, wal);
  }

  Status status() const { return status_; }
  WritableFile* file() const { return file_.get(); }
  uint64_t Flushes() const { return io_.flushes.load() - flushes_; }
  uint64_t Through() const { return io_.write_through_syncs.load() - through_; }

 private:
  Status status_;
  std::unique_ptr<WritableFile> file_;
  IOStats& io_ = GetIOStats();
  const uint64_t flushes_ = io_.flushes.load();
  const uint64_t through_ = io_.write_through_syncs.load();
};

TEST_F(PlatformIOTest, WriteThroughAppendAndSyncIssuesNoFlush) {
  WriteThroughLog log(env_, dir_.File("000001.log"));
  ASSERT_TRUE(log.status().ok()) << log.status().ToString();
  std::string expected;
  for (int i = 0; i < 10; i++) {
    const std::string record = "record " + std::to_string(i) + ";";
    expected += record;
    ASSERT_TRUE(log.file()->AppendAndSync(record).ok());
    // Nothing is left to flush.
    ASSERT_TRUE(log.file()->Sync().ok());
  }
  EXPECT_EQ(0u, log.Flushes());
  EXPECT_EQ(20u, log.Through());
  EXPECT_EQ(expected.size(), log.file()->GetFileSize());
  ASSERT_TRUE(log.file()->Close().ok());
  EXPECT_EQ(expected, Read(dir_.File("000001.log")));
}

// Only synced writes pay for the device: a plain append goes through a
// buffered handle, so its sync needs a flush, and a durable write after
// plain appends flushes them first (else they could be lost while the
// later record survives).
TEST_F(PlatformIOTest, WriteThroughPlainAppendsStayBuffered) {
  WriteThroughLog log(env_, dir_.File("000003.log"));
  ASSERT_TRUE(log.status().ok()) << log.status().ToString();
  WritableFile* f = log.file();
  ASSERT_TRUE(f->Append("a;").ok());
  ASSERT_TRUE(f->Append("b;").ok());
  ASSERT_TRUE(f->AppendAndSync("c;").ok());
  EXPECT_EQ(1u, log.Flushes());
  EXPECT_EQ(1u, log.Through());
  ASSERT_TRUE(f->Append("d;").ok());
  ASSERT_TRUE(f->Sync().ok());
  EXPECT_EQ(2u, log.Flushes());
  ASSERT_TRUE(f->Sync().ok());  // already durable
  EXPECT_EQ(2u, log.Flushes());
  EXPECT_EQ(2u, log.Through());
  ASSERT_TRUE(f->Close().ok());
  EXPECT_EQ("a;b;c;d;", Read(dir_.File("000003.log")));
}

TEST_F(PlatformIOTest, PlainSyncIssuesOneFlush) {
  std::unique_ptr<WritableFile> log;
  ASSERT_TRUE(
      env_->NewWritableFile(dir_.File("000002.log"), &log, EnvOptions()).ok());
  IOStats& stats = GetIOStats();
  const uint64_t flushes = stats.flushes.load();
  const uint64_t through = stats.write_through_syncs.load();
  ASSERT_TRUE(log->Append("record").ok());
  ASSERT_TRUE(log->Sync().ok());
  EXPECT_EQ(flushes + 1, stats.flushes.load());
  EXPECT_EQ(through, stats.write_through_syncs.load());
}

TEST_F(PlatformIOTest, LongPathsWork) {
  // Nested directories to well past the 260 characters of MAX_PATH.
  std::string path = dir_.path();
  while (path.size() < 400) {
    path += "/" + std::string(40, 'd');
    ASSERT_TRUE(env_->CreateDir(path).ok()) << path.size();
  }
  const std::string file = path + "/" + std::string(60, 'f');
  ASSERT_GT(file.size(), 460u);
  ASSERT_TRUE(WriteStringToFile(env_, "long", file, true).ok());
  EXPECT_EQ("long", Read(file));
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(path, &children).ok());
  EXPECT_EQ((std::vector<std::string>{std::string(60, 'f')}), children);
  ASSERT_TRUE(env_->RenameFile(file, file + "2").ok());
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(file + "2", &size).ok());
  EXPECT_EQ(4u, size);
  FileLock* lock = nullptr;
  ASSERT_TRUE(env_->LockFile(path + "/LOCK", &lock).ok());
  ASSERT_TRUE(env_->UnlockFile(lock).ok());
  ASSERT_TRUE(env_->RemoveFile(file + "2").ok());
  EXPECT_TRUE(env_->FileExists(file + "2").IsNotFound());
}

TEST_F(PlatformIOTest, LongRelativePathsWork) {
  const std::string top = "strata-long-" + std::to_string(env_->NowMicros());
  std::string path = top;
  ASSERT_TRUE(env_->CreateDir(path).ok());
  while (path.size() < 300) {
    path += "/" + std::string(50, 'r');
    ASSERT_TRUE(env_->CreateDir(path).ok()) << path.size();
  }
  // "." and ".." inside a long path are resolved, not taken literally.
  ASSERT_TRUE(env_->CreateDir(path + "/x").ok());
  const std::string file = path + "/./x/../" + std::string(30, 'f');
  ASSERT_TRUE(WriteStringToFile(env_, "relative and long", file, true).ok());
  EXPECT_EQ("relative and long", Read(path + "/" + std::string(30, 'f')));
  std::string absolute;
  ASSERT_TRUE(env_->GetAbsolutePath(path, &absolute).ok());
  EXPECT_TRUE(env_->FileExists(absolute + "/" + std::string(30, 'f')).ok());
  ASSERT_TRUE(test::RemoveRecursively(env_, top).ok());
  EXPECT_TRUE(env_->FileExists(top).IsNotFound());
}

TEST_F(PlatformIOTest, RelativePathsResolve) {
  const std::string name =
      "strata-relative-" + std::to_string(env_->NowMicros()) + ".tmp";
  ASSERT_TRUE(WriteStringToFile(env_, "relative", name).ok());
  std::string absolute;
  ASSERT_TRUE(env_->GetAbsolutePath(name, &absolute).ok());
  EXPECT_GT(absolute.size(), name.size());
  EXPECT_EQ(name, absolute.substr(absolute.size() - name.size()));
  EXPECT_EQ("relative", Read(absolute));
  ASSERT_TRUE(env_->RemoveFile(name).ok());
  EXPECT_TRUE(env_->FileExists(absolute).IsNotFound());
}

TEST_F(PlatformIOTest, MemoryMappedFileBufferWritesTheFileInPlace) {
  const std::string fname = dir_.File("mapped");
  ASSERT_TRUE(WriteStringToFile(env_, "0123456789", fname, false).ok());
  std::unique_ptr<MemoryMappedFileBuffer> buffer;
  Status s = env_->NewMemoryMappedFileBuffer(fname, &buffer);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(10u, buffer->GetLen());
  char* base = static_cast<char*>(buffer->GetBase());
  EXPECT_EQ("0123456789", std::string(base, 10));
  // A store is the file's contents for every reader at once, while the
  // mapping is open; the size does not change.
  base[3] = 'x';
  EXPECT_EQ("012x456789", Read(fname));
  buffer.reset();
  EXPECT_EQ("012x456789", Read(fname));

  // An empty file maps to nothing; a missing one is not created.
  ASSERT_TRUE(WriteStringToFile(env_, "", dir_.File("empty"), false).ok());
  ASSERT_TRUE(
      env_->NewMemoryMappedFileBuffer(dir_.File("empty"), &buffer).ok());
  EXPECT_EQ(0u, buffer->GetLen());
  s = env_->NewMemoryMappedFileBuffer(dir_.File("missing"), &buffer);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_TRUE(env_->FileExists(dir_.File("missing")).IsNotFound());
}

TEST(EnvOptionsTest, DBOptionsChooseTheFileOptions) {
  DBOptions db;
  db.allow_mmap_reads = true;
  db.use_direct_io_for_flush_and_compaction = true;
  db.bytes_per_sync = 1 << 20;
  db.wal_bytes_per_sync = 512 << 10;
  db.wal_write_through = true;
  db.allow_fallocate = false;
  const EnvOptions data(db);
  EXPECT_TRUE(data.use_mmap_reads);
  EXPECT_TRUE(data.use_direct_writes);
  EXPECT_FALSE(data.use_direct_reads);
  EXPECT_FALSE(data.use_write_through);  // only the WAL
  EXPECT_EQ(1u << 20, data.bytes_per_sync);
  EXPECT_FALSE(data.allow_fallocate);

  Env* env = Env::Default();
  // The WAL stays buffered and takes its own byte count and write-through.
  const EnvOptions wal = env->OptimizeForLogWrite(data, db);
  EXPECT_FALSE(wal.use_direct_writes);
  EXPECT_FALSE(wal.use_mmap_writes);
  EXPECT_TRUE(wal.use_write_through);
  EXPECT_EQ(512u << 10, wal.bytes_per_sync);
  // So does the MANIFEST, without write-through.
  const EnvOptions manifest = env->OptimizeForManifestWrite(wal);
  EXPECT_FALSE(manifest.use_direct_writes);
  EXPECT_FALSE(manifest.use_write_through);
  EXPECT_EQ(Env::Default(), DBOptions().env);
}

}  // namespace
}  // namespace strata
