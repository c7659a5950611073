// BlockBasedTable's point lookups: Get, and MultiGet, which walks its keys
// in order and keeps the data block it last read, so that the keys of one
// block cost one block lookup (docs/read_path.md); PlanMultiGet names the
// blocks a MultiGet will read, so that they can be read together first.
//
// Entries are handed on with the pin of their data block when the block
// is in the block cache (CachePin), so that the receiver may keep a value
// without copying it; a block this lookup owns (no cache, fill_cache off,
// a full strict cache) or one used in place in an mmap'ed file is passed
// without a pin: its bytes go when the lookup moves on.

#include "db/dbformat.h"
#include "env/file_reader.h"
#include "env/read_batch.h"
#include "table/block.h"
#include "table/block_based_table_reader.h"
#include "table/block_iter.h"
#include "table/filter_block.h"
#include "util/stop_watch.h"

namespace strata {

namespace {

void FailRemaining(TableLookup* const* lookups, size_t n, const Status& s) {
  for (size_t i = 0; i < n; i++) {
    if (lookups[i]->done) continue;
    lookups[i]->status = s;
    lookups[i]->done = true;
  }
}

}  // namespace

BlockBasedTable::BlockSearch::BlockSearch(const ReadOptions* r,
                                          GetEntryFunction h, BlockIter* i)
    : read_options(r), handle_entry(h), index_iter(i) {}

BlockBasedTable::BlockSearch::~BlockSearch() = default;

Status BlockBasedTable::SearchBlocks(TableLookup* lookup,
                                     BlockSearch* search) const {
  const Slice internal_key = lookup->internal_key;
  const Slice user_key = ExtractUserKey(internal_key);
  const Comparator* ucmp = icmp_->user_comparator();
  const char* file_name = file_->file_name().c_str();
  BlockIter* index_iter = search->index_iter;
  // One data block at a time, without a two-level iterator: versions of
  // the user key may continue into the next block.
  for (index_iter->Seek(IndexTarget(internal_key)); index_iter->Valid();
       index_iter->Next()) {
    if (!IndexHasUserKeys() &&
        index_iter->key().size() < kInternalKeyTrailerSize) {
      return Status::Corruption(BlockWhere(footer_.index_handle.offset()),
                                "key shorter than 8 bytes");
    }
    BlockHandle handle;
    Status s = DecodeIndexValue(index_iter->value(), &handle);
    if (!s.ok()) return s;
    if (!search->loaded || search->block_offset != handle.offset()) {
      search->loaded = false;
      s = GetDataBlock(*search->read_options, handle, &search->block, nullptr,
                       lookup->preread);
      if (!s.ok()) return s;
      search->block_offset = handle.offset();
      search->loaded = true;
    }
    CachePin* pin = search->block.cache_pin();
    BlockIter block(*search->block.get(), &cmp_, file_name, handle.offset());
    for (block.Seek(internal_key); block.Valid(); block.Next()) {
      const Slice key = block.key();
      if (key.size() < kInternalKeyTrailerSize) {
        return Status::Corruption(BlockWhere(handle.offset()),
                                  "key shorter than 8 bytes");
      }
      if (!ucmp->Equal(ExtractUserKey(key), user_key)) return Status::OK();
      // Range tombstones live in their own block: one found in a data
      // block (a foreign or crafted table) is not a point entry.
      if (ExtractValueType(key) == kTypeRangeDeletion) continue;
      if (!search->handle_entry(lookup->arg, key, block.value(), pin)) {
        lookup->done = true;
        return Status::OK();
      }
    }
    if (!block.status().ok()) return block.status();
    // The block ended on the key's versions, or before the key (absent):
    // the next block's keys all sort after this block's index key, so
    // they hold none of the key's versions if that key's user key is
    // greater. (A shortened separator usually is; an equal one may be
    // followed by more versions, but not in an index of user keys, where
    // no user key spans two blocks.)
    if (IndexHasUserKeys() ||
        ucmp->Compare(ExtractUserKey(index_iter->key()), user_key) > 0) {
      break;
    }
  }
  return index_iter->status();
}

Status BlockBasedTable::Get(const ReadOptions& read_options,
                            const Slice& internal_key, void* arg,
                            GetEntryFunction handle_entry) {
  if (internal_key.size() < kInternalKeyTrailerSize) {
    return Status::InvalidArgument("lookup key is not an internal key");
  }
  if (has_filter_) {  // whole keys, or the prefix of the key
    PinnedValue<FullFilterBlockReader> filter;
    Status s = GetFilter(&filter);
    if (!s.ok()) return s;
    if (!filter->KeyMayMatch(ExtractUserKey(internal_key))) {
      RecordTick(statistics_, BLOOM_FILTER_USEFUL);
      return Status::OK();
    }
  }
  // The index iterator lives on the stack: this is the hottest read path.
  PinnedValue<Block> index;
  Status s = GetIndexBlock(&index);
  if (!s.ok()) return s;
  BlockIter index_iter(*index.get(), IndexComparator(),
                       file_->file_name().c_str(),
                       footer_.index_handle.offset());
  TableLookup lookup;
  lookup.internal_key = internal_key;
  lookup.arg = arg;
  BlockSearch search(&read_options, handle_entry, &index_iter);
  return SearchBlocks(&lookup, &search);
}

void BlockBasedTable::MultiGet(const ReadOptions& read_options,
                               TableLookup* const* lookups, size_t n,
                               GetEntryFunction handle_entry) {
  // The filter and the index once for the batch.
  PinnedValue<FullFilterBlockReader> filter;
  if (has_filter_) {
    Status s = GetFilter(&filter);
    if (!s.ok()) return FailRemaining(lookups, n, s);
  }
  PinnedValue<Block> index;
  Status s = GetIndexBlock(&index);
  if (!s.ok()) return FailRemaining(lookups, n, s);
  BlockIter index_iter(*index.get(), IndexComparator(),
                       file_->file_name().c_str(),
                       footer_.index_handle.offset());
  BlockSearch search(&read_options, handle_entry, &index_iter);
  for (size_t i = 0; i < n; i++) {
    TableLookup* lookup = lookups[i];
    if (lookup->done) continue;
    const Slice internal_key = lookup->internal_key;
    if (internal_key.size() < kInternalKeyTrailerSize) {
      lookup->status =
          Status::InvalidArgument("lookup key is not an internal key");
      lookup->done = true;
      continue;
    }
    if (has_filter_ && !filter->KeyMayMatch(ExtractUserKey(internal_key))) {
      RecordTick(statistics_, BLOOM_FILTER_USEFUL);
      continue;
    }
    s = SearchBlocks(lookup, &search);
    if (!s.ok()) {
      lookup->status = s;
      lookup->done = true;
    }
  }
}

void BlockBasedTable::PlanMultiGet(const ReadOptions& read_options,
                                   TableLookup* const* lookups, size_t n,
                                   ReadBatch* reads) {
  (void)read_options;
  // A file in memory has nothing to read. Errors (the filter, the index)
  // plan nothing: MultiGet meets them again and reports them.
  if (file_in_memory_) return;
  PinnedValue<FullFilterBlockReader> filter;
  if (has_filter_ && !GetFilter(&filter, /*count=*/false).ok()) return;
  PinnedValue<Block> index;
  if (!GetIndexBlock(&index, /*count=*/false).ok()) return;
  BlockIter index_iter(*index.get(), IndexComparator(),
                       file_->file_name().c_str(),
                       footer_.index_handle.offset());
  const BatchRead* last = nullptr;  // keys in order share a block's read
  for (size_t i = 0; i < n; i++) {
    TableLookup* lookup = lookups[i];
    if (lookup->done) continue;
    const Slice internal_key = lookup->internal_key;
    if (internal_key.size() < kInternalKeyTrailerSize) continue;
    if (has_filter_ && !filter->KeyMayMatch(ExtractUserKey(internal_key))) {
      continue;
    }
    index_iter.Seek(IndexTarget(internal_key));
    if (!index_iter.Valid()) continue;
    BlockHandle handle;
    if (!DecodeIndexValue(index_iter.value(), &handle).ok()) continue;
    if (last != nullptr && last->offset == handle.offset()) {
      lookup->preread = last;
      continue;
    }
    if (cache_ != nullptr) {
      Cache::Handle* cached =
          cache_->Lookup(CacheKey(CachedKind::kData, handle.offset()).slice());
      if (cached != nullptr) {
        cache_->Release(cached);
        continue;
      }
    }
    // ReadBlock checks the handle against the file when the block is used.
    if (handle.size() > file_size_) continue;
    last = reads->Add(file_.get(), handle.offset(),
                      static_cast<size_t>(handle.size()) + kBlockTrailerSize);
    lookup->preread = last;
  }
}

}  // namespace strata
