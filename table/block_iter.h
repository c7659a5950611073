// BlockIter: the iterator of a Block (table/block.h). Block::NewIterator
// hands out heap ones; a point lookup keeps one on its stack instead
// (BlockBasedTable::Get), which saves the allocations on the hottest read
// path. The current key lives in an inline buffer unless it is long.
//
// What it checks of the untrusted bytes is described in table/block.cc.
// Thread safety: one thread at a time. Lifetime: the Block (and the
// comparator and file name) must outlive the iterator.

#ifndef STRATA_TABLE_BLOCK_ITER_H_
#define STRATA_TABLE_BLOCK_ITER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"
#include "util/coding.h"

namespace strata {

class Block;
class Comparator;

// Decodes the three varints of the block entry at p (limit: the end of the
// entry area). Returns the start of its key bytes, or nullptr if the
// header or the key and value bytes it announces do not fit before limit.
inline const char* DecodeEntry(const char* p, const char* limit,
                               uint32_t* shared, uint32_t* unshared,
                               uint32_t* value_len) {
  if (limit - p >= 3 &&
      (static_cast<unsigned char>(p[0]) | static_cast<unsigned char>(p[1]) |
       static_cast<unsigned char>(p[2])) < 128) {
    // The common case: all three lengths fit in one byte each.
    *shared = static_cast<unsigned char>(p[0]);
    *unshared = static_cast<unsigned char>(p[1]);
    *value_len = static_cast<unsigned char>(p[2]);
    p += 3;
  } else {
    if ((p = GetVarint32Ptr(p, limit, shared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, unshared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, value_len)) == nullptr) return nullptr;
  }
  const size_t left = static_cast<size_t>(limit - p);
  // Two comparisons instead of a sum: no overflow for hostile lengths.
  if (*unshared > left || *value_len > left - *unshared) return nullptr;
  return p;
}

// The 4 bytes of key from offset skip on, zero-padded, as a big-endian
// number. For keys in bytewise order that share their first skip bytes,
// a < b implies UserKeyPrefix(a, skip) <= UserKeyPrefix(b, skip), so a
// smaller (larger) prefix decides the order without the key bytes
// (Block::BuildUserKeyPrefixes).
inline uint32_t UserKeyPrefix(const Slice& key, size_t skip) {
  uint32_t prefix = 0;
  for (size_t i = 0; i < 4; i++) {
    const size_t at = skip + i;
    const uint32_t byte =
        at < key.size() ? static_cast<unsigned char>(key[at]) : 0;
    prefix |= byte << (24 - 8 * i);
  }
  return prefix;
}

// "<file_name or 'block'>: block at <block_offset>: <what> at offset
// <offset>": how blocks report damage.
Status BlockCorruption(const char* file_name, uint64_t block_offset,
                       const char* what, uint64_t offset);

// A key rebuilt entry by entry (shared prefix kept, the rest replaced):
// in place up to kInline bytes, on the heap beyond.
class BlockKey {
 public:
  BlockKey() = default;
  BlockKey(const BlockKey&) = delete;
  BlockKey& operator=(const BlockKey&) = delete;

  Slice slice() const { return Slice(data_, size_); }
  size_t size() const { return size_; }
  void Clear() { size_ = 0; }
  // Keeps the first shared bytes (REQUIRES: shared <= size()) and
  // appends n bytes from p.
  void Update(size_t shared, const char* p, size_t n) {
    const size_t total = shared + n;
    if (total > capacity_) Grow(total, shared);
    if (n > 0) std::memcpy(data_ + shared, p, n);
    size_ = total;
  }

 private:
  static constexpr size_t kInline = 64;
  void Grow(size_t total, size_t keep);

  char space_[kInline];
  std::unique_ptr<char[]> heap_;
  char* data_ = space_;
  size_t size_ = 0;
  size_t capacity_ = kInline;
};

class BlockIter final : public InternalIterator {
 public:
  // Iterates block in the order of cmp (the order it was built in).
  // Corruption messages name file_name (may be null) and block_offset,
  // the block's offset in its file. A block whose restart array is
  // malformed gives an iterator that is never Valid(), with that status.
  BlockIter(const Block& block, const Comparator* cmp, const char* file_name,
            uint64_t block_offset);
  BlockIter(const BlockIter&) = delete;
  BlockIter& operator=(const BlockIter&) = delete;

  bool Valid() const override { return current_ < restarts_; }
  Status status() const override { return status_; }
  Slice key() const override { return key_.slice(); }
  Slice value() const override { return value_; }

  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override { ParseNext(); }
  void Prev() override;

 private:
  uint32_t Restart(uint32_t index) const;
  // Positions before the entry at restart point index.
  void SeekToRestart(uint32_t index);
  void MakeInvalid();
  void Corrupt(const char* what, uint64_t offset);
  // Binary search: the last restart point whose key is < target (0 if
  // none is), so that scanning forward from it reaches the first entry
  // >= target. False on a damaged restart entry.
  bool FindRestartBefore(const Slice& target, uint32_t* index);
  // The same, searching the restart points [left, right] only, all
  // earlier ones known to be < target.
  bool FindRestartBetween(const Slice& target, uint32_t left, uint32_t right,
                          uint32_t* index);
  // Decodes the entry at next_. False at the end of the block or on
  // damage (then status_ says what).
  bool ParseNext();

  const Comparator* const cmp_;
  const char* const data_;
  const uint32_t restarts_;  // offset of the restart array = entry area end
  const uint32_t num_restarts_;
  const uint32_t* const prefixes_;   // Block::BuildUserKeyPrefixes, or null
  const char* const prefix_common_;  // the restart keys' common bytes
  const uint32_t prefix_skip_;       // how many there are
  const bool prefix_last_apart_;     // the last restart key lacks them
  const uint32_t prefix_trailer_;    // bytes after the user key in a target
  const char* const file_name_;
  const uint64_t block_offset_;

  // Invariant: Valid() iff current_ < restarts_; then key_/value_ are the
  // entry at current_, next_ the offset after it, and restart_index_ the
  // last restart point <= current_.
  uint32_t current_;
  uint32_t next_;
  uint32_t restart_index_;
  BlockKey key_;
  Slice value_;
  Status status_;  // sticky: a damaged block stays unusable
};

}  // namespace strata

#endif  // STRATA_TABLE_BLOCK_ITER_H_
