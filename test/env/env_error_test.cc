// The platform's error mapping (one function per platform turns the OS
// error into a Status), paths the OS cannot be given, and listings and
// writes that fail part-way.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "port/port_dirent.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"

#if defined(_WIN32)
#include "env/io_win.h"
#include "port/port.h"
#include "port/win32.h"
#else
#include <unistd.h>

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
  for (DWORD err : {ERROR_ACCESS_DENIED, ERROR_WRITE_PROTECT}) {
    s = WinError(p, "CreateFile", err);
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_FALSE(s.IsNoSpace());
    EXPECT_FALSE(s.IsBusy());
    // The path, the operation and the system's words for the error.
    EXPECT_NE(std::string::npos, s.ToString().find(p)) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("CreateFile: "));
    EXPECT_GT(s.ToString().size(), p.size() + 20) << s.ToString();
  }
  EXPECT_TRUE(WinError(p, "x", ERROR_INVALID_PARAMETER).IsInvalidArgument());
}

// A quota, an unsupported operation and a cross-volume link cannot be
// provoked under Wine on demand (it has no quotas; whether two drives are
// one volume depends on the host's mounts), so their mapping is checked on
// the function itself.
TEST(EnvErrorTest, MoreWindowsErrorsMapToStatusCodes) {
  const std::string p = "C:\\db\\000001.log";
  Status s = WinError(p, "WriteFile", kWinErrorDiskQuotaExceeded);
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  for (DWORD err : {ERROR_NOT_SUPPORTED, ERROR_NOT_SAME_DEVICE}) {
    s = WinError(p, "CreateHardLink", err);
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(p)) << s.ToString();
  }
  s = WinError(p, "CreateFile", ERROR_SHARING_VIOLATION);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_FALSE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(p)) << s.ToString();
  s = WinError(p, "CreateFile", ERROR_NO_UNICODE_TRANSLATION);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

TEST(EnvErrorTest, SharingViolationIsBusyNamingThePath) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  const std::string path = dir.File("held");
  ASSERT_TRUE(WriteStringToFile(env, "x", path).ok());
  std::wstring wide;
  ASSERT_TRUE(port::ToWinPath(path, &wide));
  // Another program's handle that shares nothing, as a virus scanner or a
  // backup may hold one.
  HANDLE h = CreateFileW(wide.c_str(), GENERIC_READ, 0, nullptr, OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL, nullptr);
  ASSERT_NE(INVALID_HANDLE_VALUE, h);
  std::unique_ptr<RandomAccessFile> reader;
  Status s = env->NewRandomAccessFile(path, &reader, EnvOptions());
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(path)) << s.ToString();
  std::unique_ptr<WritableFile> writer;
  s = env->ReopenWritableFile(path, &writer, EnvOptions());
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  CloseHandle(h);
  EXPECT_TRUE(env->NewRandomAccessFile(path, &reader, EnvOptions()).ok());
}

TEST(EnvErrorTest, PathsBecomeWidePathsForTheWApis) {
  std::wstring wide;
  ASSERT_TRUE(port::ToWinPath("C:/a/b", &wide));
  EXPECT_EQ(L"C:\\a\\b", wide);
  ASSERT_TRUE(port::ToWinPath("rel/x", &wide));
  EXPECT_EQ(L"rel\\x", wide);
  // A non-ASCII name survives the UTF-8 -> UTF-16 trip.
  ASSERT_TRUE(port::ToWinPath("\xc3\xbc\xe6\x96\x87", &wide));
  EXPECT_EQ(std::wstring(L"\u00fc\u6587"), wide);
  const std::string long_path = "C:/" + std::string(300, 'x');
  ASSERT_TRUE(port::ToWinPath(long_path, &wide));
  EXPECT_EQ(L"\\\\?\\C:\\", wide.substr(0, 7));
}

// Not UTF-8: a stray continuation byte, a truncated sequence, an encoded
// surrogate, an overlong '/'. Replacing the bad bytes with U+FFFD would
// name another file.
const char* const kNotUtf8[] = {"bad\xff", "bad\xc3", "bad\xed\xa0\x80",
                                "bad\xc0\xaf"};

TEST(EnvErrorTest, PathThatIsNotUtf8IsRefused) {
  for (const char* name : kNotUtf8) {
    std::wstring wide = L"stale";
    SetLastError(ERROR_SUCCESS);
    EXPECT_FALSE(port::ToWinPath(name, &wide)) << name;
    EXPECT_EQ(static_cast<DWORD>(ERROR_NO_UNICODE_TRANSLATION), GetLastError());
    EXPECT_TRUE(wide.empty());
  }
}

TEST(EnvErrorTest, EveryEnvCallRefusesAPathThatIsNotUtf8) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  const std::string good = dir.File("good");
  ASSERT_TRUE(WriteStringToFile(env, "x", good).ok());
  for (const char* name : kNotUtf8) {
    const std::string bad = dir.File(name);
    std::vector<std::pair<const char*, Status>> results;
    std::unique_ptr<WritableFile> w;
    results.emplace_back("NewWritableFile",
                         env->NewWritableFile(bad, &w, EnvOptions()));
    results.emplace_back("ReopenWritableFile",
                         env->ReopenWritableFile(bad, &w, EnvOptions()));
    std::unique_ptr<SequentialFile> sf;
    results.emplace_back("NewSequentialFile",
                         env->NewSequentialFile(bad, &sf, EnvOptions()));
    std::unique_ptr<RandomAccessFile> rf;
    results.emplace_back("NewRandomAccessFile",
                         env->NewRandomAccessFile(bad, &rf, EnvOptions()));
    std::unique_ptr<RandomRWFile> rw;
    results.emplace_back("NewRandomRWFile",
                         env->NewRandomRWFile(bad, &rw, EnvOptions()));
    results.emplace_back("FileExists", env->FileExists(bad));
    std::vector<std::string> children;
    results.emplace_back("GetChildren", env->GetChildren(bad, &children));
    results.emplace_back("CreateDir", env->CreateDir(bad));
    results.emplace_back("RemoveDir", env->RemoveDir(bad));
    results.emplace_back("RemoveFile", env->RemoveFile(bad));
    results.emplace_back("RenameFile to", env->RenameFile(good, bad));
    results.emplace_back("RenameFile from", env->RenameFile(bad, good));
    results.emplace_back("LinkFile", env->LinkFile(good, bad));
    uint64_t n = 0;
    results.emplace_back("GetFileSize", env->GetFileSize(bad, &n));
    results.emplace_back("GetFileModificationTime",
                         env->GetFileModificationTime(bad, &n));
    results.emplace_back("GetFreeDiskSpace", env->GetFreeDiskSpace(bad, &n));
    bool is_dir = false;
    results.emplace_back("IsDirectory", env->IsDirectory(bad, &is_dir));
    std::string absolute;
    results.emplace_back("GetAbsolutePath",
                         env->GetAbsolutePath(bad, &absolute));
    FileLock* lock = nullptr;
    results.emplace_back("LockFile", env->LockFile(bad, &lock));
    for (const auto& r : results) {
      EXPECT_TRUE(r.second.IsInvalidArgument())
          << r.first << " " << name << ": " << r.second.ToString();
      EXPECT_NE(std::string::npos, r.second.ToString().find(bad))
          << r.first << ": " << r.second.ToString();
    }
  }
  // Nothing was made under a replaced name, and good is where it was.
  std::vector<std::string> children;
  ASSERT_TRUE(env->GetChildren(dir.path(), &children).ok());
  EXPECT_EQ(std::vector<std::string>{"good"}, children);
}

// The loop over WriteFile, fed by a fake call.
struct FakeWrites {
  int calls = 0;
  unsigned long first = 0;  // what the first call writes; later ones write 0
};

bool FakeWrite(void* handle, uint64_t /*offset*/, const char* /*data*/,
               unsigned long want, unsigned long* wrote) {
  FakeWrites* fake = static_cast<FakeWrites*>(handle);
  fake->calls++;
  if (fake->calls > 1000) {  // the loop is spinning: stop it
    SetLastError(ERROR_WRITE_FAULT);
    return false;
  }
  *wrote = fake->calls == 1 ? std::min(fake->first, want) : 0;
  return true;
}

TEST(EnvErrorTest, WriteThatWritesNothingFailsInsteadOfSpinning) {
  const std::string data(10, 'x');
  FakeWrites fake;
  fake.first = 3;
  Status s = WinWriteAll(FakeWrite, &fake, "C:\\db\\000001.log", 0, data.data(),
                         data.size());
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("wrote 0 bytes of 7"))
      << s.ToString();
  EXPECT_EQ(2, fake.calls);
  // A short write that makes progress is simply continued.
  fake = FakeWrites();
  fake.first = 10;
  EXPECT_TRUE(
      WinWriteAll(FakeWrite, &fake, "f", 0, data.data(), data.size()).ok());
  EXPECT_EQ(1, fake.calls);
}

// Identity through two handles on one file, a hard link to it, and another
// file. Where FileIdInfo is not answered the 128-bit form is empty
// throughout; the index form, the fallback, must hold on its own in any
// case (Wine 8.0 answers FileIdInfo, so WinFileIdentity does not use it
// there).
TEST(EnvErrorTest, FileIdentityTellsFilesApart) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  ASSERT_TRUE(WriteStringToFile(env, "a", dir.File("a")).ok());
  ASSERT_TRUE(WriteStringToFile(env, "b", dir.File("b")).ok());
  ASSERT_TRUE(env->LinkFile(dir.File("a"), dir.File("a-link")).ok());
  std::vector<HANDLE> handles;
  for (const char* name : {"a", "a", "a-link", "b"}) {
    std::wstring wide;
    ASSERT_TRUE(port::ToWinPath(dir.File(name), &wide));
    HANDLE h =
        CreateFileW(wide.c_str(), GENERIC_READ,
                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    ASSERT_NE(INVALID_HANDLE_VALUE, h) << name;
    handles.push_back(h);
  }
  using Identity = std::string (*)(void*);
  const std::pair<const char*, Identity> forms[] = {
      {"FILE_ID_INFO", WinFileIdFromIdInfo},
      {"file index", WinFileIdFromIndex},
      {"identity", WinFileIdentity}};
  for (const auto& form : forms) {
    std::vector<std::string> keys;
    for (HANDLE h : handles) keys.push_back(form.second(h));
    std::printf("%s: %s\n", form.first,
                keys[0].empty() ? "(not answered)" : keys[0].c_str());
    if (form.second == WinFileIdFromIdInfo && keys[0].empty()) {
      for (const std::string& k : keys) EXPECT_TRUE(k.empty()) << k;
      continue;
    }
    EXPECT_FALSE(keys[0].empty()) << form.first;
    EXPECT_EQ(keys[0], keys[1]) << form.first;
    EXPECT_EQ(keys[0], keys[2]) << form.first;
    EXPECT_NE(keys[0], keys[3]) << form.first;
  }
  // Where FILE_ID_INFO is answered, it is the identity.
  const std::string id = WinFileIdFromIdInfo(handles[0]);
  if (!id.empty()) {
    EXPECT_EQ(id, WinFileIdentity(handles[0]));
  }
  for (HANDLE h : handles) CloseHandle(h);
  // The Env's lock table goes by identity: the link names the locked file.
  FileLock* lock = nullptr;
  ASSERT_TRUE(env->LockFile(dir.File("a"), &lock).ok());
  FileLock* again = nullptr;
  Status s = env->LockFile(dir.File("a-link"), &again);
  EXPECT_TRUE(s.IsLockHeld()) << s.ToString();
  FileLock* other = nullptr;
  ASSERT_TRUE(env->LockFile(dir.File("b"), &other).ok());
  EXPECT_TRUE(env->UnlockFile(other).ok());
  EXPECT_TRUE(env->UnlockFile(lock).ok());
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

// dir, holding one file "a", opened for listing.
port::DIR* OpenDirWithOneFile(const test::TempDir& dir) {
  if (!WriteStringToFile(Env::Default(), "x", dir.File("a")).ok()) {
    return nullptr;
  }
  return port::opendir(dir.path().c_str());
}

TEST(EnvErrorTest, PortReaddirEndsWithErrnoZero) {
  test::TempDir dir(Env::Default());
  port::DIR* d = OpenDirWithOneFile(dir);
  ASSERT_NE(nullptr, d);
  int entries = 0;
  while (true) {
    errno = EBADF;  // stale from an earlier call: must not read as an error
    if (port::readdir(d) == nullptr) break;
    entries++;
  }
  EXPECT_EQ(0, errno);
  EXPECT_EQ(3, entries);  // ".", "..", "a"
  port::closedir(d);
}

#if defined(_WIN32)
// A Win32 error from FindNextFileW other than ERROR_NO_MORE_FILES.
constexpr int kListingError = ERROR_NETNAME_DELETED;
constexpr int kListingEnd = ERROR_NO_MORE_FILES;
#else
constexpr int kListingError = EIO;
#endif

// A listing that fails part-way is an error, never a shorter list: the DB
// would miss a WAL. The failure comes from port's seam (no file system here
// can be made to fail a listing on demand) and goes through the Env's
// mapping of the real error path.
TEST(EnvErrorTest, ListingErrorIsReportedNotTruncated) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  ASSERT_TRUE(WriteStringToFile(env, "x", dir.File("000001.log")).ok());
  ASSERT_TRUE(WriteStringToFile(env, "x", dir.File("000002.log")).ok());
  std::vector<std::string> children;
  port::TEST_FailNextReaddir(kListingError);
  Status s = env->GetChildren(dir.path(), &children);
  port::TEST_FailNextReaddir(0);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(dir.path())) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("readdir")) << s.ToString();
  EXPECT_TRUE(children.empty());
  // The seam fires once: the next listing is whole.
  ASSERT_TRUE(env->GetChildren(dir.path(), &children).ok());
  EXPECT_EQ(2u, children.size());
#if defined(_WIN32)
  // ERROR_NO_MORE_FILES is the end, not an error.
  port::TEST_FailNextReaddir(kListingEnd);
  s = env->GetChildren(dir.path(), &children);
  port::TEST_FailNextReaddir(0);
  EXPECT_TRUE(s.ok()) << s.ToString();
#endif
}

#if !defined(_WIN32)
// A pwrite stand-in that writes first bytes on its first call and nothing,
// without an error, after that.
struct FakePwrites {
  size_t first = 0;
  int calls = 0;
};
FakePwrites* fake_pwrites = nullptr;

ssize_t FakePwrite(int /*fd*/, const void* /*buf*/, size_t n,
                   off_t /*offset*/) {
  fake_pwrites->calls++;
  if (fake_pwrites->calls > 1000) {  // the loop is spinning: stop it
    errno = EIO;
    return -1;
  }
  return fake_pwrites->calls == 1
             ? static_cast<ssize_t>(std::min(fake_pwrites->first, n))
             : 0;
}

TEST(EnvErrorTest, PwriteThatWritesNothingFailsInsteadOfSpinning) {
  const std::string data(10, 'x');
  FakePwrites fake;
  fake_pwrites = &fake;
  fake.first = 3;
  Status s = PosixWriteAll(FakePwrite, 3, "/db/000001.log", 0, data.data(),
                           data.size());
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("wrote 0 bytes of 7"))
      << s.ToString();
  EXPECT_EQ(2, fake.calls);
  // A short write that makes progress is simply continued.
  fake = FakePwrites();
  fake.first = 10;
  EXPECT_TRUE(
      PosixWriteAll(FakePwrite, 3, "f", 0, data.data(), data.size()).ok());
  EXPECT_EQ(1, fake.calls);
  fake_pwrites = nullptr;
}

// A real readdir error from the kernel: the directory's descriptor closed
// underneath the DIR (EBADF); port::readdir must pass it on.
TEST(EnvErrorTest, PortReaddirReportsARealError) {
  test::TempDir dir(Env::Default());
  port::DIR* d = OpenDirWithOneFile(dir);
  ASSERT_NE(nullptr, d);
  ASSERT_EQ(0, ::close(::dirfd(d)));
  EXPECT_EQ(nullptr, port::readdir(d));
  EXPECT_EQ(EBADF, errno);
  port::closedir(d);  // fails (EBADF) but frees the DIR
}
#endif

}  // namespace
}  // namespace strata
