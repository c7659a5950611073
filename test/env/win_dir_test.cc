// Windows directories: Directory::Fsync flushes a handle to the directory
// (FlushFileBuffers), a system that cannot flush directories is answered
// without an error but counted and remembered, a real flush error is an
// error naming the directory; and the trash names the delete fallback
// gives open files never outlive their use: swept when a DB directory is
// locked, gone when the last handle closes, never listed.

#if defined(_WIN32)

#include <memory>
#include <string>
#include <vector>

#include "env/fs_win.h"
#include "env/io_util.h"
#include "env/io_win.h"
#include "gtest/gtest.h"
#include "port/port.h"
#include "port/win32.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/options.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// What the fake flushes saw (the identity of the file flushed), and what
// they answer.
std::string flushed_identity;
int flush_calls = 0;
DWORD flush_error = ERROR_SUCCESS;

// Records which file the handle is, then flushes for real.
bool RecordingFlush(void* handle) {
  flushed_identity = WinFileIdentity(handle);
  flush_calls++;
  return FlushFileBuffers(static_cast<HANDLE>(handle)) != FALSE;
}

// Fails with flush_error without flushing.
bool FailingFlush(void* /*handle*/) {
  flush_calls++;
  SetLastError(flush_error);
  return false;
}

class WinDirTest : public testing::Test {
 protected:
  WinDirTest() : env_(Env::Default()), dir_(env_, "windir") {
    flushed_identity.clear();
    flush_calls = 0;
  }
  ~WinDirTest() override {
    TEST_SetDirectoryFlush(nullptr);
    TEST_ForgetUnflushableVolumes();
  }

  std::unique_ptr<Directory> OpenDir() {
    std::unique_ptr<Directory> d;
    Status s = env_->NewDirectory(dir_.path(), &d);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return d;
  }

  // The directory, its flushes failing with err (FailingFlush).
  std::unique_ptr<Directory> OpenDirFailingFlushes(DWORD err) {
    flush_error = err;
    TEST_SetDirectoryFlush(&FailingFlush);
    return OpenDir();
  }

  static bool Exists(const std::string& path) {
    std::wstring wide;
    EXPECT_TRUE(port::ToWinPath(path, &wide));
    return GetFileAttributesW(wide.c_str()) != INVALID_FILE_ATTRIBUTES;
  }

  // How many trash names the directory holds, as the OS lists it.
  size_t TrashCount() {
    std::wstring wide;
    EXPECT_TRUE(port::ToWinPath(dir_.File(".strata-trash-*"), &wide));
    WIN32_FIND_DATAW entry;
    HANDLE find = FindFirstFileW(wide.c_str(), &entry);
    if (find == INVALID_HANDLE_VALUE) return 0;
    size_t n = 0;
    do {
      n++;
    } while (FindNextFileW(find, &entry));
    FindClose(find);
    return n;
  }

  // Opens path for writing without FILE_SHARE_DELETE, as a program that is
  // not strata might.
  static HANDLE HoldWithoutShareDelete(const std::string& path) {
    std::wstring wide;
    EXPECT_TRUE(port::ToWinPath(path, &wide));
    return CreateFileW(wide.c_str(), GENERIC_WRITE,
                       FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_ALWAYS,
                       FILE_ATTRIBUTE_NORMAL, nullptr);
  }

  Env* const env_;
  test::TempDir dir_;
};

TEST_F(WinDirTest, FsyncFlushesTheSystem) {
  const uint64_t flushes = GetIOStats().directory_flushes.load();
  const uint64_t skipped = GetIOStats().directory_flushes_skipped.load();
  std::unique_ptr<Directory> d = OpenDir();
  ASSERT_NE(nullptr, d);
  Status s = d->Fsync();
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(flushes + 1, GetIOStats().directory_flushes.load());
  EXPECT_EQ(skipped, GetIOStats().directory_flushes_skipped.load());
  EXPECT_TRUE(d->Close().ok());
}

TEST_F(WinDirTest, FsyncFlushesAHandleToTheDirectory) {
  TEST_SetDirectoryFlush(&RecordingFlush);
  std::unique_ptr<Directory> d = OpenDir();
  ASSERT_NE(nullptr, d);
  Status s = d->Fsync();
  EXPECT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(1, flush_calls);
  // The handle flushed is the directory's: the same file as one opened
  // here on the directory's path.
  std::wstring wide;
  ASSERT_TRUE(port::ToWinPath(dir_.path(), &wide));
  HANDLE mine = CreateFileW(
      wide.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
      nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  ASSERT_NE(INVALID_HANDLE_VALUE, mine);
  const std::string identity = WinFileIdentity(mine);
  CloseHandle(mine);
  ASSERT_FALSE(identity.empty());
  EXPECT_EQ(identity, flushed_identity);
  // Each Fsync flushes again.
  EXPECT_TRUE(d->Fsync().ok());
  EXPECT_EQ(2, flush_calls);
}

// A file system or server that cannot flush a directory: OK, counted, and
// the volume is not asked again, by this Directory or a new one.
TEST_F(WinDirTest, UnsupportedFlushIsSkippedAndRemembered) {
  for (DWORD err :
       {ERROR_INVALID_FUNCTION, ERROR_NOT_SUPPORTED, ERROR_ACCESS_DENIED}) {
    SCOPED_TRACE(err);
    TEST_ForgetUnflushableVolumes();
    flush_calls = 0;
    const uint64_t skipped = GetIOStats().directory_flushes_skipped.load();
    std::unique_ptr<Directory> d = OpenDirFailingFlushes(err);
    ASSERT_NE(nullptr, d);
    Status s = d->Fsync();
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(1, flush_calls);
    EXPECT_EQ(skipped + 1, GetIOStats().directory_flushes_skipped.load());
    EXPECT_TRUE(d->Fsync().ok());
    std::unique_ptr<Directory> again = OpenDir();
    ASSERT_NE(nullptr, again);
    EXPECT_TRUE(again->Fsync().ok());
    EXPECT_EQ(1, flush_calls);
    EXPECT_EQ(skipped + 3, GetIOStats().directory_flushes_skipped.load());
  }
  EXPECT_FALSE(WinDirectoryFlushUnsupported(ERROR_IO_DEVICE));
  EXPECT_FALSE(WinDirectoryFlushUnsupported(ERROR_NETNAME_DELETED));
  EXPECT_FALSE(WinDirectoryFlushUnsupported(ERROR_DISK_FULL));
}

// Any other error is the flush failing: an error naming the directory,
// and the next Fsync flushes again.
TEST_F(WinDirTest, FlushErrorIsAnErrorNamingTheDirectory) {
  const uint64_t skipped = GetIOStats().directory_flushes_skipped.load();
  std::unique_ptr<Directory> d = OpenDirFailingFlushes(ERROR_IO_DEVICE);
  ASSERT_NE(nullptr, d);
  Status s = d->Fsync();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(dir_.path())) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("FlushFileBuffers"))
      << s.ToString();
  EXPECT_FALSE(d->Fsync().ok());
  EXPECT_EQ(2, flush_calls);
  EXPECT_EQ(skipped, GetIOStats().directory_flushes_skipped.load());
}

TEST_F(WinDirTest, NewDirectoryRefusesAFileAndAMissingPath) {
  ASSERT_TRUE(WriteStringToFile(env_, "x", dir_.File("f")).ok());
  std::unique_ptr<Directory> d;
  Status s = env_->NewDirectory(dir_.File("f"), &d);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("not a directory"))
      << s.ToString();
  EXPECT_EQ(nullptr, d);
  s = env_->NewDirectory(dir_.File("missing"), &d);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_EQ(nullptr, d);
}

TEST_F(WinDirTest, FsyncAfterCloseIsAnError) {
  std::unique_ptr<Directory> d = OpenDir();
  ASSERT_NE(nullptr, d);
  ASSERT_TRUE(d->Close().ok());
  Status s = d->Fsync();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(dir_.path())) << s.ToString();
}

// The engine flushes the DB directory after it renames CURRENT (and the
// other files it writes whole): DB::Open of a new DB makes flushes on the
// DB directory's handle.
TEST_F(WinDirTest, DBOpenFlushesTheDBDirectory) {
  TEST_SetDirectoryFlush(&RecordingFlush);
  Options options;
  options.create_if_missing = true;
  DB* db = nullptr;
  Status s = DB::Open(options, dir_.File("db"), &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  delete db;
  EXPECT_GE(flush_calls, 1);
}

// A trash file left by a process that died (here: made by name) goes when
// the directory is next locked; one another program holds open without
// FILE_SHARE_DELETE stays, without an error, until a later sweep.
TEST_F(WinDirTest, LockingSweepsLeftoverTrash) {
  const std::string a = dir_.File(".strata-trash-4242-0");
  const std::string b = dir_.File(".strata-trash-4242-1");
  const std::string held = dir_.File(".strata-trash-4242-2");
  ASSERT_TRUE(WriteStringToFile(env_, "a", a).ok());
  ASSERT_TRUE(WriteStringToFile(env_, "b", b).ok());
  HANDLE holder = HoldWithoutShareDelete(held);
  ASSERT_NE(INVALID_HANDLE_VALUE, holder);
  ASSERT_EQ(3u, TrashCount());

  FileLock* lock = nullptr;
  Status s = env_->LockFile(dir_.File("LOCK"), &lock);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_FALSE(Exists(a));
  EXPECT_FALSE(Exists(b));
  EXPECT_TRUE(Exists(held));
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(dir_.path(), &children).ok());
  EXPECT_EQ(std::vector<std::string>{"LOCK"}, children);
  ASSERT_TRUE(env_->UnlockFile(lock).ok());

  CloseHandle(holder);
  EXPECT_EQ(1u, WinSweepTrash(dir_.path()));
  EXPECT_EQ(0u, TrashCount());
}

// The hook is on DB::Open's path.
TEST_F(WinDirTest, DBOpenSweepsLeftoverTrash) {
  const std::string db = dir_.File("db");
  ASSERT_TRUE(env_->CreateDir(db).ok());
  const std::string trash = db + "/.strata-trash-4242-7";
  ASSERT_TRUE(WriteStringToFile(env_, "t", trash).ok());
  Options options;
  options.create_if_missing = true;
  DB* opened = nullptr;
  Status s = DB::Open(options, db, &opened);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_FALSE(Exists(trash));
  delete opened;
}

// A file strata deletes while it holds it open loses its name at once;
// whatever trash name it had (the fallback's, where the system has no
// POSIX deletes, as Wine) is never listed and is gone once strata's own
// handle closes: the trash name was deleted too, pending that close.
TEST_F(WinDirTest, TrashOfAFileDeletedWhileOpenGoesWhenItCloses) {
  const std::string name = dir_.File("000007.sst");
  ASSERT_TRUE(WriteStringToFile(env_, "table", name).ok());
  std::unique_ptr<RandomAccessFile> reader;
  ASSERT_TRUE(env_->NewRandomAccessFile(name, &reader, EnvOptions()).ok());
  Status s = env_->RemoveFile(name);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(env_->FileExists(name).IsNotFound());
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(dir_.path(), &children).ok());
  EXPECT_TRUE(children.empty());
  // Still readable through the open handle.
  char scratch[8];
  Slice got;
  ASSERT_TRUE(reader->Read(0, 5, &got, scratch).ok());
  EXPECT_EQ("table", got.ToString());
  reader.reset();
  EXPECT_EQ(0u, TrashCount());
}

// A delete the system refuses (a read-only file) leaves the file under
// its own name, not under a trash name with the error returned.
TEST_F(WinDirTest, RefusedDeleteKeepsTheName) {
  const std::string name = dir_.File("000009.sst");
  ASSERT_TRUE(WriteStringToFile(env_, "table", name).ok());
  std::wstring wide;
  ASSERT_TRUE(port::ToWinPath(name, &wide));
  ASSERT_TRUE(SetFileAttributesW(wide.c_str(), FILE_ATTRIBUTE_READONLY));
  Status s = env_->RemoveFile(name);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string::npos, s.ToString().find(name)) << s.ToString();
  EXPECT_TRUE(env_->FileExists(name).ok());
  EXPECT_EQ(0u, TrashCount());
  ASSERT_TRUE(SetFileAttributesW(wide.c_str(), FILE_ATTRIBUTE_NORMAL));
  EXPECT_TRUE(env_->RemoveFile(name).ok());
}

}  // namespace
}  // namespace strata

#endif  // defined(_WIN32)
