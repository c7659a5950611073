// Opening a shared library and finding a function in it: dlopen/dlsym or
// LoadLibraryW/GetProcAddress, one file per platform.

#ifndef STRATA_TEST_DYNAMIC_LOAD_LOADER_H_
#define STRATA_TEST_DYNAMIC_LOAD_LOADER_H_

#include <string>

// The library at path (UTF-8), or null with *error set.
void* OpenLibrary(const std::string& path, std::string* error);
// The address of the exported function name, or null.
void* FindFunction(void* library, const char* name);
void CloseLibrary(void* library);

#endif  // STRATA_TEST_DYNAMIC_LOAD_LOADER_H_
