// BlockBasedTable's point lookup, Get (docs/read_path.md).
//
// Entries are handed on with the pin of their data block when the block
// is in the block cache (CachePin), so that the receiver may keep a value
// without copying it; a block this lookup owns (no cache, fill_cache off,
// a full strict cache) or one used in place in an mmap'ed file is passed
// without a pin: its bytes go when the lookup moves on.

#include "db/dbformat.h"
#include "env/file_reader.h"
#include "table/block.h"
#include "table/block_based_table_reader.h"
#include "table/block_iter.h"
#include "table/filter_block.h"
#include "util/stop_watch.h"

namespace strata {

Status BlockBasedTable::Get(const ReadOptions& read_options,
                            const Slice& internal_key, void* arg,
                            GetEntryFunction handle_entry) {
  if (internal_key.size() < kInternalKeyTrailerSize) {
    return Status::InvalidArgument("lookup key is not an internal key");
  }
  const Slice user_key = ExtractUserKey(internal_key);
  if (has_filter_) {  // whole keys, or the prefix of the key
    PinnedValue<FullFilterBlockReader> filter;
    Status s = GetFilter(&filter);
    if (!s.ok()) return s;
    if (!filter->KeyMayMatch(user_key)) {
      RecordTick(statistics_, BLOOM_FILTER_USEFUL);
      return Status::OK();
    }
  }
  // The index and one data block at a time, without a two-level
  // iterator: versions of the user key may continue into the next block.
  // Both iterators live on the stack: this is the hottest read path.
  PinnedValue<Block> index;
  Status s = GetIndexBlock(&index);
  if (!s.ok()) return s;
  const char* file_name = file_->file_name().c_str();
  BlockIter index_iter(*index.get(), &cmp_, file_name,
                       footer_.index_handle.offset());
  const Comparator* ucmp = icmp_->user_comparator();
  for (index_iter.Seek(internal_key); index_iter.Valid(); index_iter.Next()) {
    if (index_iter.key().size() < kInternalKeyTrailerSize) {
      return Status::Corruption(BlockWhere(footer_.index_handle.offset()),
                                "key shorter than 8 bytes");
    }
    BlockHandle handle;
    s = DecodeIndexValue(index_iter.value(), &handle);
    if (!s.ok()) return s;
    PinnedValue<Block> data;
    s = GetDataBlock(read_options, handle, &data);
    if (!s.ok()) return s;
    CachePin* pin = data.cache_pin();
    BlockIter block(*data.get(), &cmp_, file_name, handle.offset());
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
      if (!handle_entry(arg, key, block.value(), pin)) return Status::OK();
    }
    if (!block.status().ok()) return block.status();
  }
  return index_iter.status();
}

}  // namespace strata
