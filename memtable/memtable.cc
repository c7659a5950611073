#include "memtable/memtable.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "util/coding.h"
#include "util/hash.h"
#include "util/mutexlock.h"

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

// An iterator over a Position: a Table::Iterator (skiplist nodes) or a
// VectorPosition (a sorted run). Either way key() and value() decode the
// entry in place, so they stay valid for the memtable's life, not just
// until the iterator moves (LockedValueIter's value() excepted).
template <class Position>
class MemTable::Iter : public InternalIterator {
 public:
  template <class... Args>
  explicit Iter(Args&&... args) : pos_(std::forward<Args>(args)...) {}

  bool Valid() const override { return pos_.Valid(); }
  void SeekToFirst() override { pos_.SeekToFirst(); }
  void SeekToLast() override { pos_.SeekToLast(); }
  void Seek(const Slice& target) override {
    pos_.Seek(EncodeTarget(&scratch_, target));
  }
  void SeekForPrev(const Slice& target) override {
    pos_.SeekForPrev(EncodeTarget(&scratch_, target));
  }
  void Next() override { pos_.Next(); }
  void Prev() override { pos_.Prev(); }
  Slice key() const override { return DecodePrefixed(pos_.key()); }
  Slice value() const override {
    const Slice k = key();
    return DecodePrefixed(k.data() + k.size());
  }
  Status status() const override { return Status::OK(); }

 private:
  Position pos_;
  std::string scratch_;
};

// A position in a VectorRep's sorted run, with Table::Iterator's
// interface. Index RunSize(run) is "not valid". Holds the run (hold is
// empty for the final run, which lives as long as the memtable).
class MemTable::VectorPosition {
 public:
  VectorPosition(const KeyComparator* cmp, const Vector* rep,
                 std::shared_ptr<const Vector::Run> hold,
                 const Vector::Run* run)
      : cmp_(cmp),
        rep_(rep),
        hold_(std::move(hold)),
        run_(run),
        size_(Vector::RunSize(*run)),
        i_(size_) {}

  bool Valid() const { return i_ < size_; }
  const char* key() const { return rep_->RunAt(*run_, i_); }
  void Next() { i_++; }
  void Prev() { i_ = i_ == 0 ? size_ : i_ - 1; }
  void Seek(const char* target) { i_ = LowerBound(target, false); }
  void SeekForPrev(const char* target) {
    const size_t after = LowerBound(target, true);
    i_ = after == 0 ? size_ : after - 1;
  }
  void SeekToFirst() { i_ = 0; }
  void SeekToLast() { i_ = size_ == 0 ? 0 : size_ - 1; }

 private:
  // The first position whose entry is >= target (> target: upper).
  size_t LowerBound(const char* target, bool upper) const {
    size_t lo = 0, hi = size_;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      const int c = (*cmp_)(rep_->RunAt(*run_, mid), target);
      if (c < 0 || (upper && c == 0)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  const KeyComparator* const cmp_;
  const Vector* const rep_;
  const std::shared_ptr<const Vector::Run> hold_;
  const Vector::Run* const run_;
  const size_t size_;
  size_t i_;
};

// Wraps a memtable iterator whose values an in-place update may rewrite:
// value() copies the value under the key's update lock, once per position.
class MemTable::LockedValueIter : public InternalIterator {
 public:
  LockedValueIter(const MemTable* mem, InternalIterator* iter)
      : mem_(mem), iter_(iter) {}

  bool Valid() const override { return iter_->Valid(); }
  void SeekToFirst() override {
    copied_ = false;
    iter_->SeekToFirst();
  }
  void SeekToLast() override {
    copied_ = false;
    iter_->SeekToLast();
  }
  void Seek(const Slice& target) override {
    copied_ = false;
    iter_->Seek(target);
  }
  void SeekForPrev(const Slice& target) override {
    copied_ = false;
    iter_->SeekForPrev(target);
  }
  void Next() override {
    copied_ = false;
    iter_->Next();
  }
  void Prev() override {
    copied_ = false;
    iter_->Prev();
  }
  Slice key() const override { return iter_->key(); }
  Slice value() const override {
    if (!copied_) {
      ReadLock l(mem_->LockFor(ExtractUserKey(iter_->key())));
      const Slice v = iter_->value();
      value_.assign(v.data(), v.size());
      copied_ = true;
    }
    return value_;
  }
  Status status() const override { return iter_->status(); }

 private:
  const MemTable* const mem_;
  const std::unique_ptr<InternalIterator> iter_;
  mutable std::string value_;
  mutable bool copied_ = false;
};

MemTable::MemTable(const InternalKeyComparator& comparator)
    : MemTable(comparator, MemTableOptions()) {}

MemTable::MemTable(const InternalKeyComparator& comparator,
                   size_t arena_block_size, size_t huge_page_region)
    : MemTable(comparator, [&] {
        MemTableOptions options;
        options.arena_block_size = arena_block_size;
        options.huge_page_region = huge_page_region;
        return options;
      }()) {}

MemTable::MemTable(const InternalKeyComparator& comparator,
                   const MemTableOptions& options)
    : comparator_(comparator),
      arena_(options.arena_block_size, options.huge_page_region),
      table_(comparator_, &arena_),
      range_del_table_(comparator_, &arena_),
      vector_(options.vector_rep
                  ? new Vector(comparator_, &arena_, options.vector_reserve)
                  : nullptr),
      num_locks_(options.inplace_update_locks),
      locks_(num_locks_ > 0 ? new port::RWMutex[num_locks_] : nullptr) {}

MemTable::~MemTable() { assert(refs_ == 0); }

void MemTable::Unref() {
  assert(refs_ > 0);
  if (--refs_ == 0) delete this;
}

namespace {

// The size of the entry of (key, value), or 0 when a length does not fit
// its varint32.
inline size_t EntrySize(const Slice& key, const Slice& value) {
  constexpr size_t kMaxField = std::numeric_limits<uint32_t>::max();
  if (key.size() > kMaxField - kInternalKeyTrailerSize ||
      value.size() > kMaxField) {
    return 0;
  }
  const uint32_t klen =
      static_cast<uint32_t>(key.size() + kInternalKeyTrailerSize);
  return VarintLength(klen) + size_t{klen} +
         VarintLength(static_cast<uint32_t>(value.size())) + value.size();
}

// *entry_size = the size of the entry of (key, value) of type, or an
// error: a type that is no entry, a key or value too large.
inline Status CheckEntry(ValueType type, const Slice& key, const Slice& value,
                         size_t* entry_size) {
  if (type != kTypeValue && type != kTypeDeletion &&
      type != kTypeSingleDeletion && type != kTypeMerge &&
      type != kTypeRangeDeletion) {
    return Status::InvalidArgument("memtable: not an entry type");
  }
  *entry_size = EntrySize(key, value);
  if (*entry_size == 0) {
    return Status::InvalidArgument("memtable: key or value too large");
  }
  return Status::OK();
}

// Writes the entry (layout in memtable.h) into entry_size bytes at entry.
inline void EncodeEntry(char* entry, size_t entry_size, SequenceNumber seq,
                        ValueType type, const Slice& key, const Slice& value) {
  char* p = EncodeVarint32(
      entry, static_cast<uint32_t>(key.size() + kInternalKeyTrailerSize));
  std::memcpy(p, key.data(), key.size());
  p += key.size();
  EncodeFixed64(p, PackSequenceAndType(seq, type));
  p += kInternalKeyTrailerSize;
  p = EncodeVarint32(p, static_cast<uint32_t>(value.size()));
  std::memcpy(p, value.data(), value.size());
  assert(p + value.size() == entry + entry_size);
  (void)entry_size;
}

}  // namespace

inline void MemTable::CountAdd(SequenceNumber seq, ValueType type,
                               size_t bytes) {
  num_entries_.fetch_add(1, std::memory_order_relaxed);
  if (type == kTypeDeletion || type == kTypeSingleDeletion) {
    num_deletes_.fetch_add(1, std::memory_order_relaxed);
  } else if (type == kTypeRangeDeletion) {
    CountRangeDeletion(seq);
  }
  data_size_.fetch_add(bytes, std::memory_order_relaxed);
  LowerFirstSeqno(seq);
}

inline void MemTable::LowerFirstSeqno(SequenceNumber seq) {
  // 0 means "nothing yet".
  SequenceNumber first = first_seqno_.load(std::memory_order_relaxed);
  while ((first == 0 || seq < first) &&
         !first_seqno_.compare_exchange_weak(first, seq,
                                             std::memory_order_relaxed)) {
  }
}

void MemTable::CountRangeDeletion(SequenceNumber seq) {
  num_range_deletes_.fetch_add(1, std::memory_order_relaxed);
  SequenceNumber newest = max_range_del_seq_.load(std::memory_order_relaxed);
  while (seq > newest && !max_range_del_seq_.compare_exchange_weak(
                             newest, seq, std::memory_order_relaxed)) {
  }
}

Status MemTable::Add(SequenceNumber seq, ValueType type, const Slice& key,
                     const Slice& value, bool allow_concurrent) {
  size_t entry_size = 0;
  Status s = CheckEntry(type, key, value, &entry_size);
  if (!s.ok()) return s;
  assert(seq <= kMaxSequenceNumber);
  if (vector_ != nullptr && type != kTypeRangeDeletion) {
    return AddToVector(seq, type, key, value, entry_size, allow_concurrent);
  }
  Table* const table = type == kTypeRangeDeletion ? &range_del_table_ : &table_;
  char* const entry = table->AllocateKey(entry_size);
  EncodeEntry(entry, entry_size, seq, type, key, value);
  const bool inserted = allow_concurrent ? table->InsertConcurrently(entry)
                                         : table->Insert(entry);
  if (!inserted) {
    // The entry's space stays in the arena, unused; this only happens on
    // a replay, which is rare.
    return Status::TryAgain("memtable already holds this key at sequence",
                            std::to_string(seq));
  }
  CountAdd(seq, type, key.size() + value.size());
  return Status::OK();
}

Status MemTable::Stage(SequenceNumber seq, ValueType type, const Slice& key,
                       const Slice& value, Staged* staged) {
  assert(CanStage() && type != kTypeRangeDeletion);
  if (type == kTypeRangeDeletion) {
    return Status::InvalidArgument("memtable: a range tombstone is not staged");
  }
  size_t entry_size = 0;
  Status s = CheckEntry(type, key, value, &entry_size);
  if (!s.ok()) return s;
  char* const entry = table_.AllocateKey(entry_size);
  EncodeEntry(entry, entry_size, seq, type, key, value);
  staged->entries.push_back(entry);
  if (type == kTypeDeletion || type == kTypeSingleDeletion) staged->deletes++;
  staged->bytes += key.size() + value.size();
  if (staged->first_seq == 0 || seq < staged->first_seq) {
    staged->first_seq = seq;
  }
  return Status::OK();
}

Status MemTable::LinkStaged(Staged* staged) {
  std::vector<const char*>& entries = staged->entries;
  const auto less = [this](const char* a, const char* b) {
    return comparator_(a, b) < 0;
  };
  uint64_t refused = 0;
  const auto uncount = [&](const char* entry) {
    // Already present (a replay; rare): not counted.
    refused++;
    const Slice internal_key = DecodePrefixed(entry);
    const Slice value =
        DecodePrefixed(internal_key.data() + internal_key.size());
    const ValueType type = ExtractValueType(internal_key);
    if (type == kTypeDeletion || type == kTypeSingleDeletion) staged->deletes--;
    staged->bytes -= ExtractUserKey(internal_key).size() + value.size();
  };
  if (std::is_sorted(entries.begin(), entries.end(), less)) {
    // Already in order (a sorted load, one comparison an entry to tell):
    // each search starts where the last one ended.
    for (const char* entry : entries) {
      if (!table_.Insert(entry)) uncount(entry);
    }
  } else {
    std::sort(entries.begin(), entries.end(), less);
    table_.InsertSorted(entries.data(), entries.size(), uncount);
  }
  // Counted after the links, as Add counts after its one. A refused
  // entry's sequence is already in this memtable, so first_seq stands.
  num_entries_.fetch_add(entries.size() - refused, std::memory_order_relaxed);
  num_deletes_.fetch_add(staged->deletes, std::memory_order_relaxed);
  data_size_.fetch_add(staged->bytes, std::memory_order_relaxed);
  if (!entries.empty()) LowerFirstSeqno(staged->first_seq);
  entries.clear();
  staged->deletes = 0;
  staged->bytes = 0;
  staged->first_seq = 0;
  return refused == 0 ? Status::OK()
                      : Status::TryAgain("memtable already held ",
                                         std::to_string(refused) + " entries");
}

Status MemTable::AddToVector(SequenceNumber seq, ValueType type,
                             const Slice& key, const Slice& value,
                             size_t entry_size, bool allow_concurrent) {
  if (allow_concurrent) {
    return Status::InvalidArgument(
        "memtable: the vector representation takes one writer at a time");
  }
  // No node links: the entry alone, unaligned.
  char* const entry = arena_.Allocate(entry_size);
  EncodeEntry(entry, entry_size, seq, type, key, value);
  vector_->Append(entry);
  CountAdd(seq, type, key.size() + value.size());
  return Status::OK();
}

// The skiplist's versions of key, newest first (see ForEachVersion).
inline void MemTable::VisitSkipListVersions(const LookupKey& key, void* arg,
                                            Visitor visit) {
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

void MemTable::ForEachVersion(const LookupKey& key, void* arg, Visitor visit) {
  if (vector_ == nullptr && locks_ == nullptr) {
    VisitSkipListVersions(key, arg, visit);  // the default, kept lean
    return;
  }
  if (ValuesMayChange()) {
    ReadLock l(LockFor(key.user_key()));
    VisitVersions(key, arg, visit);
  } else {
    VisitVersions(key, arg, visit);
  }
}

void MemTable::VisitVersions(const LookupKey& key, void* arg, Visitor visit) {
  if (vector_ != nullptr) {
    VisitVectorVersions(key, arg, visit);
  } else {
    VisitSkipListVersions(key, arg, visit);
  }
}

namespace {

// Unsorted entries a lookup into a mutable VectorRep of n entries scans
// before it has the sorted run extended. A scan costs a user-key
// comparison per entry; an extension copies the run's n pointers (and
// sorts only the new ones), so extending once per about sqrt(n) appends
// balances the two when reads and writes interleave.
size_t MaxUnsortedForLookup(size_t n) {
  return std::max<size_t>(
      64, static_cast<size_t>(std::sqrt(static_cast<double>(n))));
}

bool VisitEntry(const char* entry, void* arg,
                bool (*visit)(void*, const Slice&, const Slice&)) {
  const Slice internal_key = DecodePrefixed(entry);
  return visit(arg, internal_key,
               DecodePrefixed(internal_key.data() + internal_key.size()));
}

}  // namespace

void MemTable::VisitVectorVersions(const LookupKey& key, void* arg,
                                   Visitor visit) {
  const char* const target = key.memtable_key().data();
  const Comparator* ucmp = comparator_.comparator.user_comparator();
  const auto same_user_key = [&](const char* entry) {
    return ucmp->Equal(ExtractUserKey(DecodePrefixed(entry)), key.user_key());
  };
  const auto less = [this](const char* a, const char* b) {
    return comparator_(a, b) < 0;
  };
  std::shared_ptr<const Vector::Run> hold;
  const Vector::Run* run = vector_->final_run();
  if (run == nullptr) {
    hold = vector_->Sorted(MaxUnsortedForLookup(vector_->size()));
    run = hold.get();
  }
  // Read after the run: everything published before this lookup began is
  // in the run or in [covered, end).
  const size_t end = vector_->size();
  const size_t run_size = Vector::RunSize(*run);
  size_t i = 0;  // the first run entry >= target
  for (size_t hi = run_size; i < hi;) {
    const size_t mid = i + (hi - i) / 2;
    if (less(vector_->RunAt(*run, mid), target)) {
      i = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (run->covered == end) {  // all sorted: no copy
    for (; i < run_size; i++) {
      const char* e = vector_->RunAt(*run, i);
      if (!same_user_key(e) || !VisitEntry(e, arg, visit)) return;
    }
    return;
  }
  // The key's versions in the run, then those appended since, in order.
  // Stable: of equal entries (a duplicate Add) the run's, appended first,
  // comes first and is the one visited.
  std::vector<const char*> versions;
  for (; i < run_size && same_user_key(vector_->RunAt(*run, i)); i++) {
    versions.push_back(vector_->RunAt(*run, i));
  }
  vector_->ForEach(run->covered, end, [&](const char* e) {
    if (same_user_key(e) && comparator_(e, target) >= 0) versions.push_back(e);
  });
  std::stable_sort(versions.begin(), versions.end(), less);
  const char* previous = nullptr;
  for (const char* e : versions) {
    if (previous != nullptr && comparator_(previous, e) == 0) continue;
    previous = e;
    if (!VisitEntry(e, arg, visit)) return;
  }
}

port::RWMutex* MemTable::LockFor(const Slice& user_key) const {
  return &locks_[GetSliceHash(user_key) % num_locks_];
}

Status MemTable::Update(SequenceNumber seq, const Slice& key,
                        const Slice& value) {
  assert(locks_ != nullptr);
  // The newest version of key, whatever its sequence: where its value
  // starts (just past the internal key), its tag and its value's size.
  struct Newest {
    char* value_at = nullptr;
    uint64_t tag = 0;
    size_t size = 0;
  } newest;
  // No lock to find it: keys never change, and this is the only writer.
  VisitVersions(LookupKey(key, kMaxSequenceNumber), &newest,
                [](void* arg, const Slice& internal_key, const Slice& v) {
                  Newest* n = static_cast<Newest*>(arg);
                  const char* end = internal_key.data() + internal_key.size();
                  n->value_at = const_cast<char*>(end);
                  n->tag = DecodeFixed64(end - kInternalKeyTrailerSize);
                  n->size = v.size();
                  return false;
                });
  if (newest.value_at != nullptr && value.size() <= newest.size) {
    SequenceNumber newest_seq;
    ValueType type;
    UnpackSequenceAndType(newest.tag, &newest_seq, &type);
    // Older than seq: not a WAL record replayed onto its own entry or a
    // later one (Add sorts that out). Newer than every range tombstone
    // here: the value must not land under a tombstone the new Put follows.
    if (type == kTypeValue && newest_seq < seq &&
        newest_seq > max_range_del_seq_.load(std::memory_order_relaxed)) {
      // A smaller value may shorten the length prefix too; the bytes
      // after the new value are left unused.
      WriteLock l(LockFor(key));
      char* p =
          EncodeVarint32(newest.value_at, static_cast<uint32_t>(value.size()));
      std::memcpy(p, value.data(), value.size());
      return Status::OK();
    }
  }
  return Add(seq, kTypeValue, key, value);
}

InternalIterator* MemTable::NewIterator() {
  InternalIterator* iter;
  if (vector_ == nullptr) {
    iter = new Iter<Table::Iterator>(&table_);
  } else {
    std::shared_ptr<const Vector::Run> hold;
    const Vector::Run* run = vector_->final_run();
    if (run == nullptr) {
      hold = vector_->Sorted(0);
      run = hold.get();
    }
    iter = new Iter<VectorPosition>(&comparator_, vector_.get(),
                                    std::move(hold), run);
  }
  if (ValuesMayChange()) iter = new LockedValueIter(this, iter);
  return iter;
}

InternalIterator* MemTable::NewRangeTombstoneIterator() {
  Table::Iterator probe(&range_del_table_);
  probe.SeekToFirst();
  if (!probe.Valid()) return nullptr;
  return new Iter<Table::Iterator>(&range_del_table_);
}

}  // namespace strata
