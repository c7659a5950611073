// BlockBuilder writes one block (docs/formats/table.md):
//
//   +---------+---------+-----+-----------+-----+----------------+
//   | entry 0 | entry 1 | ... | restart 0 | ... | num_restarts   |
//   +---------+---------+-----+-----------+-----+----------------+
//                               fixed32 each      fixed32
//
//   entry: varint32 shared | varint32 unshared | varint32 value_len |
//          unshared key bytes | value bytes
//
// The key of an entry is the first `shared` bytes of the previous key
// followed by its own `unshared` bytes; a restart entry has shared == 0.

#include "table/block_builder.h"

#include <algorithm>
#include <cassert>
#include <limits>

#include "util/coding.h"

namespace strata {

BlockBuilder::BlockBuilder(int restart_interval)
    : restart_interval_(restart_interval), counter_(0), finished_(false) {
  assert(restart_interval_ >= 1);
  restarts_.push_back(0);
}

void BlockBuilder::Reset() {
  buffer_.clear();
  restarts_.clear();
  restarts_.push_back(0);
  counter_ = 0;
  finished_ = false;
  last_key_.clear();
}

void BlockBuilder::Add(const Slice& key, const Slice& value) {
  assert(!finished_);
  assert(counter_ <= restart_interval_);
  size_t shared = 0;
  if (counter_ < restart_interval_) {
    const size_t limit = std::min(last_key_.size(), key.size());
    while (shared < limit && last_key_[shared] == key[shared]) shared++;
  } else {
    // A restart entry carries its whole key so that a reader can start
    // decoding here without the entries before it.
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    counter_ = 0;
  }
  const size_t unshared = key.size() - shared;

  PutVarint32(&buffer_, static_cast<uint32_t>(shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(unshared));
  PutVarint32(&buffer_, static_cast<uint32_t>(value.size()));
  buffer_.append(key.data() + shared, unshared);
  buffer_.append(value.data(), value.size());
  // Offsets in the restart array are fixed32: a block must stay below
  // 4 GiB (real blocks are kilobytes; the reader refuses larger ones).
  assert(buffer_.size() < std::numeric_limits<uint32_t>::max());

  last_key_.resize(shared);
  last_key_.append(key.data() + shared, unshared);
  assert(Slice(last_key_) == key);
  counter_++;
}

Slice BlockBuilder::Finish() {
  for (uint32_t offset : restarts_) PutFixed32(&buffer_, offset);
  PutFixed32(&buffer_, static_cast<uint32_t>(restarts_.size()));
  finished_ = true;
  return Slice(buffer_);
}

size_t BlockBuilder::CurrentSizeEstimate() const {
  if (finished_) return buffer_.size();
  return buffer_.size() + (restarts_.size() + 1) * sizeof(uint32_t);
}

size_t BlockBuilder::EstimateSizeAfterKV(const Slice& key,
                                         const Slice& value) const {
  // An upper bound (as if nothing were shared, with the shared count as
  // wide as the key's length), which is what a caller deciding whether to
  // cut the block wants.
  size_t estimate = CurrentSizeEstimate() + key.size() + value.size();
  estimate += 2 * VarintLength(key.size()) + VarintLength(value.size());
  if (counter_ >= restart_interval_) estimate += sizeof(uint32_t);
  return estimate;
}

}  // namespace strata
