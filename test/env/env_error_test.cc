// The platform's error mapping (one function per platform turns the OS
// error into a Status) and the lock across processes.

#include <string>

#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"

#if defined(_WIN32)
#include "env/io_win.h"
#include "port/port.h"
#include "port/win32.h"
#else
#include <cerrno>

#include "env/io_posix.h"
#endif

namespace strata {
namespace {

#if defined(_WIN32)

TEST(EnvErrorTest, WindowsErrorsMapToStatusCodes) {
  const std::string p = "C:\\db\\000001.log";
  Status s = WinError(p, "WriteFile", ERROR_DISK_FULL);
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_TRUE(s.IsIOError());
  EXPECT_TRUE(WinError(p, "WriteFile", ERROR_HANDLE_DISK_FULL).IsNoSpace());
  for (DWORD err : {ERROR_FILE_NOT_FOUND, ERROR_PATH_NOT_FOUND}) {
    s = WinError(p, "CreateFile", err);
    EXPECT_TRUE(s.IsNotFound()) << s.ToString();
    EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  }
  for (DWORD err : {ERROR_SHARING_VIOLATION, ERROR_ACCESS_DENIED}) {
    s = WinError(p, "CreateFile", err);
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_FALSE(s.IsNoSpace());
    // The path, the operation and the system's words for the error.
    EXPECT_NE(std::string::npos, s.ToString().find(p)) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("CreateFile: "));
    EXPECT_GT(s.ToString().size(), p.size() + 20) << s.ToString();
  }
  EXPECT_TRUE(WinError(p, "x", ERROR_INVALID_PARAMETER).IsInvalidArgument());
}

TEST(EnvErrorTest, PathsBecomeWidePathsForTheWApis) {
  EXPECT_EQ(L"C:\\a\\b", port::ToWinPath("C:/a/b"));
  EXPECT_EQ(L"rel\\x", port::ToWinPath("rel/x"));
  // A non-ASCII name survives the UTF-8 -> UTF-16 trip.
  EXPECT_EQ(std::wstring(L"\u00fc\u6587"),
            port::ToWinPath("\xc3\xbc\xe6\x96\x87"));
  const std::string long_path = "C:/" + std::string(300, 'x');
  const std::wstring wide = port::ToWinPath(long_path);
  EXPECT_EQ(L"\\\\?\\C:\\", wide.substr(0, 7));
}

#else

TEST(EnvErrorTest, ErrnoMapsToStatusCodes) {
  const std::string p = "/db/000001.log";
  Status s = PosixError(p, "write", ENOSPC);
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_TRUE(s.IsIOError());
  EXPECT_TRUE(PosixError(p, "write", EDQUOT).IsNoSpace());
  for (int err : {ENOENT, ENOTDIR}) {
    s = PosixError(p, "open", err);
    EXPECT_TRUE(s.IsNotFound()) << s.ToString();
    EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  }
  s = PosixError(p, "open", EACCES);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ("IO error: /db/000001.log: open: Permission denied", s.ToString());
  EXPECT_TRUE(PosixError(p, "x", EINVAL).IsInvalidArgument());
}

TEST(EnvErrorTest, RealNoSpaceFromTheDevice) {
  // /dev/full fails every write with ENOSPC.
  std::unique_ptr<WritableFile> f;
  Status s = Env::Default()->ReopenWritableFile("/dev/full", &f, EnvOptions());
  ASSERT_TRUE(s.ok()) << s.ToString();
  s = f->Append("x");
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("/dev/full"));
}

#endif

}  // namespace
}  // namespace strata
