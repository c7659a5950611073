// Drives strata through its C API the way a binding in another language
// does: the shared library is loaded at run time, each entry point looked
// up by name and called through a signature written here (strata's
// objects are opaque pointers). Usage: strata_dynamic_load <library>
// <scratch dir>. Prints "strata dynamic load: ok" and exits 0, or says
// what went wrong and exits 1.

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "loader.h"

namespace {

// The C API's signatures (include/strata/c.h), as a binding declares them.
struct Api {
  void* (*options_create)();
  void (*options_destroy)(void*);
  void (*options_set_create_if_missing)(void*, unsigned char);
  void* (*open)(const void*, const char*, char**);
  void (*close)(void*);
  void (*destroy_db)(const void*, const char*, char**);
  void* (*writeoptions_create)();
  void (*writeoptions_destroy)(void*);
  void* (*readoptions_create)();
  void (*readoptions_destroy)(void*);
  void (*put)(void*, const void*, const char*, size_t, const char*, size_t,
              char**);
  char* (*get)(void*, const void*, const char*, size_t, size_t*, char**);
  void* (*writebatch_create)();
  void (*writebatch_destroy)(void*);
  void (*writebatch_put)(void*, const char*, size_t, const char*, size_t);
  void (*write)(void*, const void*, void*, char**);
  void* (*create_iterator)(void*, const void*);
  void (*iter_destroy)(void*);
  void (*iter_seek_to_first)(void*);
  unsigned char (*iter_valid)(const void*);
  void (*iter_next)(void*);
  const char* (*iter_key)(const void*, size_t*);
  const char* (*iter_value)(const void*, size_t*);
  void (*iter_get_error)(const void*, char**);
  void (*free)(void*);
};

bool Load(void* library, Api* api, std::string* missing) {
  struct Entry {
    const char* name;
    void** slot;
  };
  // Function pointers are stored through void** slots: every platform
  // strata runs on gives data and function pointers one representation,
  // which is what dlsym and GetProcAddress rely on too.
  const Entry entries[] = {
      {"strata_options_create", reinterpret_cast<void**>(&api->options_create)},
      {"strata_options_destroy",
       reinterpret_cast<void**>(&api->options_destroy)},
      {"strata_options_set_create_if_missing",
       reinterpret_cast<void**>(&api->options_set_create_if_missing)},
      {"strata_open", reinterpret_cast<void**>(&api->open)},
      {"strata_close", reinterpret_cast<void**>(&api->close)},
      {"strata_destroy_db", reinterpret_cast<void**>(&api->destroy_db)},
      {"strata_writeoptions_create",
       reinterpret_cast<void**>(&api->writeoptions_create)},
      {"strata_writeoptions_destroy",
       reinterpret_cast<void**>(&api->writeoptions_destroy)},
      {"strata_readoptions_create",
       reinterpret_cast<void**>(&api->readoptions_create)},
      {"strata_readoptions_destroy",
       reinterpret_cast<void**>(&api->readoptions_destroy)},
      {"strata_put", reinterpret_cast<void**>(&api->put)},
      {"strata_get", reinterpret_cast<void**>(&api->get)},
      {"strata_writebatch_create",
       reinterpret_cast<void**>(&api->writebatch_create)},
      {"strata_writebatch_destroy",
       reinterpret_cast<void**>(&api->writebatch_destroy)},
      {"strata_writebatch_put", reinterpret_cast<void**>(&api->writebatch_put)},
      {"strata_write", reinterpret_cast<void**>(&api->write)},
      {"strata_create_iterator",
       reinterpret_cast<void**>(&api->create_iterator)},
      {"strata_iter_destroy", reinterpret_cast<void**>(&api->iter_destroy)},
      {"strata_iter_seek_to_first",
       reinterpret_cast<void**>(&api->iter_seek_to_first)},
      {"strata_iter_valid", reinterpret_cast<void**>(&api->iter_valid)},
      {"strata_iter_next", reinterpret_cast<void**>(&api->iter_next)},
      {"strata_iter_key", reinterpret_cast<void**>(&api->iter_key)},
      {"strata_iter_value", reinterpret_cast<void**>(&api->iter_value)},
      {"strata_iter_get_error", reinterpret_cast<void**>(&api->iter_get_error)},
      {"strata_free", reinterpret_cast<void**>(&api->free)},
  };
  for (const Entry& e : entries) {
    *e.slot = FindFunction(library, e.name);
    if (*e.slot == nullptr) *missing += std::string(" ") + e.name;
  }
  return missing->empty();
}

int Fail(const std::string& what) {
  std::fprintf(stderr, "strata dynamic load: FAILED: %s\n", what.c_str());
  return 1;
}

// Runs the program's checks; an empty string when all hold.
std::string Drive(const Api& api, const std::string& db) {
  void* options = api.options_create();
  char* err = nullptr;
  // An error arrives as a message the library allocated.
  api.options_set_create_if_missing(options, 0);
  void* handle = api.open(options, db.c_str(), &err);
  if (handle != nullptr || err == nullptr) {
    return "opening a missing DB without create_if_missing did not fail";
  }
  api.free(err);
  err = nullptr;

  api.options_set_create_if_missing(options, 1);
  handle = api.open(options, db.c_str(), &err);
  if (handle == nullptr) return std::string("open: ") + err;
  void* wo = api.writeoptions_create();
  void* ro = api.readoptions_create();
  const char value1[] = {'v', '\0', '1'};  // bytes, not a C string
  api.put(handle, wo, "k1", 2, value1, sizeof(value1), &err);
  void* batch = api.writebatch_create();
  api.writebatch_put(batch, "k3", 2, "v3", 2);
  api.writebatch_put(batch, "k2", 2, "v2", 2);
  api.write(handle, wo, batch, &err);
  api.writebatch_destroy(batch);
  if (err != nullptr) return std::string("put or write: ") + err;

  std::string problem;
  size_t len = 0;
  char* got = api.get(handle, ro, "k1", 2, &len, &err);
  if (got == nullptr || len != sizeof(value1) ||
      std::memcmp(got, value1, len) != 0) {
    problem = "get k1 did not return its three bytes";
  }
  api.free(got);
  got = api.get(handle, ro, "absent", 6, &len, &err);
  if (got != nullptr || len != 0 || err != nullptr) {
    problem = "get of an absent key did not return null without error";
  }
  api.free(got);

  std::string scan;
  void* it = api.create_iterator(handle, ro);
  for (api.iter_seek_to_first(it); api.iter_valid(it); api.iter_next(it)) {
    size_t klen = 0, vlen = 0;
    const char* k = api.iter_key(it, &klen);
    const char* v = api.iter_value(it, &vlen);
    scan += std::string(k, klen) + "=" + std::to_string(vlen) + " ";
  }
  api.iter_get_error(it, &err);
  api.iter_destroy(it);
  if (err != nullptr) return std::string("iterator: ") + err;
  if (problem.empty() && scan != "k1=3 k2=2 k3=2 ") {
    problem = "the scan found " + scan;
  }

  api.readoptions_destroy(ro);
  api.writeoptions_destroy(wo);
  api.close(handle);
  api.destroy_db(options, db.c_str(), &err);
  if (problem.empty() && err != nullptr)
    problem = std::string("destroy: ") + err;
  api.free(err);
  api.options_destroy(options);
  return problem;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return Fail("usage: strata_dynamic_load <library> <dir>");
  std::string error;
  void* library = OpenLibrary(argv[1], &error);
  if (library == nullptr)
    return Fail("loading " + std::string(argv[1]) + ": " + error);
  Api api;
  std::string missing;
  if (!Load(library, &api, &missing)) {
    return Fail("not exported:" + missing);
  }
  const std::string problem =
      Drive(api, std::string(argv[2]) + "/dynamic_load_db");
  CloseLibrary(library);
  if (!problem.empty()) return Fail(problem);
  std::printf("strata dynamic load: ok\n");
  return 0;
}
