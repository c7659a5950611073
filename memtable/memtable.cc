#include "memtable/memtable.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "util/coding.h"

namespace strata {

namespace {

// The length-prefixed slice at p. Entries were written by Add, so the
// prefix is well formed; a varint32 takes at most 5 bytes.
Slice DecodePrefixed(const char* p) {
  uint32_t size = 0;
  const char* data = GetVarint32Ptr(p, p + 5, &size);
  return Slice(data, size);
}

// Seek targets arrive as internal keys; the skiplist compares entries, so
// a target gets the entry's length prefix (nothing after the key is read).
const char* EncodeTarget(std::string* scratch, const Slice& internal_key) {
  scratch->clear();
  PutVarint32(scratch, static_cast<uint32_t>(internal_key.size()));
  scratch->append(internal_key.data(), internal_key.size());
  return scratch->data();
}

}  // namespace

int MemTable::KeyComparator::operator()(const char* a, const char* b) const {
  // In place: every step of a skiplist search compares here.
  return CompareInternalKeys(comparator.user_comparator(),
                             comparator.bytewise(), DecodePrefixed(a),
                             DecodePrefixed(b));
}

// Positions are skiplist nodes; key() and value() decode the entry in
// place, so they stay valid for the memtable's life, not just until the
// iterator moves.
class MemTable::Iter : public InternalIterator {
 public:
  explicit Iter(const Table* table) : iter_(table) {}

  bool Valid() const override { return iter_.Valid(); }
  void SeekToFirst() override { iter_.SeekToFirst(); }
  void SeekToLast() override { iter_.SeekToLast(); }
  void Seek(const Slice& target) override {
    iter_.Seek(EncodeTarget(&scratch_, target));
  }
  void SeekForPrev(const Slice& target) override {
    iter_.SeekForPrev(EncodeTarget(&scratch_, target));
  }
  void Next() override { iter_.Next(); }
  void Prev() override { iter_.Prev(); }
  Slice key() const override { return DecodePrefixed(iter_.key()); }
  Slice value() const override {
    const Slice k = key();
    return DecodePrefixed(k.data() + k.size());
  }
  Status status() const override { return Status::OK(); }

 private:
  Table::Iterator iter_;
  std::string scratch_;
};

MemTable::MemTable(const InternalKeyComparator& comparator)
    : MemTable(comparator, ConcurrentArena::kDefaultBlockSize) {}

MemTable::MemTable(const InternalKeyComparator& comparator,
                   size_t arena_block_size, size_t huge_page_region)
    : comparator_(comparator),
      arena_(arena_block_size, huge_page_region),
      table_(comparator_, &arena_),
      range_del_table_(comparator_, &arena_) {}

MemTable::~MemTable() { assert(refs_ == 0); }

void MemTable::Unref() {
  assert(refs_ > 0);
  if (--refs_ == 0) delete this;
}

Status MemTable::Add(SequenceNumber seq, ValueType type, const Slice& key,
                     const Slice& value, bool allow_concurrent) {
  if (type != kTypeValue && type != kTypeDeletion &&
      type != kTypeSingleDeletion && type != kTypeMerge &&
      type != kTypeRangeDeletion) {
    return Status::InvalidArgument("memtable: not an entry type");
  }
  Table* const table = type == kTypeRangeDeletion ? &range_del_table_ : &table_;
  assert(seq <= kMaxSequenceNumber);
  constexpr size_t kMaxField = std::numeric_limits<uint32_t>::max();
  if (key.size() > kMaxField - kInternalKeyTrailerSize ||
      value.size() > kMaxField) {
    return Status::InvalidArgument("memtable: key or value too large");
  }
  const uint32_t klen =
      static_cast<uint32_t>(key.size() + kInternalKeyTrailerSize);
  const uint32_t vlen = static_cast<uint32_t>(value.size());
  const size_t entry_size =
      VarintLength(klen) + size_t{klen} + VarintLength(vlen) + value.size();

  char* const entry = table->AllocateKey(entry_size);
  char* p = EncodeVarint32(entry, klen);
  std::memcpy(p, key.data(), key.size());
  p += key.size();
  EncodeFixed64(p, PackSequenceAndType(seq, type));
  p += kInternalKeyTrailerSize;
  p = EncodeVarint32(p, vlen);
  std::memcpy(p, value.data(), value.size());
  assert(p + value.size() == entry + entry_size);

  const bool inserted = allow_concurrent ? table->InsertConcurrently(entry)
                                         : table->Insert(entry);
  if (!inserted) {
    // The entry's space stays in the arena, unused; this only happens on
    // a replay, which is rare.
    return Status::TryAgain("memtable already holds this key at sequence",
                            std::to_string(seq));
  }

  num_entries_.fetch_add(1, std::memory_order_relaxed);
  if (type == kTypeDeletion || type == kTypeSingleDeletion) {
    num_deletes_.fetch_add(1, std::memory_order_relaxed);
  } else if (type == kTypeRangeDeletion) {
    num_range_deletes_.fetch_add(1, std::memory_order_relaxed);
  }
  data_size_.fetch_add(key.size() + value.size(), std::memory_order_relaxed);
  // Lower first_seqno_ to seq; 0 means "nothing yet".
  SequenceNumber first = first_seqno_.load(std::memory_order_relaxed);
  while ((first == 0 || seq < first) &&
         !first_seqno_.compare_exchange_weak(first, seq,
                                             std::memory_order_relaxed)) {
  }
  return Status::OK();
}

void MemTable::ForEachVersion(const LookupKey& key, void* arg,
                              bool (*visit)(void* arg,
                                            const Slice& internal_key,
                                            const Slice& value)) {
  const Comparator* ucmp = comparator_.comparator.user_comparator();
  Table::Iterator iter(&table_);
  // The lookup key sorts just before every version of the user key with
  // sequence <= its own.
  for (iter.Seek(key.memtable_key().data()); iter.Valid(); iter.Next()) {
    const Slice internal_key = DecodePrefixed(iter.key());
    if (!ucmp->Equal(ExtractUserKey(internal_key), key.user_key())) return;
    const Slice value =
        DecodePrefixed(internal_key.data() + internal_key.size());
    if (!visit(arg, internal_key, value)) return;
  }
}

InternalIterator* MemTable::NewIterator() { return new Iter(&table_); }

InternalIterator* MemTable::NewRangeTombstoneIterator() {
  Table::Iterator probe(&range_del_table_);
  probe.SeekToFirst();
  if (!probe.Valid()) return nullptr;
  return new Iter(&range_del_table_);
}

}  // namespace strata
