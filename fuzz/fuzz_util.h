// What the fuzz targets share: reading an input a byte at a time, files in
// an in-memory Env, the files of a freshly created DB to start a damaged
// one from, and a DB open that reads everything it recovered.
//
// Every target must be deterministic and leave nothing behind: each input
// gets its own MemEnv, and everything is freed before the target returns.
// Nothing here checks results against a model: a target passes when the
// code under test returns (any Status) without a crash, a leak or
// undefined behaviour under the sanitizers.

#ifndef STRATA_FUZZ_FUZZ_UTIL_H_
#define STRATA_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "strata/env.h"
#include "strata/options.h"
#include "strata/slice.h"

namespace strata {
namespace fuzz {

// The input, consumed from its front.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size)
      : data_(reinterpret_cast<const char*>(data)), size_(size) {}

  // The next byte, or 0 once the input is used up.
  uint8_t TakeByte() {
    if (size_ == 0) return 0;
    size_--;
    return static_cast<uint8_t>(*data_++);
  }
  // Up to n bytes.
  Slice Take(size_t n) {
    if (n > size_) n = size_;
    Slice s(data_, n);
    data_ += n;
    size_ -= n;
    return s;
  }
  // What is left.
  Slice Rest() { return Take(size_); }
  size_t size() const { return size_; }

 private:
  const char* data_;
  size_t size_;
};

// The four recovery modes, picked by a byte.
WALRecoveryMode ModeOf(uint8_t byte);

// file name (under the Env's root) -> contents.
using Files = std::map<std::string, std::string>;

// A MemEnv holding files.
std::unique_ptr<Env> NewEnvWithFiles(const Files& files);

// The name fuzz DBs live under.
extern const char kDbName[];

// The files of a DB just created under kDbName, keyed by their full name:
// CURRENT, a MANIFEST, an empty WAL, OPTIONS, IDENTITY. Made once; the
// targets copy it.
const Files& FreshDbFiles();
// The full name of the first file of FreshDbFiles() whose name contains
// part (e.g. "MANIFEST-", ".log").
std::string FreshDbFile(const std::string& part);

// Decodes contents as a WriteBatch (a WAL record): SetContents, then
// Iterate with a handler that accepts every family and reads every byte
// it is given, and Validate. Returns Iterate's status.
Status ParseWriteBatch(const Slice& contents);

// Opens the DB under kDbName in env with mode; if that succeeds, reads
// every entry forward and back and closes it. Returns the open's status.
Status OpenAndReadDb(Env* env, WALRecoveryMode mode);

// The recovery targets' body: input is a byte picking the WALRecoveryMode,
// then the new contents of the fresh DB's file named by part, which
// OpenAndReadDb then opens.
void RecoverWithFile(const uint8_t* data, size_t size, const std::string& part);

}  // namespace fuzz
}  // namespace strata

#endif  // STRATA_FUZZ_FUZZ_UTIL_H_
