#include <windows.h>

#include "loader.h"

void* OpenLibrary(const std::string& path, std::string* error) {
  const int n = MultiByteToWideChar(CP_UTF8, 0, path.c_str(), -1, nullptr, 0);
  std::wstring wide(n > 0 ? static_cast<size_t>(n) : 1, L'\0');
  if (n <= 0 ||
      MultiByteToWideChar(CP_UTF8, 0, path.c_str(), -1, &wide[0], n) <= 0) {
    *error = "not UTF-8: " + path;
    return nullptr;
  }
  HMODULE library = LoadLibraryW(wide.c_str());
  if (library == nullptr) {
    *error = "LoadLibraryW failed, error " + std::to_string(GetLastError());
  }
  return reinterpret_cast<void*>(library);
}

void* FindFunction(void* library, const char* name) {
  return reinterpret_cast<void*>(
      GetProcAddress(static_cast<HMODULE>(library), name));
}

void CloseLibrary(void* library) { FreeLibrary(static_cast<HMODULE>(library)); }
