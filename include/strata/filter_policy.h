// FilterPolicy: the filters a table keeps so that a point lookup can skip
// it without reading a data block. NewBloomFilterPolicy is the one strata
// provides; its filter format is in docs/formats/table.md.
//
// A table records the Name() of the policy that built its filter; a reader
// uses the filter only when its configured policy has the same name, so a
// name must never change the meaning of its filter bits.
//
// Thread safety: a FilterPolicy is shared by every table and thread; its
// methods must be safe to call at once. A builder or reader it returns is
// used by one thread at a time (a reader: const methods from many).

#ifndef STRATA_INCLUDE_FILTER_POLICY_H_
#define STRATA_INCLUDE_FILTER_POLICY_H_

#include <cstddef>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

// Collects the keys of one filter.
class STRATA_EXPORT FilterBitsBuilder {
 public:
  virtual ~FilterBitsBuilder();
  // Adds a key; adding the same key again (consecutively) is harmless.
  virtual void AddKey(const Slice& key) = 0;
  // Number of distinct keys added so far.
  virtual size_t NumAdded() const = 0;
  // Appends the filter of the keys added to *out and resets the builder.
  virtual void Finish(std::string* out) = 0;
};

// Answers queries against one filter's contents (which it does not own).
class STRATA_EXPORT FilterBitsReader {
 public:
  virtual ~FilterBitsReader();
  // False only if key was certainly not added.
  virtual bool MayMatch(const Slice& key) const = 0;
};

class STRATA_EXPORT FilterPolicy {
 public:
  virtual ~FilterPolicy();

  virtual const char* Name() const = 0;

  virtual FilterBitsBuilder* NewBuilder() const = 0;

  // A reader of filter contents built by this policy, which must outlive
  // it; contents are untrusted: a malformed filter yields a reader that
  // matches every key (the table then reads its data), never a crash.
  virtual FilterBitsReader* NewReader(const Slice& contents) const = 0;
};

// A bloom filter of about bits_per_key bits per key (10 gives ~1% false
// positives) whose probes for one key all fall in one 64-byte cache line.
// bits_per_key < 1 builds no filter. use_block_based_builder is accepted
// for source compatibility with RocksDB and ignored.
STRATA_EXPORT const FilterPolicy* NewBloomFilterPolicy(
    double bits_per_key, bool use_block_based_builder = false);

}  // namespace strata

#endif  // STRATA_INCLUDE_FILTER_POLICY_H_
