#include "tools/inspect/print.h"

#include "db/dbformat.h"
#include "util/logging.h"

namespace strata {
namespace inspect {

std::string InternalKeyString(const Slice& internal_key, bool hex) {
  if (internal_key.size() < kInternalKeyTrailerSize) {
    return "(bad internal key: " + internal_key.ToString(true) + ")";
  }
  // The trailer is printed as it is, even with a type no key may have:
  // the MANIFEST and the tables are checked elsewhere.
  const uint64_t trailer = DecodeFixed64(
      internal_key.data() + internal_key.size() - kInternalKeyTrailerSize);
  return "'" + Bytes(ExtractUserKey(internal_key), hex) +
         "' seq:" + NumberToString(trailer >> 8) +
         ", type:" + NumberToString(trailer & 0xff);
}

}  // namespace inspect
}  // namespace strata
