// Unloading strata.dll at run time (docs/windows.md, "Threads at exit and
// unloading"). The program is not linked against strata: it loads the DLL
// with LoadLibraryW, reaches Env::Default() by its exported name and uses
// the Env through its virtual functions, then unloads it with FreeLibrary.
//
//   1. A job on Env::Default() starts a pool thread, which stays, idle, in
//      the DLL's code.
//   2. FreeLibrary without WaitForJoin (the rule broken): the DLL must stay
//      loaded, since the pool holds a reference while it has threads.
//   3. Loaded again it is the same instance; WaitForJoin() joins the pool
//      threads, and the next FreeLibrary unloads it.
//   4. Loaded a third time, fresh, it schedules and unloads again.
//
// Usage: strata_dll_unload <path of strata.dll>. Prints "dll unload: ok"
// and exits 0, or says what went wrong and exits 1.

#include <windows.h>

#include <cstdio>
#include <string>

#include "strata/env.h"

namespace {

// Env::Default() as GCC and MSVC (x64) decorate it.
const char* const kDefaultNames[] = {"_ZN6strata3Env7DefaultEv",
                                     "?Default@Env@strata@@SAPEAV12@XZ"};

struct Loaded {
  HMODULE module = nullptr;
  strata::Env* env = nullptr;
};

bool Load(const std::wstring& path, Loaded* loaded, std::string* error) {
  loaded->module = LoadLibraryW(path.c_str());
  if (loaded->module == nullptr) {
    *error = "LoadLibraryW failed, error " + std::to_string(GetLastError());
    return false;
  }
  for (const char* name : kDefaultNames) {
    FARPROC proc = GetProcAddress(loaded->module, name);
    if (proc != nullptr) {
      auto fn =
          reinterpret_cast<strata::Env* (*)()>(reinterpret_cast<void*>(proc));
      loaded->env = fn();
      return true;
    }
  }
  *error = "Env::Default() is not exported";
  return false;
}

// A job of the program's own code, run on a pool thread of the DLL.
void SignalJob(void* event) { SetEvent(static_cast<HANDLE>(event)); }

bool RunJob(strata::Env* env, std::string* error) {
  HANDLE done = CreateEventW(nullptr, TRUE, FALSE, nullptr);
  env->Schedule(&SignalJob, done, strata::Env::LOW);
  // Bounded, so a job that never runs fails the program instead of
  // hanging it.
  const DWORD waited = WaitForSingleObject(done, 60000);
  CloseHandle(done);
  if (waited != WAIT_OBJECT_0) *error = "the job did not run";
  return waited == WAIT_OBJECT_0;
}

bool IsLoaded(const std::wstring& name) {
  return GetModuleHandleW(name.c_str()) != nullptr;
}

int Fail(const std::string& what) {
  std::fprintf(stderr, "dll unload: FAILED: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return Fail("usage: strata_dll_unload <strata.dll>");
  const std::string path = argv[1];
  const std::wstring wide_path(path.begin(), path.end());
  const size_t slash = path.find_last_of("/\\");
  const std::string file =
      path.substr(slash == std::string::npos ? 0 : slash + 1);
  const std::wstring name(file.begin(), file.end());
  if (IsLoaded(name)) return Fail(file + " is loaded before LoadLibrary");

  std::string error;
  Loaded first;
  if (!Load(wide_path, &first, &error) || !RunJob(first.env, &error)) {
    return Fail("first load: " + error);
  }
  FreeLibrary(first.module);
  if (!IsLoaded(name)) {
    return Fail("FreeLibrary unloaded the DLL under a live pool thread");
  }

  Loaded second;
  if (!Load(wide_path, &second, &error)) return Fail("second load: " + error);
  if (second.env != first.env) {
    return Fail("the DLL kept loaded is not the same instance");
  }
  second.env->WaitForJoin();
  FreeLibrary(second.module);
  if (IsLoaded(name)) {
    return Fail("FreeLibrary after WaitForJoin left the DLL loaded");
  }

  Loaded third;
  if (!Load(wide_path, &third, &error) || !RunJob(third.env, &error)) {
    return Fail("third load: " + error);
  }
  third.env->WaitForJoin();
  FreeLibrary(third.module);
  if (IsLoaded(name)) return Fail("the third FreeLibrary left it loaded");

  std::printf("dll unload: ok\n");
  return 0;
}
