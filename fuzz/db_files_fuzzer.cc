// The small files and the names a DB open parses: CURRENT (the name of
// the MANIFEST, its newline, its length), and the names of the files in
// the DB directory (ParseFileName: WALs to recover, obsolete tables,
// MANIFESTs, OPTIONS-<n>, IDENTITY, temporary files). The extra files are
// empty: an OPTIONS file's contents have options_file_fuzzer, and an
// empty one must not stop the open (it checks nothing).
//
// Input: the new contents of CURRENT, then a '\0' and the names of extra
// (empty) files to put in the directory of a fresh DB, '\0'-separated.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "db/filename.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  const std::string all(reinterpret_cast<const char*>(data), size);
  fuzz::Files files = fuzz::FreshDbFiles();
  size_t start = all.find('\0');
  files[std::string(fuzz::kDbName) + "/CURRENT"] = all.substr(0, start);
  while (start != std::string::npos) {
    const size_t end = all.find('\0', start + 1);
    const std::string name =
        all.substr(start + 1, end == std::string::npos ? end : end - start - 1);
    start = end;
    uint64_t number = 0;
    FileType type;
    ParseFileName(name, &number, &type);
    // A name the directory can hold (MemEnv takes a backslash for a
    // separator, as Windows does), not an existing file.
    if (name.empty() || name == "." || name == ".." ||
        name.find_first_of("/\\") != std::string::npos ||
        files.count(std::string(fuzz::kDbName) + "/" + name) > 0) {
      continue;
    }
    files[std::string(fuzz::kDbName) + "/" + name] = "";
  }
  std::unique_ptr<Env> env = fuzz::NewEnvWithFiles(files);
  fuzz::OpenAndReadDb(env.get(), WALRecoveryMode::kPointInTimeRecovery);
  return 0;
}
