#include <dlfcn.h>

#include "loader.h"

void* OpenLibrary(const std::string& path, std::string* error) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    *error = why != nullptr ? why : "dlopen failed";
  }
  return library;
}

void* FindFunction(void* library, const char* name) {
  return dlsym(library, name);
}

void CloseLibrary(void* library) { dlclose(library); }
