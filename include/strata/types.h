// Basic types shared by the public headers.

#ifndef STRATA_INCLUDE_TYPES_H_
#define STRATA_INCLUDE_TYPES_H_

#include <cstdint>

namespace strata {

// A write's position in the DB's history. Every key written gets the next
// number; a read at sequence s sees exactly the writes numbered <= s.
// Only the low 56 bits are used (the top byte of an internal key's trailer
// holds the value type).
using SequenceNumber = uint64_t;

// The kinds of file in a DB's directory (docs/formats/files.md), as
// DB::GetLiveFilesMetaData and the tools name them. kMetaDatabase and
// kBlobFile are RocksDB's and never occur in a strata DB.
enum FileType {
  kWalFile,
  kDBLockFile,
  kTableFile,
  kDescriptorFile,  // a MANIFEST
  kCurrentFile,
  kTempFile,
  kInfoLogFile,  // LOG, or an older LOG.old.<time>
  kMetaDatabase,
  kIdentityFile,
  kOptionsFile,
  kBlobFile
};

// Where a file would live by how often it is read. strata keeps every
// file on one device: files report kUnknown.
enum class Temperature : uint8_t {
  kUnknown = 0,
  kHot = 0x04,
  kWarm = 0x08,
  kCold = 0x0C,
  kLastTemperature,
};

}  // namespace strata

#endif  // STRATA_INCLUDE_TYPES_H_
