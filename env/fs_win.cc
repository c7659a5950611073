#include "env/fs_win.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "env/io_win.h"
#include "port/port.h"
#include "port/win32.h"

namespace strata {

namespace {

constexpr DWORD kShareAll =
    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

// Windows 10 (1607/1709) can rename and delete with POSIX semantics: the
// name goes away, or is replaced, at once even while other handles are
// open. The classes and flags, by their documented values (older headers
// hide them):
constexpr FILE_INFO_BY_HANDLE_CLASS kFileDispositionInfoEx =
    static_cast<FILE_INFO_BY_HANDLE_CLASS>(21);
constexpr FILE_INFO_BY_HANDLE_CLASS kFileRenameInfoEx =
    static_cast<FILE_INFO_BY_HANDLE_CLASS>(22);
constexpr DWORD kDispositionDelete = 0x1;
constexpr DWORD kDispositionPosix = 0x2;
constexpr DWORD kRenameReplace = 0x1;
constexpr DWORD kRenamePosix = 0x2;

// Names given to files that were deleted while open, on systems without
// POSIX deletes; GetChildren does not list them, and they vanish when the
// last handle closes.
constexpr char kTrashPrefix[] = ".strata-trash-";

// Sets the information of class info_class on the file at path, opened
// for DELETE access with flags. ERROR_SUCCESS or the error.
DWORD SetInfoForDelete(const std::wstring& path, DWORD flags,
                       FILE_INFO_BY_HANDLE_CLASS info_class, void* info,
                       DWORD size) {
  ScopedHandle h(CreateFileW(path.c_str(), DELETE, kShareAll, nullptr,
                             OPEN_EXISTING, flags, nullptr));
  if (!h.is_valid()) return GetLastError();
  if (!SetFileInformationByHandle(h.get(), info_class, info, size)) {
    return GetLastError();
  }
  return ERROR_SUCCESS;
}

// Deletes with POSIX semantics. ERROR_SUCCESS, or the error (also where the
// system does not offer them). Opened without FILE_FLAG_BACKUP_SEMANTICS,
// so a directory cannot be removed this way (RemoveFile of a directory
// fails, as unlink does).
DWORD PosixDelete(const std::wstring& path) {
  DWORD flags = kDispositionDelete | kDispositionPosix;
  return SetInfoForDelete(path, FILE_ATTRIBUTE_NORMAL, kFileDispositionInfoEx,
                          &flags, sizeof(flags));
}

// How many more times RenameFile tries a replace refused for the target
// being open (about 1 ms apart).
constexpr int kRenameAttempts = 50;

// Renames with POSIX semantics, replacing target even if it is open.
// ERROR_SUCCESS or the error.
DWORD PosixRename(const std::wstring& src, const std::wstring& target) {
  // FILE_RENAME_INFO with its Windows 10 Flags word in place of the
  // ReplaceIfExists byte (same offset), followed by the new name.
  const size_t name_bytes = target.size() * sizeof(wchar_t);
  std::vector<char> buf(offsetof(FILE_RENAME_INFO, FileName) + name_bytes +
                        sizeof(wchar_t));
  FILE_RENAME_INFO* info = reinterpret_cast<FILE_RENAME_INFO*>(buf.data());
  const DWORD flags = kRenameReplace | kRenamePosix;
  std::memcpy(info, &flags, sizeof(flags));
  info->RootDirectory = nullptr;
  info->FileNameLength = static_cast<DWORD>(name_bytes);
  std::memcpy(info->FileName, target.c_str(), name_bytes + sizeof(wchar_t));
  return SetInfoForDelete(src, FILE_FLAG_BACKUP_SEMANTICS, kFileRenameInfoEx,
                          info, static_cast<DWORD>(buf.size()));
}

std::atomic<uint64_t> trash_counter{0};

// A unique name next to path for a file being deleted.
std::wstring TrashName(const std::wstring& path) {
  const size_t sep = path.find_last_of(L"\\/");
  const std::wstring dir =
      sep == std::wstring::npos ? std::wstring() : path.substr(0, sep + 1);
  const uint64_t n = trash_counter.fetch_add(1);
  return dir + port::Utf8ToWide(kTrashPrefix) +
         std::to_wstring(GetCurrentProcessId()) + L"-" + std::to_wstring(n);
}

}  // namespace

Status WinOpen(const std::string& fname, unsigned long access,
               unsigned long disposition, unsigned long flags, const char* op,
               ScopedHandle* file) {
  std::wstring path;
  Status s = WinPath(fname, &path);
  if (!s.ok()) return s;
  file->Reset(CreateFileW(path.c_str(), access, kShareAll, nullptr, disposition,
                          flags, nullptr));
  if (!file->is_valid()) return WinError(fname, op, GetLastError());
  return Status::OK();
}

Status WinRemoveFile(const std::string& fname) {
  std::wstring path;
  Status s = WinPath(fname, &path);
  if (!s.ok()) return s;
  DWORD err = PosixDelete(path);
  if (err == ERROR_SUCCESS) return Status::OK();
  if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND ||
      err == ERROR_ACCESS_DENIED) {
    return WinError(fname, "DeleteFile", err);
  }
  // No POSIX deletes here: a plain delete of an open file would leave its
  // name behind until the file is closed. Move it aside under a trash
  // name first, then delete that.
  const std::wstring trash = TrashName(path);
  if (MoveFileExW(path.c_str(), trash.c_str(), 0)) {
    if (DeleteFileW(trash.c_str())) return Status::OK();
    // Refused (a read-only file; a scanner that opened the new name
    // without sharing deletes): put the name back, so the error leaves
    // the file as it was. If even that fails, the next open's sweep
    // deletes the trash file (WinSweepTrash).
    err = GetLastError();
    const char* op = MoveFileExW(trash.c_str(), path.c_str(), 0)
                         ? "DeleteFile"
                         : "DeleteFile (left under a trash name)";
    return WinError(fname, op, err);
  }
  if (!DeleteFileW(path.c_str())) {
    return WinError(fname, "DeleteFile", GetLastError());
  }
  return Status::OK();
}

Status WinRenameFile(const std::string& src, const std::string& target) {
  std::wstring from;
  std::wstring to;
  Status s = WinPath(src, &from);
  if (s.ok()) s = WinPath(target, &to);
  if (!s.ok()) return s;
  if (PosixRename(from, to) == ERROR_SUCCESS) return Status::OK();
  // MoveFileExW refuses MOVEFILE_REPLACE_EXISTING for a directory (a
  // checkpoint's <dir>.tmp moved into place), which replaces nothing.
  const DWORD attributes = GetFileAttributesW(from.c_str());
  const DWORD flags = attributes != INVALID_FILE_ATTRIBUTES &&
                              (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0
                          ? 0
                          : MOVEFILE_REPLACE_EXISTING;
  // Without the POSIX rename (Wine, Windows before 10 1607) a target
  // another process has open refuses to be replaced, even when opened
  // with FILE_SHARE_DELETE: a secondary instance reading CURRENT holds
  // it for moments only, so the rename is tried again for a while.
  for (int attempt = 0;; attempt++) {
    if (MoveFileExW(from.c_str(), to.c_str(), flags)) return Status::OK();
    const DWORD error = GetLastError();
    if ((error != ERROR_ACCESS_DENIED && error != ERROR_SHARING_VIOLATION) ||
        attempt == kRenameAttempts) {
      return WinError(src, ("rename to " + target).c_str(), error);
    }
    Sleep(1);
  }
}

bool WinIsTrash(const char* name) {
  return std::strncmp(name, kTrashPrefix, sizeof(kTrashPrefix) - 1) == 0;
}

size_t WinSweepTrash(const std::string& dir) {
  std::wstring wide;
  if (!WinPath(dir, &wide).ok()) return 0;
  if (!wide.empty() && wide.back() != L'\\' && wide.back() != L'/') {
    wide += L'\\';
  }
  WIN32_FIND_DATAW entry;
  const std::wstring pattern = wide + port::Utf8ToWide(kTrashPrefix) + L"*";
  HANDLE find = FindFirstFileW(pattern.c_str(), &entry);
  if (find == INVALID_HANDLE_VALUE) return 0;
  size_t deleted = 0;
  do {
    if ((entry.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0) continue;
    // The pattern also matches 8.3 short names; only real trash names go.
    if (!WinIsTrash(port::WideToUtf8(entry.cFileName).c_str())) continue;
    if (DeleteFileW((wide + entry.cFileName).c_str())) deleted++;
  } while (FindNextFileW(find, &entry));
  FindClose(find);
  return deleted;
}

}  // namespace strata
