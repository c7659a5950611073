#include "test/util/subprocess.h"

#include <cstring>
#include <map>

#if defined(_WIN32)
#include "port/port.h"
#include "port/win32.h"
// clang-format off
#include <shellapi.h>  // after <windows.h>, which it needs
// clang-format on
#else
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace strata {
namespace test {

namespace {

constexpr char kChildFlag[] = "--strata-child=";

std::map<std::string, ChildMain>& Children() {
  static std::map<std::string, ChildMain> children;
  return children;
}

#if defined(_WIN32)

// One argument quoted for CommandLineToArgvW-style parsing.
std::wstring Quote(const std::wstring& arg) {
  std::wstring out = L"\"";
  size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      backslashes++;
      continue;
    }
    if (c == L'"')
      out.append(2 * backslashes + 1, L'\\');
    else
      out.append(backslashes, L'\\');
    backslashes = 0;
    out.push_back(c);
  }
  out.append(2 * backslashes, L'\\');
  out.push_back(L'"');
  return out;
}

class WinSubprocess : public Subprocess {
 public:
  explicit WinSubprocess(HANDLE process) : process_(process) {}
  ~WinSubprocess() override {
    Kill();
    Wait();
    CloseHandle(process_);
  }
  int Wait() override {
    if (WaitForSingleObject(process_, INFINITE) != WAIT_OBJECT_0) return -1;
    DWORD code = 0;
    if (!GetExitCodeProcess(process_, &code)) return -1;
    return killed_ ? -1 : static_cast<int>(code);
  }
  void Kill() override {
    if (WaitForSingleObject(process_, 0) == WAIT_TIMEOUT) {
      killed_ = TerminateProcess(process_, 137) != 0;
    }
  }

 private:
  HANDLE process_;
  bool killed_ = false;
};

#else

class PosixSubprocess : public Subprocess {
 public:
  explicit PosixSubprocess(pid_t pid) : pid_(pid) {}
  ~PosixSubprocess() override {
    Kill();
    Wait();
  }
  int Wait() override {
    if (waited_) return status_;
    int st = 0;
    pid_t r;
    do {
      r = ::waitpid(pid_, &st, 0);
    } while (r < 0 && errno == EINTR);
    waited_ = true;
    status_ = (r == pid_ && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
    return status_;
  }
  void Kill() override {
    if (!waited_) ::kill(pid_, SIGKILL);
  }

 private:
  const pid_t pid_;
  bool waited_ = false;
  int status_ = -1;
};

#endif

}  // namespace

bool RegisterChild(const char* name, ChildMain main) {
  Children()[name] = main;
  return true;
}

namespace {

// The arguments in UTF-8. On Windows argv is in the ANSI code page, which
// cannot hold every path: take them from the wide command line instead.
std::vector<std::string> Utf8Args(int argc, char** argv) {
#if defined(_WIN32)
  (void)argc, (void)argv;
  int n = 0;
  wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &n);
  std::vector<std::string> args;
  for (int i = 0; i < n; i++) args.push_back(port::WideToUtf8(wide[i]));
  LocalFree(wide);
  return args;
#else
  return std::vector<std::string>(argv, argv + argc);
#endif
}

}  // namespace

bool MaybeRunChild(int argc, char** argv, int* exit_code) {
  if (argc < 2 || std::strncmp(argv[1], kChildFlag, sizeof(kChildFlag) - 1)) {
    return false;
  }
  const std::vector<std::string> all = Utf8Args(argc, argv);
  if (all.size() < 2) return false;
  const std::string name = all[1].substr(sizeof(kChildFlag) - 1);
  auto it = Children().find(name);
  if (it == Children().end()) {
    *exit_code = 125;
    return true;
  }
  std::vector<std::string> args(all.begin() + 2, all.end());
  *exit_code = it->second(args);
  return true;
}

Status Subprocess::Start(const std::string& name,
                         const std::vector<std::string>& args,
                         std::unique_ptr<Subprocess>* result) {
#if defined(_WIN32)
  wchar_t self[32768];
  const DWORD n = GetModuleFileNameW(nullptr, self, 32768);
  if (n == 0 || n >= 32768) return Status::IOError("GetModuleFileName");
  std::wstring cmd = Quote(self) + L" " +
                     Quote(port::Utf8ToWide(std::string(kChildFlag) + name));
  for (const std::string& a : args) cmd += L" " + Quote(port::Utf8ToWide(a));
  STARTUPINFOW si;
  std::memset(&si, 0, sizeof(si));
  si.cb = sizeof(si);
  PROCESS_INFORMATION pi;
  if (!CreateProcessW(self, &cmd[0], nullptr, nullptr, FALSE, 0, nullptr,
                      nullptr, &si, &pi)) {
    return Status::IOError("CreateProcess", std::to_string(GetLastError()));
  }
  CloseHandle(pi.hThread);
  result->reset(new WinSubprocess(pi.hProcess));
  return Status::OK();
#else
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) return Status::IOError("readlink /proc/self/exe");
  self[n] = '\0';
  std::vector<std::string> argv_storage;
  argv_storage.push_back(self);
  argv_storage.push_back(std::string(kChildFlag) + name);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(&a[0]);
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return Status::IOError("fork");
  if (pid == 0) {
    ::execv(self, argv.data());
    ::_exit(126);
  }
  result->reset(new PosixSubprocess(pid));
  return Status::OK();
#endif
}

int RunChild(const std::string& name, const std::vector<std::string>& args) {
  std::unique_ptr<Subprocess> child;
  if (!Subprocess::Start(name, args, &child).ok()) return -1;
  return child->Wait();
}

}  // namespace test
}  // namespace strata
