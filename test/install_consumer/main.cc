// Uses only the installed public headers: writes a file through
// Env::Default(), reads it back, and checks a Status from a missing file.
// Prints "strata consumer: ok" on success.

#include <cstdio>
#include <string>

#include "strata/env.h"
#include "strata/slice.h"
#include "strata/status.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <scratch-dir>\n", argv[0]);
    return 2;
  }
  strata::Env* env = strata::Env::Default();
  const std::string path = std::string(argv[1]) + "/consumer.txt";
  strata::Status s = strata::WriteStringToFile(env, "hello strata", path, true);
  std::string back;
  if (s.ok()) s = strata::ReadFileToString(env, path, &back);
  if (!s.ok() || back != "hello strata") {
    std::fprintf(stderr, "round trip failed: %s\n", s.ToString().c_str());
    return 1;
  }
  strata::Status missing = env->FileExists(path + ".missing");
  if (!missing.IsNotFound()) {
    std::fprintf(stderr, "expected NotFound, got %s\n",
                 missing.ToString().c_str());
    return 1;
  }
  std::printf("strata consumer: ok (%s)\n",
              strata::Slice(back).ToString(true).c_str());
  return 0;
}
