// VersionEdit decoding (db/version_edit.h) of arbitrary bytes: a MANIFEST
// record, as one edit and as an atomic group. What decodes must encode
// to bytes that decode to the same encoding again.
//
// Input: the record.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "db/version_edit.h"
#include "strata/slice.h"

namespace {

void CheckRoundTrip(const strata::VersionEdit& edit) {
  std::string first;
  edit.EncodeTo(&first);
  strata::VersionEdit again;
  const strata::Status s = again.DecodeFrom(first);
  std::string second;
  again.EncodeTo(&second);
  if (!s.ok() || first != second) {
    std::fprintf(stderr, "an edit does not survive encoding: %s\n%s\n%s\n",
                 s.ToString().c_str(), edit.DebugString().c_str(),
                 again.DebugString().c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  const Slice record(reinterpret_cast<const char*>(data), size);
  VersionEdit edit;
  if (edit.DecodeFrom(record).ok()) {
    edit.DebugString();
    CheckRoundTrip(edit);
  }
  std::vector<VersionEdit> edits;
  if (VersionEdit::DecodeGroup(record, &edits).ok()) {
    std::vector<const VersionEdit*> pointers;
    for (const VersionEdit& e : edits) {
      CheckRoundTrip(e);
      pointers.push_back(&e);
    }
    std::string encoded;
    VersionEdit::EncodeGroup(pointers, &encoded);
    std::vector<VersionEdit> decoded;
    if (!VersionEdit::DecodeGroup(encoded, &decoded).ok() ||
        decoded.size() != edits.size()) {
      std::fprintf(stderr, "a group of %zu edits does not survive encoding\n",
                   edits.size());
      std::abort();
    }
  }
  return 0;
}
