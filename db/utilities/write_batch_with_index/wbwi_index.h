// WriteBatchIndex: the searchable index of a WriteBatchWithIndex, and the
// WBWIIterator over one column family of it.
//
// Each indexed update is an IndexEntry naming its record by offsets into
// the batch's encoding (the batch may reallocate, so no pointers are kept).
// Entries live in one ordered set per column family, ordered by the
// family's comparator on the key and, within a key, by record offset, that
// is, by the order the updates were written.
//
// overwrite_key: a Put, Delete or SingleDelete of a key already indexed
// re-points the key's newest entry at the new record rather than adding
// one. The new record's offset is larger than every other, so the entry
// keeps its place in the set: it is changed in place (its offset and type
// are mutable) and iterators stay valid. A Merge is always added, so a
// lookup still meets every operand since the key's last Put or deletion.
//
// Rollback: the index keeps the log of what Add was given; truncating the
// batch to a save point drops the log's tail and rebuilds the sets from
// the rest, which replays the overwrites exactly as they happened.
//
// Thread safety: const methods from many threads; Add, Truncate and Clear
// need external synchronization and (Truncate, Clear) invalidate iterators.

#ifndef STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_INDEX_H_
#define STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "strata/comparator.h"
#include "strata/slice.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"

namespace strata {

struct IndexEntry {
  // Where the record starts in the batch's encoding; unique.
  mutable size_t offset;
  mutable size_t key_offset;
  size_t key_size;
  mutable WriteType type;
};

// A key to search for: entries of key with offset < this one's sort before
// it. kMinOffset / kMaxOffset place it before / after every entry of key.
struct IndexProbe {
  Slice key;
  size_t offset;
};

class IndexOrder {
 public:
  using is_transparent = void;

  IndexOrder(const WriteBatch* batch, const Comparator* cmp)
      : batch_(batch), cmp_(cmp) {}

  bool operator()(const IndexEntry& a, const IndexEntry& b) const {
    return Less(KeyOf(a), a.offset, KeyOf(b), b.offset);
  }
  bool operator()(const IndexEntry& a, const IndexProbe& b) const {
    return Less(KeyOf(a), a.offset, b.key, b.offset);
  }
  bool operator()(const IndexProbe& a, const IndexEntry& b) const {
    return Less(a.key, a.offset, KeyOf(b), b.offset);
  }

  Slice KeyOf(const IndexEntry& e) const;
  const Comparator* comparator() const { return cmp_; }

 private:
  bool Less(const Slice& ka, size_t oa, const Slice& kb, size_t ob) const {
    const int c = cmp_->Compare(ka, kb);
    return c < 0 || (c == 0 && oa < ob);
  }

  const WriteBatch* batch_;
  const Comparator* cmp_;
};

using IndexSet = std::set<IndexEntry, IndexOrder>;

class WriteBatchIndex {
 public:
  static constexpr size_t kMinOffset = 0;
  static constexpr size_t kMaxOffset = ~static_cast<size_t>(0);

  // batch: the batch indexed, which must outlive this index.
  WriteBatchIndex(const WriteBatch* batch, bool overwrite_key);
  WriteBatchIndex(const WriteBatchIndex&) = delete;
  WriteBatchIndex& operator=(const WriteBatchIndex&) = delete;

  // Indexes the record the batch holds at offset: an update of type
  // (Put, Merge, Delete or SingleDelete) to family cf_id. cmp orders the
  // family's keys if this is the first update of the family seen.
  void Add(uint32_t cf_id, const Comparator* cmp, size_t offset,
           WriteType type);

  // The entries of cf_id, created empty (ordered by cmp) if there are
  // none yet. The set lives as long as this index.
  const IndexSet* Family(uint32_t cf_id, const Comparator* cmp);
  // The entries of cf_id, or null if it has never had any.
  const IndexSet* FindFamily(uint32_t cf_id) const;

  // Forgets every entry whose record starts at or beyond size (the
  // batch has just been truncated to size) and rebuilds the sets.
  void Truncate(size_t size);
  void Clear();

  const WriteBatch* batch() const { return batch_; }

  // The entry's update as a WriteEntry pointing into the batch.
  WriteEntry EntryOf(const IndexEntry& e) const;

 private:
  struct Logged {
    uint32_t cf_id;
    WriteType type;
    size_t offset;
  };

  void Insert(uint32_t cf_id, const Comparator* cmp, size_t offset,
              WriteType type);

  const WriteBatch* const batch_;
  const bool overwrite_key_;
  // Never erased, so that iterators' sets stay valid across Clear.
  std::map<uint32_t, IndexSet> families_;
  std::vector<Logged> log_;
};

// Iterates one family's IndexSet.
class WBWIIteratorImpl final : public WBWIIterator {
 public:
  // Result of looking at all the entries of one key, newest first.
  enum Result { kNotFound, kFound, kDeleted, kMergeInProgress };

  WBWIIteratorImpl(const WriteBatchIndex* index, const IndexSet* set);

  bool Valid() const override;
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& key) override;
  void SeekForPrev(const Slice& key) override;
  void Next() override;
  void Prev() override;
  WriteEntry Entry() const override;
  Status status() const override { return Status::OK(); }

  // The key of the current entry. REQUIRES: Valid()
  Slice key() const { return set_->key_comp().KeyOf(*pos_); }
  // To the first entry of the next key / the last entry of the previous
  // key. REQUIRES: Valid()
  void NextKey();
  void PrevKey();
  // To the last entry of the last key < key.
  void SeekBefore(const Slice& key);

  // What the entries of the current key say, newest first: the newest Put
  // (kFound, *value its value) or deletion (kDeleted) and the Merge
  // operands newer than it, pushed into *operands newest first; or only
  // operands (kMergeInProgress). Does not move. REQUIRES: Valid()
  template <typename OperandSink>
  Result LatestUpdate(OperandSink* operands, Slice* value) const;

 private:
  const WriteBatchIndex* const index_;
  const IndexSet* const set_;
  IndexSet::const_iterator pos_;
};

template <typename OperandSink>
WBWIIteratorImpl::Result WBWIIteratorImpl::LatestUpdate(OperandSink* operands,
                                                        Slice* value) const {
  const Slice k = key();
  auto it = set_->upper_bound(IndexProbe{k, WriteBatchIndex::kMaxOffset});
  Result result = kNotFound;
  while (it != set_->begin()) {
    --it;
    if (set_->key_comp().comparator()->Compare(set_->key_comp().KeyOf(*it),
                                               k) != 0) {
      break;
    }
    const WriteEntry e = index_->EntryOf(*it);
    switch (e.type) {
      case kPutRecord:
        *value = e.value;
        return kFound;
      case kDeleteRecord:
      case kSingleDeleteRecord:
        return kDeleted;
      case kMergeRecord:
        operands->PushOperand(e.value);
        result = kMergeInProgress;
        break;
      default:
        break;
    }
  }
  return result;
}

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_INDEX_H_
