// How the inspect functions print keys and values: the pieces RocksDB's
// ldb output is made of, shared by the MANIFEST, WAL and idump printers.

#ifndef STRATA_TOOLS_INSPECT_PRINT_H_
#define STRATA_TOOLS_INSPECT_PRINT_H_

#include <string>

#include "strata/slice.h"

namespace strata {
namespace inspect {

// The bytes of s as they are, or as upper-case hex digits.
inline std::string Bytes(const Slice& s, bool hex) { return s.ToString(hex); }

// An internal key as RocksDB's InternalKey::DebugString prints it:
// 'user key' seq:<n>, type:<t>. A key too short to hold a trailer is
// printed as "(bad internal key: <hex>)".
std::string InternalKeyString(const Slice& internal_key, bool hex);

}  // namespace inspect
}  // namespace strata

#endif  // STRATA_TOOLS_INSPECT_PRINT_H_
