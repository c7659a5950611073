// BlockBuilder: writes the entries of one block (data, index or metaindex
// block) with prefix-compressed keys and restart points
// (docs/formats/table.md, "Block"):
//
//   entry:   varint32 shared | varint32 unshared | varint32 value_len |
//            key bytes [shared..] (unshared of them) | value
//   trailer: fixed32 restart offset × num_restarts | fixed32 num_restarts
//
// Every restart_interval-th entry is a restart point: it shares nothing
// with the entry before and its offset is in the restart array, so a
// reader can binary-search the restarts. A block always has at least one
// restart (offset 0), even when empty.
//
// Thread safety: one thread at a time.

#ifndef STRATA_TABLE_BLOCK_BUILDER_H_
#define STRATA_TABLE_BLOCK_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "strata/slice.h"

namespace strata {

class BlockBuilder {
 public:
  // REQUIRES: restart_interval >= 1.
  explicit BlockBuilder(int restart_interval);
  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  // Starts an empty block.
  void Reset();

  // REQUIRES: key sorts after the previous key by the block's comparator;
  // Finish() not called since the last Reset().
  void Add(const Slice& key, const Slice& value);

  // The finished block; valid until Reset() or destruction.
  Slice Finish();

  // Bytes the block would have if finished now.
  size_t CurrentSizeEstimate() const;
  // ... and after adding key and value.
  size_t EstimateSizeAfterKV(const Slice& key, const Slice& value) const;

  bool empty() const { return counter_ == 0 && restarts_.size() == 1; }

 private:
  const int restart_interval_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  int counter_;  // entries since the last restart
  bool finished_;
  std::string last_key_;
};

}  // namespace strata

#endif  // STRATA_TABLE_BLOCK_BUILDER_H_
