// SliceTransform: maps a user key to its prefix (Options::prefix_extractor).
// Tables then keep prefix filters, and an iterator with
// ReadOptions::prefix_same_as_start stops at the end of the seek key's
// prefix and skips tables that hold no key of it.
//
// Thread safety: shared by every reader and writer; const and thread-safe.

#ifndef STRATA_INCLUDE_SLICE_TRANSFORM_H_
#define STRATA_INCLUDE_SLICE_TRANSFORM_H_

#include <cstddef>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT SliceTransform {
 public:
  virtual ~SliceTransform();

  // Recorded in tables; the prefix filter is used only under the same name.
  virtual const char* Name() const = 0;

  // The prefix of key. REQUIRES: InDomain(key).
  virtual Slice Transform(const Slice& key) const = 0;

  // Whether key has a prefix (keys outside the domain get no prefix
  // filtering).
  virtual bool InDomain(const Slice& key) const = 0;
};

// The first prefix_len bytes; keys shorter than that are outside the
// domain. Name(): "strata.FixedPrefix.<prefix_len>".
STRATA_EXPORT const SliceTransform* NewFixedPrefixTransform(size_t prefix_len);

}  // namespace strata

#endif  // STRATA_INCLUDE_SLICE_TRANSFORM_H_
