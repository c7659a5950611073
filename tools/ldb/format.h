// How ldb reads and writes keys and values as text, byte for byte as
// RocksDB's ldb does, so that scripts parsing its output keep working.
//
// Hex: "0x" then two digits per byte, upper-case on output ("0x6B32");
// on input the prefix must be a lower-case "0x" and the digits may be of
// either case. The empty string is "0x".
//
// Plain text: RocksDB's ldb prints keys and values as C strings, so a NUL
// byte ends what is printed (of a key or a value in scan, of the whole
// "key ==> value" line in dump, of the value in get). strata prints the
// same bytes; --hex shows binary data whole.

#ifndef STRATA_TOOLS_LDB_FORMAT_H_
#define STRATA_TOOLS_LDB_FORMAT_H_

#include <cstdio>
#include <string>

#include "strata/slice.h"

namespace strata {
namespace ldb {

std::string ToHex(const Slice& bytes);

// Decodes hex text into *out. On malformed text returns false and sets
// *error to a message naming the text and what is wrong with it.
bool FromHex(const std::string& text, std::string* out, std::string* error);

// Writes text to out up to its first NUL byte (all of it if it has none).
void PrintCString(std::FILE* out, const Slice& text);

}  // namespace ldb
}  // namespace strata

#endif  // STRATA_TOOLS_LDB_FORMAT_H_
