// Windows directories: Directory::Fsync flushes a handle to the directory
// (FlushFileBuffers), a system that cannot flush directories is answered
// without an error but counted and remembered, a real flush error is an
// error naming the directory.

#if defined(_WIN32)

#include <memory>
#include <string>

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

}  // namespace
}  // namespace strata

#endif  // defined(_WIN32)
