// Block: a read-only view of one block written by BlockBuilder, with
// iterators that binary-search the restart points and scan between them,
// in both directions.
//
// Blocks come from files and are untrusted. The constructor checks the
// restart array (count fits the block, every offset inside the entry
// area); iterators check every entry they decode (lengths inside the
// block, shared <= previous key length). Any failure makes the iterator
// !Valid() with status() Corruption, never a read outside the block.
//
// Thread safety: a Block is immutable and shared (the block cache hands
// one to many readers); each iterator is used by one thread at a time.
// Lifetime: iterators point into the Block, which must outlive them.

#ifndef STRATA_TABLE_BLOCK_H_
#define STRATA_TABLE_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "strata/status.h"
#include "table/format.h"
#include "table/internal_iterator.h"

namespace strata {

class Comparator;

class Block {
 public:
  explicit Block(BlockContents&& contents);
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  // Bytes of the block (entries and restart trailer).
  size_t size() const { return contents_.data.size(); }
  // Memory held, for cache charges.
  size_t usable_size() const;

  // Corruption if the restart array is malformed; iterators of such a
  // block are then error iterators.
  const Status& status() const { return status_; }

  // For a block whose user keys are ordered bytewise (an index block under
  // BytewiseComparator), of internal keys or, with internal_keys false,
  // of user keys: keeps the bytes every restart point's user key begins
  // with, but perhaps the last's (a pointer to them in the first restart
  // key) and, for each
  // restart point, the next 4 bytes of its user key, zero-padded, as a
  // big-endian number, so that a Seek (whose target is a key of the same
  // kind) compares the common bytes once, binary-searches this dense
  // array and decodes only the restart keys that share the target's 4
  // bytes (docs/read_path.md). Does nothing if a restart entry is
  // malformed or (internal_keys) shorter than an internal key: such a
  // block is searched the usual way, which reports the damage. Call
  // before the block is shared.
  void BuildUserKeyPrefixes(bool internal_keys = true);

  // An iterator ordering keys by cmp (which must be the order the block
  // was built in). Corruption messages name file_name (may be null; must
  // outlive the iterator) and the block's file offset, then the offset
  // of the damage within the block. (A BlockIter, table/block_iter.h,
  // can also live on the caller's stack.)
  InternalIterator* NewIterator(const Comparator* cmp,
                                const char* file_name = nullptr,
                                uint64_t block_offset = 0) const;

 private:
  friend class BlockIter;

  // Records a malformed trailer: status_ (named "block at 0") and what
  // NewIterator needs to name it with the caller's file and offset.
  void SetCorruption(const char* what, uint32_t offset);

  BlockContents contents_;
  // BuildUserKeyPrefixes: one per restart point, or null.
  std::unique_ptr<uint32_t[]> prefixes_;
  // The user-key bytes every restart key begins with: prefix_skip_ bytes
  // at prefix_common_ (inside contents_); prefixes_ are taken after them.
  const char* prefix_common_ = nullptr;
  uint32_t prefix_skip_ = 0;
  // The last restart key does not begin with them (its prefix is then
  // UINT32_MAX): the common bytes are those of all the others.
  bool prefix_last_apart_ = false;
  // What follows the user key in the keys prefixes_ were taken from (and
  // in a Seek's target): an internal-key trailer (8) or nothing (0).
  uint32_t prefix_trailer_ = 0;
  uint32_t restart_offset_ = 0;  // where the restart array starts
  uint32_t num_restarts_ = 0;
  Status status_;
  const char* corruption_what_ = nullptr;  // a string literal
  uint32_t corruption_offset_ = 0;
};

}  // namespace strata

#endif  // STRATA_TABLE_BLOCK_H_
