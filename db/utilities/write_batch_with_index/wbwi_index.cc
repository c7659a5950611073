#include "db/utilities/write_batch_with_index/wbwi_index.h"

#include <cassert>

#include "db/dbformat.h"
#include "db/write_batch_internal.h"
#include "util/coding.h"

namespace strata {

namespace {

// The key of the record at offset of rep. The record was written by the
// batch's own update methods, so it parses.
Slice RecordKey(const Slice& rep, size_t offset) {
  Slice input(rep.data() + offset + 1, rep.size() - offset - 1);
  switch (static_cast<ValueType>(rep[offset])) {
    case kTypeColumnFamilyValue:
    case kTypeColumnFamilyMerge:
    case kTypeColumnFamilyDeletion:
    case kTypeColumnFamilySingleDeletion: {
      uint32_t cf_id;
      GetVarint32(&input, &cf_id);
      break;
    }
    default:
      break;
  }
  Slice key;
  const bool ok = GetLengthPrefixedSlice(&input, &key);
  assert(ok);
  (void)ok;
  return key;
}

}  // namespace

Slice IndexOrder::KeyOf(const IndexEntry& e) const {
  return Slice(WriteBatchInternal::Contents(batch_).data() + e.key_offset,
               e.key_size);
}

WriteBatchIndex::WriteBatchIndex(const WriteBatch* batch, bool overwrite_key)
    : batch_(batch), overwrite_key_(overwrite_key) {}

const IndexSet* WriteBatchIndex::Family(uint32_t cf_id, const Comparator* cmp) {
  auto it = families_.find(cf_id);
  if (it == families_.end()) {
    it = families_.emplace(cf_id, IndexSet(IndexOrder(batch_, cmp))).first;
  }
  return &it->second;
}

const IndexSet* WriteBatchIndex::FindFamily(uint32_t cf_id) const {
  auto it = families_.find(cf_id);
  return it == families_.end() ? nullptr : &it->second;
}

void WriteBatchIndex::Add(uint32_t cf_id, const Comparator* cmp, size_t offset,
                          WriteType type) {
  log_.push_back({cf_id, type, offset});
  Insert(cf_id, cmp, offset, type);
}

void WriteBatchIndex::Insert(uint32_t cf_id, const Comparator* cmp,
                             size_t offset, WriteType type) {
  IndexSet* set = const_cast<IndexSet*>(Family(cf_id, cmp));
  const Slice rep = WriteBatchInternal::Contents(batch_);
  const Slice key = RecordKey(rep, offset);
  const size_t key_offset = static_cast<size_t>(key.data() - rep.data());
  if (overwrite_key_ && type != kMergeRecord) {
    // The key's newest entry, if the key is indexed.
    auto it = set->upper_bound(IndexProbe{key, kMaxOffset});
    if (it != set->begin()) {
      --it;
      if (set->key_comp().comparator()->Compare(set->key_comp().KeyOf(*it),
                                                key) == 0) {
        it->offset = offset;
        it->key_offset = key_offset;
        it->type = type;
        return;
      }
    }
  }
  set->insert(IndexEntry{offset, key_offset, key.size(), type});
}

void WriteBatchIndex::Truncate(size_t size) {
  while (!log_.empty() && log_.back().offset >= size) log_.pop_back();
  for (auto& f : families_) f.second.clear();
  for (const Logged& l : log_) {
    Insert(l.cf_id, families_.at(l.cf_id).key_comp().comparator(), l.offset,
           l.type);
  }
}

void WriteBatchIndex::Clear() {
  log_.clear();
  for (auto& f : families_) f.second.clear();
}

WriteEntry WriteBatchIndex::EntryOf(const IndexEntry& e) const {
  const Slice rep = WriteBatchInternal::Contents(batch_);
  WriteEntry entry;
  entry.type = e.type;
  entry.key = Slice(rep.data() + e.key_offset, e.key_size);
  if (e.type == kPutRecord || e.type == kMergeRecord) {
    const size_t value_at = e.key_offset + e.key_size;
    Slice input(rep.data() + value_at, rep.size() - value_at);
    GetLengthPrefixedSlice(&input, &entry.value);
  }
  return entry;
}

WBWIIterator::~WBWIIterator() = default;

WBWIIteratorImpl::WBWIIteratorImpl(const WriteBatchIndex* index,
                                   const IndexSet* set)
    : index_(index), set_(set), pos_(set->end()) {}

bool WBWIIteratorImpl::Valid() const { return pos_ != set_->end(); }

void WBWIIteratorImpl::SeekToFirst() { pos_ = set_->begin(); }

void WBWIIteratorImpl::SeekToLast() {
  pos_ = set_->end();
  if (pos_ != set_->begin()) --pos_;
}

void WBWIIteratorImpl::Seek(const Slice& key) {
  pos_ = set_->lower_bound(IndexProbe{key, WriteBatchIndex::kMinOffset});
}

void WBWIIteratorImpl::SeekForPrev(const Slice& key) {
  pos_ = set_->upper_bound(IndexProbe{key, WriteBatchIndex::kMaxOffset});
  pos_ = pos_ == set_->begin() ? set_->end() : std::prev(pos_);
}

void WBWIIteratorImpl::SeekBefore(const Slice& key) {
  pos_ = set_->lower_bound(IndexProbe{key, WriteBatchIndex::kMinOffset});
  pos_ = pos_ == set_->begin() ? set_->end() : std::prev(pos_);
}

void WBWIIteratorImpl::Next() {
  assert(Valid());
  ++pos_;
}

void WBWIIteratorImpl::Prev() {
  assert(Valid());
  pos_ = pos_ == set_->begin() ? set_->end() : std::prev(pos_);
}

void WBWIIteratorImpl::NextKey() {
  assert(Valid());
  pos_ = set_->upper_bound(IndexProbe{key(), WriteBatchIndex::kMaxOffset});
}

void WBWIIteratorImpl::PrevKey() {
  assert(Valid());
  SeekBefore(key());
}

WriteEntry WBWIIteratorImpl::Entry() const {
  assert(Valid());
  return index_->EntryOf(*pos_);
}

}  // namespace strata
