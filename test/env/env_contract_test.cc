// The Env contract: what every Env (the platform's, the in-memory one, and
// the fault-injection wrapper with no faults armed) must do alike.

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "env/io_util.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/fault_injection_env.h"
#include "test/util/temp_dir.h"
#include "util/aligned_buffer.h"
#include "util/random.h"

namespace strata {
namespace {

struct EnvKind {
  const char* name;
  // Builds the Env under test; an owned one is kept in *owned.
  std::function<Env*(std::unique_ptr<Env>* owned)> make;
  bool has_disk;  // a real file system (free space, mmap, hard links)
};

void PrintTo(const EnvKind& kind, std::ostream* os) { *os << kind.name; }

class EnvContractTest : public testing::TestWithParam<EnvKind> {
 protected:
  void SetUp() override {
    env_ = GetParam().make(&owned_);
    dir_.reset(new test::TempDir(env_, "contract"));
  }
  void TearDown() override {
    dir_.reset();
    owned_.reset();
  }

  std::string File(const std::string& name) { return dir_->File(name); }

  void Write(const std::string& name, const std::string& data) {
    ASSERT_TRUE(WriteStringToFile(env_, data, File(name)).ok());
  }

  std::string Read(const std::string& name) {
    std::string data;
    Status s = ReadFileToString(env_, File(name), &data);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return data;
  }

  static std::string Pattern(size_t n, uint32_t seed) {
    Random rnd(seed);
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>('a' + rnd.Uniform(26));
    return s;
  }

  Env* env_ = nullptr;
  std::unique_ptr<Env> owned_;
  std::unique_ptr<test::TempDir> dir_;
};

TEST_P(EnvContractTest, SequentialWriteAndRead) {
  const std::string data = Pattern(100000, 1);
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(env_->NewWritableFile(File("seq"), &w, EnvOptions()).ok());
  for (size_t off = 0; off < data.size(); off += 7777) {
    ASSERT_TRUE(w->Append(Slice(data).ToStringView().substr(off, 7777)).ok());
  }
  EXPECT_EQ(data.size(), w->GetFileSize());
  ASSERT_TRUE(w->Close().ok());

  std::unique_ptr<SequentialFile> r;
  ASSERT_TRUE(env_->NewSequentialFile(File("seq"), &r, EnvOptions()).ok());
  std::string scratch(5000, '\0');
  Slice got;
  ASSERT_TRUE(r->Read(10, &got, &scratch[0]).ok());
  EXPECT_EQ(data.substr(0, 10), got.ToString());
  ASSERT_TRUE(r->Skip(90).ok());
  std::string rest;
  while (true) {
    ASSERT_TRUE(r->Read(scratch.size(), &got, &scratch[0]).ok());
    if (got.empty()) break;
    rest.append(got.data(), got.size());
  }
  EXPECT_EQ(data.substr(100), rest);
  // At end of file: empty reads, not errors.
  ASSERT_TRUE(r->Read(10, &got, &scratch[0]).ok());
  EXPECT_TRUE(got.empty());
}

TEST_P(EnvContractTest, PositionalReadAndWrite) {
  std::unique_ptr<RandomRWFile> rw;
  ASSERT_TRUE(env_->NewRandomRWFile(File("rw"), &rw, EnvOptions()).ok());
  ASSERT_TRUE(rw->Write(0, "0123456789").ok());
  ASSERT_TRUE(rw->Write(20, "abc").ok());  // leaves a hole
  ASSERT_TRUE(rw->Write(5, "XY").ok());    // overwrites in place
  char scratch[64];
  Slice got;
  ASSERT_TRUE(rw->Read(3, 5, &got, scratch).ok());
  EXPECT_EQ("34XY7", got.ToString());
  ASSERT_TRUE(rw->Sync().ok());
  ASSERT_TRUE(rw->Close().ok());

  std::unique_ptr<RandomAccessFile> r;
  ASSERT_TRUE(env_->NewRandomAccessFile(File("rw"), &r, EnvOptions()).ok());
  ASSERT_TRUE(r->Read(0, 23, &got, scratch).ok());
  EXPECT_EQ(std::string("01234XY789") + std::string(10, '\0') + "abc",
            got.ToString());
  // A read past the end is short; one beyond it is empty.
  ASSERT_TRUE(r->Read(21, 10, &got, scratch).ok());
  EXPECT_EQ("bc", got.ToString());
  ASSERT_TRUE(r->Read(1000, 10, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
}

TEST_P(EnvContractTest, PositionalReadsFromEightThreadsOnOneFile) {
  const std::string data = Pattern(1 << 20, 2);
  Write("shared", data);
  std::unique_ptr<RandomAccessFile> r;
  ASSERT_TRUE(env_->NewRandomAccessFile(File("shared"), &r, EnvOptions()).ok());
  std::atomic<int> mismatches{0};
  std::atomic<int> reads{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; t++) {
    threads.emplace_back([&, t] {
      Random rnd(100 + t);
      std::string scratch(8192, '\0');
      for (int i = 0; i < 500; i++) {
        const uint64_t offset = rnd.Uniform(static_cast<int>(data.size()));
        const size_t n = 1 + rnd.Uniform(8192);
        Slice got;
        Status s = r->Read(offset, n, &got, &scratch[0]);
        const size_t expect_n = std::min<size_t>(n, data.size() - offset);
        if (!s.ok() || got.ToString() != data.substr(offset, expect_n)) {
          mismatches++;
        }
        reads++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(4000, reads.load());
  EXPECT_EQ(0, mismatches.load());
}

TEST_P(EnvContractTest, AppendSyncReopen) {
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(env_->NewWritableFile(File("log"), &w, EnvOptions()).ok());
  ASSERT_TRUE(w->Append("first;").ok());
  ASSERT_TRUE(w->Flush().ok());
  ASSERT_TRUE(w->Sync().ok());
  ASSERT_TRUE(w->Fsync().ok());
  ASSERT_TRUE(w->Close().ok());

  ASSERT_TRUE(env_->ReopenWritableFile(File("log"), &w, EnvOptions()).ok());
  EXPECT_EQ(6u, w->GetFileSize());
  ASSERT_TRUE(w->Append("second").ok());
  ASSERT_TRUE(w->Sync().ok());
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ("first;second", Read("log"));
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(File("log"), &size).ok());
  EXPECT_EQ(12u, size);

  // NewWritableFile truncates; ReopenWritableFile creates a missing file.
  ASSERT_TRUE(env_->NewWritableFile(File("log"), &w, EnvOptions()).ok());
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ("", Read("log"));
  ASSERT_TRUE(env_->ReopenWritableFile(File("new"), &w, EnvOptions()).ok());
  ASSERT_TRUE(w->Append("x").ok());
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ("x", Read("new"));
}

TEST_P(EnvContractTest, TruncateAndPreallocationKeepTheLogicalSize) {
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(env_->NewWritableFile(File("pre"), &w, EnvOptions()).ok());
  w->SetPreallocationBlockSize(1 << 20);
  w->PrepareWrite(0, 10);
  ASSERT_TRUE(w->Append("0123456789").ok());
  // The reservation lies beyond the end: the file's size is the data's.
  uint64_t reserved_size = 0;
  ASSERT_TRUE(env_->GetFileSize(File("pre"), &reserved_size).ok());
  EXPECT_EQ(10u, reserved_size);
  ASSERT_TRUE(w->Truncate(4).ok());
  EXPECT_EQ(4u, w->GetFileSize());
  ASSERT_TRUE(w->Append("ab").ok());
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ("0123ab", Read("pre"));
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(File("pre"), &size).ok());
  EXPECT_EQ(6u, size);
}

TEST_P(EnvContractTest, MmapWritesAppendReopenAndTrim) {
  EnvOptions mmap;
  mmap.use_mmap_writes = true;
  Random rnd(7);
  std::string expected;
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(env_->NewWritableFile(File("mapped"), &w, mmap).ok());
  for (int i = 0; i < 200; i++) {
    std::string piece(1 + rnd.Uniform(5000), static_cast<char>('a' + i % 26));
    expected += piece;
    ASSERT_TRUE(w->Append(piece).ok());
    EXPECT_EQ(expected.size(), w->GetFileSize());
    if (i % 50 == 49) {
      ASSERT_TRUE(w->Sync().ok());
    }
  }
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ(expected, Read("mapped"));  // trimmed to the data

  // Reopened, it continues at the end.
  ASSERT_TRUE(env_->ReopenWritableFile(File("mapped"), &w, mmap).ok());
  EXPECT_EQ(expected.size(), w->GetFileSize());
  ASSERT_TRUE(w->Append("tail").ok());
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ(expected + "tail", Read("mapped"));
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(File("mapped"), &size).ok());
  EXPECT_EQ(expected.size() + 4, size);

  // A mapped file says it cannot truncate rather than pretend to.
  ASSERT_TRUE(env_->ReopenWritableFile(File("mapped"), &w, mmap).ok());
  Status s = w->Truncate(10);
  if (!s.ok()) {
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  }
  ASSERT_TRUE(w->Close().ok());
  ASSERT_TRUE(env_->GetFileSize(File("mapped"), &size).ok());
  EXPECT_EQ(s.ok() ? 10u : expected.size() + 4, size);
}

TEST_P(EnvContractTest, DirectIOAlignment) {
  EnvOptions direct;
  direct.use_direct_writes = true;
  direct.use_direct_reads = true;
  std::unique_ptr<WritableFile> w;
  Status s = env_->NewWritableFile(File("direct"), &w, direct);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(w->use_direct_io());
  const size_t align = w->GetRequiredBufferAlignment();
  ASSERT_GE(align, 512u);
  ASSERT_EQ(0u, align & (align - 1));

  AlignedBuffer buf;
  buf.Alignment(align);
  buf.AllocateNewBuffer(4 * align);
  std::string data = Pattern(4 * align, 3);
  buf.Append(data.data(), data.size());
  char* p = buf.BufferStart();

  // Aligned offset, length and address: accepted.
  s = w->PositionedAppend(Slice(p, 2 * align), 0);
  ASSERT_TRUE(s.ok()) << s.ToString();
  s = w->Append(Slice(p + 2 * align, align));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(3 * align, w->GetFileSize());

  // Each kind of misalignment is refused by the Env and counted.
  const uint64_t before = GetIOStats().misaligned_direct_io.load();
  s = w->PositionedAppend(Slice(p, align), 1);  // offset
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(File("direct")));
  s = w->PositionedAppend(Slice(p, align - 1), 0);  // length
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = w->PositionedAppend(Slice(p + 1, align), 0);  // address
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(before + 3, GetIOStats().misaligned_direct_io.load());
  ASSERT_TRUE(w->Close().ok());

  std::unique_ptr<RandomAccessFile> r;
  s = env_->NewRandomAccessFile(File("direct"), &r, direct);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(r->use_direct_io());
  AlignedBuffer rbuf;
  rbuf.Alignment(align);
  rbuf.AllocateNewBuffer(4 * align);
  Slice got;
  s = r->Read(align, 2 * align, &got, rbuf.BufferStart());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(data.substr(align, 2 * align), got.ToString());
  EXPECT_TRUE(r->Read(1, align, &got, rbuf.BufferStart()).IsInvalidArgument());
  EXPECT_TRUE(r->Read(0, 100, &got, rbuf.BufferStart()).IsInvalidArgument());
  EXPECT_TRUE(
      r->Read(0, align, &got, rbuf.BufferStart() + 8).IsInvalidArgument());
  EXPECT_EQ(before + 6, GetIOStats().misaligned_direct_io.load());

  std::unique_ptr<SequentialFile> seq;
  ASSERT_TRUE(env_->NewSequentialFile(File("direct"), &seq, direct).ok());
  ASSERT_TRUE(seq->use_direct_io());
  s = seq->PositionedRead(0, align, &got, rbuf.BufferStart());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(data.substr(0, align), got.ToString());
  EXPECT_TRUE(seq->PositionedRead(3, align, &got, rbuf.BufferStart())
                  .IsInvalidArgument());
}

TEST_P(EnvContractTest, RenameAFileThatIsStillOpen) {
  Write("before", "contents");
  std::unique_ptr<RandomAccessFile> r;
  ASSERT_TRUE(env_->NewRandomAccessFile(File("before"), &r, EnvOptions()).ok());
  Status s = env_->RenameFile(File("before"), File("after"));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(env_->FileExists(File("before")).IsNotFound());
  EXPECT_TRUE(env_->FileExists(File("after")).ok());
  char scratch[16];
  Slice got;
  ASSERT_TRUE(r->Read(0, 8, &got, scratch).ok());
  EXPECT_EQ("contents", got.ToString());

  // A new file can take the old name while the renamed one is open.
  Write("before", "second");
  EXPECT_EQ("second", Read("before"));
  ASSERT_TRUE(r->Read(0, 8, &got, scratch).ok());
  EXPECT_EQ("contents", got.ToString());
}

TEST_P(EnvContractTest, RenameOntoADirectoryFails) {
  Write("f", "data");
  ASSERT_TRUE(env_->CreateDir(File("d")).ok());
  EXPECT_FALSE(env_->RenameFile(File("f"), File("d")).ok());
  bool is_dir = false;
  ASSERT_TRUE(env_->IsDirectory(File("d"), &is_dir).ok());
  EXPECT_TRUE(is_dir);
  EXPECT_EQ("data", Read("f"));
}

TEST_P(EnvContractTest, RenameReplacesTheTargetAtomically) {
  Write("new", "new contents");
  Write("target", "old contents");
  ASSERT_TRUE(env_->RenameFile(File("new"), File("target")).ok());
  EXPECT_EQ("new contents", Read("target"));
  EXPECT_TRUE(env_->FileExists(File("new")).IsNotFound());
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(dir_->path(), &children).ok());
  EXPECT_EQ((std::vector<std::string>{"target"}), children);
}

TEST_P(EnvContractTest, DeleteAFileThatIsStillOpen) {
  Write("doomed", "still readable");
  std::unique_ptr<SequentialFile> r;
  ASSERT_TRUE(env_->NewSequentialFile(File("doomed"), &r, EnvOptions()).ok());
  Status s = env_->RemoveFile(File("doomed"));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(env_->FileExists(File("doomed")).IsNotFound());
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(dir_->path(), &children).ok());
  EXPECT_TRUE(children.empty());
  // The name is free again at once.
  Write("doomed", "reborn");
  EXPECT_EQ("reborn", Read("doomed"));
  char scratch[32];
  Slice got;
  ASSERT_TRUE(r->Read(sizeof(scratch), &got, scratch).ok());
  EXPECT_EQ("still readable", got.ToString());
  r.reset();
  ASSERT_TRUE(env_->RemoveFile(File("doomed")).ok());
}

TEST_P(EnvContractTest, SecondLockFailsClearly) {
  const std::string name = File("LOCK");
  FileLock* lock = nullptr;
  ASSERT_TRUE(env_->LockFile(name, &lock).ok());
  ASSERT_NE(nullptr, lock);
  EXPECT_TRUE(env_->FileExists(name).ok());

  FileLock* second = nullptr;
  Status s = env_->LockFile(name, &second);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_TRUE(s.IsLockHeld()) << s.ToString();
  EXPECT_EQ(nullptr, second);
  EXPECT_NE(std::string::npos, s.ToString().find(name)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("lock held")) << s.ToString();

  // Another spelling of the same path is the same lock.
  s = env_->LockFile(dir_->path() + "//LOCK", &second);
  EXPECT_TRUE(s.IsLockHeld()) << s.ToString();

  // Reading the lock file (opening and closing it again) keeps the lock.
  std::string contents;
  ASSERT_TRUE(ReadFileToString(env_, name, &contents).ok());
  EXPECT_TRUE(env_->LockFile(name, &second).IsLockHeld());

  ASSERT_TRUE(env_->UnlockFile(lock).ok());
  ASSERT_TRUE(env_->LockFile(name, &lock).ok());
  ASSERT_TRUE(env_->UnlockFile(lock).ok());
}

TEST_P(EnvContractTest, GetChildren) {
  Write("a", "1");
  Write("b.log", "2");
  ASSERT_TRUE(env_->CreateDir(File("sub")).ok());
  Write("sub/inner", "3");  // not a child of the top directory
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(dir_->path(), &children).ok());
  std::sort(children.begin(), children.end());
  EXPECT_EQ((std::vector<std::string>{"a", "b.log", "sub"}), children);

  bool is_dir = false;
  ASSERT_TRUE(env_->IsDirectory(File("sub"), &is_dir).ok());
  EXPECT_TRUE(is_dir);
  ASSERT_TRUE(env_->IsDirectory(File("a"), &is_dir).ok());
  EXPECT_FALSE(is_dir);

  Status s = env_->GetChildren(File("missing"), &children);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
}

TEST_P(EnvContractTest, Utf8Names) {
  // "ünïcødé-文" spelled in UTF-8 bytes.
  const std::string name =
      "\xc3\xbc"
      "n"
      "\xc3\xaf"
      "c"
      "\xc3\xb8"
      "d"
      "\xc3\xa9"
      "-\xe6\x96\x87";
  Write(name, "utf8");
  EXPECT_EQ("utf8", Read(name));
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(dir_->path(), &children).ok());
  EXPECT_EQ((std::vector<std::string>{name}), children);
}

TEST_P(EnvContractTest, DirectoriesAndMetadata) {
  ASSERT_TRUE(env_->CreateDir(File("d")).ok());
  EXPECT_FALSE(env_->CreateDir(File("d")).ok());  // exists
  ASSERT_TRUE(env_->CreateDirIfMissing(File("d")).ok());
  EXPECT_FALSE(env_->RemoveFile(File("d")).ok());  // not a file
  bool is_dir = false;
  ASSERT_TRUE(env_->IsDirectory(File("d"), &is_dir).ok());
  EXPECT_TRUE(is_dir);
  Write("d/f", "x");
  Status s = env_->RemoveDir(File("d"));
  EXPECT_FALSE(s.ok()) << "a non-empty directory was removed";
  std::unique_ptr<Directory> d;
  ASSERT_TRUE(env_->NewDirectory(File("d"), &d).ok());
  EXPECT_TRUE(d->Fsync().ok());
  ASSERT_TRUE(env_->RemoveFile(File("d/f")).ok());
  ASSERT_TRUE(env_->RemoveDir(File("d")).ok());
  EXPECT_TRUE(env_->FileExists(File("d")).IsNotFound());

  Write("m", "mtime");
  uint64_t mtime = 0;
  ASSERT_TRUE(env_->GetFileModificationTime(File("m"), &mtime).ok());
  const uint64_t now = env_->NowMicros() / 1000000;
  EXPECT_LE(mtime, now + 2);
  EXPECT_GE(mtime + 60, now);

  std::string abs;
  ASSERT_TRUE(env_->GetAbsolutePath(File("m"), &abs).ok());
  EXPECT_FALSE(abs.empty());
}

TEST_P(EnvContractTest, FreeSpaceLinksAndMmap) {
  Write("data", "mapped bytes");
  uint64_t free_bytes = 0;
  Status s = env_->GetFreeDiskSpace(dir_->path(), &free_bytes);
  if (GetParam().has_disk) {
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_GT(free_bytes, 0u);
  } else {
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  }

  s = env_->LinkFile(File("data"), File("link"));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ("mapped bytes", Read("link"));

  EnvOptions mmap;
  mmap.use_mmap_reads = true;
  std::unique_ptr<RandomAccessFile> r;
  ASSERT_TRUE(env_->NewRandomAccessFile(File("data"), &r, mmap).ok());
  char scratch[32];
  Slice got;
  ASSERT_TRUE(r->Read(7, 100, &got, scratch).ok());
  EXPECT_EQ("bytes", got.ToString());
  ASSERT_TRUE(r->Read(100, 1, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
  Write("empty", "");
  ASSERT_TRUE(env_->NewRandomAccessFile(File("empty"), &r, mmap).ok());
  ASSERT_TRUE(r->Read(0, 1, &got, scratch).ok());
  EXPECT_TRUE(got.empty());

  // A writable mapping is the OS's. An in-memory Env refuses it rather
  // than map a file of the same name on disk, and the fault-injection Env
  // because stores through it would escape the simulated power loss.
  std::unique_ptr<MemoryMappedFileBuffer> buffer;
  s = env_->NewMemoryMappedFileBuffer(File("data"), &buffer);
  if (std::string(GetParam().name) == "platform") {
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(12u, buffer->GetLen());
  } else {
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
    EXPECT_EQ(nullptr, buffer);
  }
}

TEST_P(EnvContractTest, ErrorsNameThePathAndHaveTheRightCode) {
  const std::string missing = File("no-such-file");
  std::unique_ptr<SequentialFile> seq;
  Status s = env_->NewSequentialFile(missing, &seq, EnvOptions());
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(missing)) << s.ToString();

  std::unique_ptr<RandomAccessFile> ra;
  s = env_->NewRandomAccessFile(missing, &ra, EnvOptions());
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();

  std::unique_ptr<WritableFile> w;
  const std::string in_missing_dir = File("no-such-dir/file");
  s = env_->NewWritableFile(in_missing_dir, &w, EnvOptions());
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(in_missing_dir));

  s = env_->RemoveFile(missing);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  uint64_t size;
  s = env_->GetFileSize(missing, &size);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  s = env_->RenameFile(missing, File("x"));
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_TRUE(env_->FileExists(missing).IsNotFound());

  // An existing directory where a file is expected is an I/O error, not
  // "not found".
  ASSERT_TRUE(env_->CreateDir(File("dir")).ok());
  s = env_->CreateDir(File("dir"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(File("dir")));
}

TEST_P(EnvContractTest, InjectedNoSpaceAndIOErrorsNameThePath) {
  test::FaultInjectionEnv fault(env_);
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(fault.NewWritableFile(File("full"), &w, EnvOptions()).ok());
  ASSERT_TRUE(w->Append("fits").ok());
  fault.FailAll(test::IOKind::kWrite, Status::NoSpace());
  Status s = w->Append("does not fit");
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(File("full"))) << s.ToString();
  fault.ClearFailures();

  fault.FailNthIO(1, Status::IOError("injected"));
  s = w->Sync();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_FALSE(s.IsNoSpace());
  EXPECT_NE(std::string::npos, s.ToString().find(File("full")));
  EXPECT_TRUE(w->Sync().ok());  // only the n-th failed
  ASSERT_TRUE(w->Close().ok());
  EXPECT_EQ("fits", Read("full"));
}

TEST_P(EnvContractTest, Logger) {
  std::shared_ptr<Logger> logger;
  ASSERT_TRUE(env_->NewLogger(File("LOG"), &logger).ok());
  Log(logger, "opened %s", "db");
  Log(DEBUG_LEVEL, logger, "hidden");
  Log(ERROR_LEVEL, logger, "error %d", 5);
  ASSERT_TRUE(logger->Close().ok());
  const std::string log = Read("LOG");
  EXPECT_NE(std::string::npos, log.find("opened db\n"));
  EXPECT_NE(std::string::npos, log.find("error 5\n"));
  EXPECT_EQ(std::string::npos, log.find("hidden"));
}

TEST_P(EnvContractTest, ClocksMoveForward) {
  const uint64_t m1 = env_->NowMicros();
  const uint64_t n1 = env_->NowNanos();
  env_->SleepForMicroseconds(2000);
  const uint64_t m2 = env_->NowMicros();
  const uint64_t n2 = env_->NowNanos();
  EXPECT_GE(n2 - n1, 1500000u);
  EXPECT_GE(m2, m1);
  EXPECT_GT(m1, uint64_t{1577836800} * 1000000);  // after 2020
}

Env* DefaultEnv(std::unique_ptr<Env>*) { return Env::Default(); }

Env* MemEnv(std::unique_ptr<Env>* owned) {
  owned->reset(NewMemEnv(Env::Default()));
  return owned->get();
}

Env* FaultFreeEnv(std::unique_ptr<Env>* owned) {
  owned->reset(new test::FaultInjectionEnv(Env::Default()));
  return owned->get();
}

INSTANTIATE_TEST_SUITE_P(AllEnvs, EnvContractTest,
                         testing::Values(EnvKind{"platform", DefaultEnv, true},
                                         EnvKind{"mem", MemEnv, false},
                                         EnvKind{"fault_injection",
                                                 FaultFreeEnv, true}),
                         [](const testing::TestParamInfo<EnvKind>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace strata
