// Unloading strata.dll at run time (docs/windows.md, "Threads at exit and
// unloading"). The program is not linked against strata: it loads the DLL
// with LoadLibraryW, reaches Env::Default() by its exported name and uses
// the Env through its virtual functions, then unloads it with FreeLibrary.
//
//   1. A job on Env::Default() starts a pool thread, which stays, idle, in
//      the DLL's code.
//   2. FreeLibrary without WaitForJoin (the rule broken): the DLL must stay
//      loaded, since the pool holds a reference while it has threads.
//   3. Loaded again it is the same instance. Following the rule: a DB is
//      opened, written, flushed (a pool job) and closed through the C API,
//      WaitForJoin() joins the pool threads, and FreeLibrary unloads it.
//   4. Loaded a third time, fresh, it schedules a job, and unloads again
//      after strata_env_join_all_threads (the rule as a C program follows
//      it).
//
// Usage: strata_dll_unload <path of strata.dll> <scratch directory>.
// Prints "dll unload: ok"
// and exits 0, or says what went wrong and exits 1.

#include <windows.h>

#include <cstdio>
#include <string>

#include "strata/c.h"
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

// The C API function name of module, typed as c.h declares it.
template <typename Fn>
bool Find(HMODULE module, const char* name, Fn* fn, std::string* error) {
  *fn = reinterpret_cast<Fn>(
      reinterpret_cast<void*>(GetProcAddress(module, name)));
  if (*fn == nullptr) *error += std::string(" ") + name;
  return *fn != nullptr;
}

// Opens a DB in dir, writes a key, flushes it on a pool thread and closes
// it, all through the C API of module.
bool UseDb(HMODULE module, const std::string& dir, std::string* error) {
  decltype(&strata_options_create) options_create;
  decltype(&strata_options_set_create_if_missing) set_create;
  decltype(&strata_options_destroy) options_destroy;
  decltype(&strata_open) open;
  decltype(&strata_close) close;
  decltype(&strata_writeoptions_create) wo_create;
  decltype(&strata_writeoptions_destroy) wo_destroy;
  decltype(&strata_put) put;
  decltype(&strata_flushoptions_create) fo_create;
  decltype(&strata_flushoptions_destroy) fo_destroy;
  decltype(&strata_flush) flush;
  decltype(&strata_destroy_db) destroy_db;
  decltype(&strata_free) free_fn;
  std::string missing;
  bool found = Find(module, "strata_options_create", &options_create, &missing);
  found &= Find(module, "strata_options_set_create_if_missing", &set_create,
                &missing);
  found &= Find(module, "strata_options_destroy", &options_destroy, &missing);
  found &= Find(module, "strata_open", &open, &missing);
  found &= Find(module, "strata_close", &close, &missing);
  found &= Find(module, "strata_writeoptions_create", &wo_create, &missing);
  found &= Find(module, "strata_writeoptions_destroy", &wo_destroy, &missing);
  found &= Find(module, "strata_put", &put, &missing);
  found &= Find(module, "strata_flushoptions_create", &fo_create, &missing);
  found &= Find(module, "strata_flushoptions_destroy", &fo_destroy, &missing);
  found &= Find(module, "strata_flush", &flush, &missing);
  found &= Find(module, "strata_destroy_db", &destroy_db, &missing);
  found &= Find(module, "strata_free", &free_fn, &missing);
  if (!found) {
    *error = "not exported:" + missing;
    return false;
  }
  strata_options_t* options = options_create();
  set_create(options, 1);
  char* err = nullptr;
  destroy_db(options, dir.c_str(), &err);  // a DB left by an earlier run
  free_fn(err);
  err = nullptr;
  strata_t* db = open(options, dir.c_str(), &err);
  if (db != nullptr) {
    strata_writeoptions_t* wo = wo_create();
    put(db, wo, "key", 3, "value", 5, &err);
    wo_destroy(wo);
    if (err == nullptr) {
      strata_flushoptions_t* fo = fo_create();
      flush(db, fo, &err);
      fo_destroy(fo);
    }
    close(db);
  }
  if (err != nullptr) *error = std::string("the DB: ") + err;
  free_fn(err);
  options_destroy(options);
  return error->empty();
}

// strata_env_join_all_threads on the default Env, through module's C API.
bool JoinThroughTheCApi(HMODULE module, std::string* error) {
  decltype(&strata_create_default_env) create;
  decltype(&strata_env_join_all_threads) join;
  decltype(&strata_env_destroy) destroy;
  std::string missing;
  bool found = Find(module, "strata_create_default_env", &create, &missing);
  found &= Find(module, "strata_env_join_all_threads", &join, &missing);
  found &= Find(module, "strata_env_destroy", &destroy, &missing);
  if (!found) {
    *error = "not exported:" + missing;
    return false;
  }
  strata_env_t* env = create();
  join(env);
  destroy(env);
  return true;
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
  if (argc != 3) return Fail("usage: strata_dll_unload <strata.dll> <dir>");
  const std::string path = argv[1];
  const std::string db_dir = std::string(argv[2]) + "/dll_unload_db";
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
  if (!UseDb(second.module, db_dir, &error)) return Fail(error);
  second.env->WaitForJoin();
  FreeLibrary(second.module);
  if (IsLoaded(name)) {
    return Fail("FreeLibrary after WaitForJoin left the DLL loaded");
  }

  // The rule as a C program follows it.
  Loaded third;
  if (!Load(wide_path, &third, &error) || !RunJob(third.env, &error)) {
    return Fail("third load: " + error);
  }
  if (!JoinThroughTheCApi(third.module, &error)) return Fail(error);
  FreeLibrary(third.module);
  if (IsLoaded(name)) return Fail("the third FreeLibrary left it loaded");

  std::printf("dll unload: ok\n");
  return 0;
}
