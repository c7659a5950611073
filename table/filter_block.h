// The full filter block of a table (docs/formats/table.md, "Filter"): one
// filter, built by the table's FilterPolicy, over every user key of the
// table (whole_key_filtering) and every prefix of a key in the
// prefix_extractor's domain.
//
// Thread safety: a builder is used by one thread; a reader is immutable
// and safe from many threads.

#ifndef STRATA_TABLE_FILTER_BLOCK_H_
#define STRATA_TABLE_FILTER_BLOCK_H_

#include <memory>
#include <string>

#include "strata/filter_policy.h"
#include "strata/slice.h"
#include "strata/slice_transform.h"
#include "table/format.h"

namespace strata {

class FullFilterBlockBuilder {
 public:
  // policy must not be null; prefix_extractor may be. Neither is owned.
  FullFilterBlockBuilder(const FilterPolicy* policy,
                         const SliceTransform* prefix_extractor,
                         bool whole_key_filtering);
  FullFilterBlockBuilder(const FullFilterBlockBuilder&) = delete;
  FullFilterBlockBuilder& operator=(const FullFilterBlockBuilder&) = delete;

  // Adds the user key of each entry, in the table's order (repeats of a
  // user key — its older versions — are cheap).
  void Add(const Slice& user_key);

  // Whether nothing has been added (the table then stores no filter).
  bool empty() const;

  // The block's contents; valid until the builder is destroyed.
  Slice Finish();

 private:
  const FilterPolicy* const policy_;
  const SliceTransform* const prefix_extractor_;
  const bool whole_key_filtering_;
  std::unique_ptr<FilterBitsBuilder> bits_;
  std::string last_key_;
  std::string last_prefix_;
  bool has_last_key_ = false;
  bool has_last_prefix_ = false;
  std::string result_;
};

class FullFilterBlockReader {
 public:
  // Takes the block's contents. whole_key_filtering and prefix_extractor
  // describe how the table was built (its properties): queries the filter
  // cannot answer return true.
  FullFilterBlockReader(const FilterPolicy* policy, BlockContents&& contents,
                        const SliceTransform* prefix_extractor,
                        bool whole_key_filtering);
  FullFilterBlockReader(const FullFilterBlockReader&) = delete;
  FullFilterBlockReader& operator=(const FullFilterBlockReader&) = delete;

  // False only if the table certainly has no entry of user_key.
  bool KeyMayMatch(const Slice& user_key) const;
  // False only if the table certainly has no key with this prefix.
  bool PrefixMayMatch(const Slice& prefix) const;

  size_t ApproximateMemoryUsage() const;

 private:
  BlockContents contents_;
  std::unique_ptr<FilterBitsReader> reader_;
  const SliceTransform* const prefix_extractor_;
  const bool whole_key_filtering_;
};

}  // namespace strata

#endif  // STRATA_TABLE_FILTER_BLOCK_H_
