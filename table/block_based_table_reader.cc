#include "table/block_based_table_reader.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "env/file_reader.h"
#include "env/read_batch.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "table/block.h"
#include "table/block_iter.h"
#include "table/compression.h"
#include "table/filter_block.h"
#include "table/pinned_value.h"
#include "table/prefix_check_iterator.h"
#include "table/table_properties.h"
#include "table/two_level_iterator.h"
#include "util/coding.h"
#include "util/stop_watch.h"

namespace strata {

namespace {

// The iterator of one block (data or index) of a table: keeps the block
// pinned while it lives and stops with Corruption at a key too short to
// be an internal key.
class TableBlockIterator : public InternalIterator {
 public:
  // file_name and cmp must outlive the iterator. One allocation: the
  // block's iterator is a member.
  TableBlockIterator(PinnedValue<Block>&& block, const Comparator* cmp,
                     const std::string* file_name, uint64_t block_offset)
      : block_(std::move(block)),
        iter_(*block_.get(), cmp, file_name->c_str(), block_offset),
        file_name_(file_name),
        block_offset_(block_offset) {}

  bool Valid() const override { return status_.ok() && iter_.Valid(); }
  void SeekToFirst() override {
    iter_.SeekToFirst();
    Check();
  }
  void SeekToLast() override {
    iter_.SeekToLast();
    Check();
  }
  void Seek(const Slice& target) override {
    iter_.Seek(target);
    Check();
  }
  void SeekForPrev(const Slice& target) override {
    iter_.SeekForPrev(target);
    Check();
  }
  void Next() override {
    iter_.Next();
    Check();
  }
  void Prev() override {
    iter_.Prev();
    Check();
  }
  Slice key() const override { return iter_.key(); }
  Slice value() const override { return iter_.value(); }
  Status status() const override {
    return status_.ok() ? iter_.status() : status_;
  }

 private:
  void Check() {
    if (status_.ok() && iter_.Valid() &&
        iter_.key().size() < kInternalKeyTrailerSize) {
      status_ = Status::Corruption(BlockLocation(*file_name_, block_offset_),
                                   "key shorter than 8 bytes");
    }
  }

  // Declared before iter_: the iterator goes first, then the block.
  PinnedValue<Block> block_;
  BlockIter iter_;
  const std::string* const file_name_;
  const uint64_t block_offset_;
  Status status_;
};

// The iterator of an index block of user keys (format version 2), over
// internal keys as every table iterator is: each separator S appears as
// (S, sequence 0, type 0), the last internal key of S, which is >= every
// key of the block it names (their user keys are <= S) and < every key
// of the next (their user keys are > S).
class UserKeyIndexIterator : public InternalIterator {
 public:
  // ucmp and file_name must outlive the iterator.
  UserKeyIndexIterator(PinnedValue<Block>&& block, const Comparator* ucmp,
                       const std::string* file_name, uint64_t block_offset)
      : block_(std::move(block)),
        iter_(*block_.get(), ucmp, file_name->c_str(), block_offset),
        ucmp_(ucmp) {}

  bool Valid() const override { return iter_.Valid(); }
  void SeekToFirst() override {
    iter_.SeekToFirst();
    Update();
  }
  void SeekToLast() override {
    iter_.SeekToLast();
    Update();
  }
  void Seek(const Slice& target) override {
    // The first S >= the target's user key: (S, 0, 0) >= target.
    iter_.Seek(UserKeyOf(target));
    Update();
  }
  void SeekForPrev(const Slice& target) override {
    // The last (S, 0, 0) <= target: S < the target's user key, or equal
    // to it when the target is itself the last key of its user key.
    const Slice user_key = UserKeyOf(target);
    iter_.SeekForPrev(user_key);
    if (iter_.Valid() && target.size() >= kInternalKeyTrailerSize &&
        ExtractTrailer(target) != 0 &&
        ucmp_->Compare(iter_.key(), user_key) == 0) {
      iter_.Prev();
    }
    Update();
  }
  void Next() override {
    iter_.Next();
    Update();
  }
  void Prev() override {
    iter_.Prev();
    Update();
  }
  Slice key() const override { return key_; }
  Slice value() const override { return iter_.value(); }
  Status status() const override { return iter_.status(); }

 private:
  static Slice UserKeyOf(const Slice& target) {
    return target.size() >= kInternalKeyTrailerSize ? ExtractUserKey(target)
                                                    : target;
  }
  void Update() {
    key_.clear();
    if (!iter_.Valid()) return;
    const Slice user_key = iter_.key();
    key_.assign(user_key.data(), user_key.size());
    PutFixed64(&key_, 0);
  }

  // Declared before iter_: the iterator goes first, then the block.
  PinnedValue<Block> block_;
  BlockIter iter_;
  const Comparator* const ucmp_;
  std::string key_;  // the internal key shown for the current entry
};

// A copy of contents that owns its bytes (contents of an mmap'ed file
// point into the mapping).
void MakeOwned(BlockContents* contents) {
  if (contents->allocation != nullptr) return;
  const size_t n = contents->data.size();
  std::unique_ptr<char[]> copy(new char[n]);
  if (n > 0) std::memcpy(copy.get(), contents->data.data(), n);
  *contents = BlockContents(std::move(copy), n);
}

}  // namespace

const char* TableKeyComparator::Name() const { return icmp_->Name(); }

int TableKeyComparator::Compare(const Slice& a, const Slice& b) const {
  if (a.size() < kInternalKeyTrailerSize ||
      b.size() < kInternalKeyTrailerSize) {
    return a.compare(b);
  }
  return CompareInternalKeys(icmp_->user_comparator(), icmp_->bytewise(), a, b);
}

void TableKeyComparator::FindShortestSeparator(std::string* start,
                                               const Slice& limit) const {
  icmp_->FindShortestSeparator(start, limit);
}

void TableKeyComparator::FindShortSuccessor(std::string* key) const {
  icmp_->FindShortSuccessor(key);
}

BlockBasedTable::BlockBasedTable(const BlockBasedTableOptions& table_options,
                                 const TableReaderOptions& options,
                                 std::unique_ptr<RandomAccessFileReader> file,
                                 uint64_t file_size)
    : table_options_(table_options),
      icmp_(options.icmp),
      cmp_(options.icmp),
      reader_prefix_extractor_(options.prefix_extractor),
      statistics_(options.statistics),
      file_(std::move(file)),
      file_size_(file_size),
      cache_(table_options.no_block_cache ? nullptr
                                          : table_options.block_cache.get()) {
  if (cache_ != nullptr) cache_id_ = cache_->NewId();
}

BlockBasedTable::~BlockBasedTable() {
  // The cached index and filter of a closed table are never used again.
  if (cache_ != nullptr && table_options_.cache_index_and_filter_blocks) {
    cache_->Erase(
        CacheKey(CachedKind::kIndex, footer_.index_handle.offset()).slice());
    if (has_filter_) {
      cache_->Erase(
          CacheKey(CachedKind::kFilter, filter_handle_.offset()).slice());
    }
  }
}

Status BlockBasedTable::Open(const BlockBasedTableOptions& table_options,
                             const TableReaderOptions& options,
                             std::unique_ptr<RandomAccessFileReader> file,
                             uint64_t file_size,
                             std::unique_ptr<TableReader>* table) {
  table->reset();
  std::unique_ptr<BlockBasedTable> t(
      new BlockBasedTable(table_options, options, std::move(file), file_size));
  Status s = ReadFooter(t->file_.get(), file_size, &t->footer_);
  if (!s.ok()) return s;
  // An mmap'ed file answers reads with pointers into its mapping rather
  // than into the caller's buffer: then blocks need no buffer of their own.
  char probe;
  Slice got;
  s = t->file_->Read(0, 1, &got, &probe);
  if (!s.ok()) return s;
  t->file_in_memory_ = got.size() == 1 && got.data() != &probe;

  BlockHandle properties_handle;
  s = t->ReadMetaindex(&properties_handle);
  if (s.ok()) s = t->ReadProperties(properties_handle);
  if (s.ok()) s = t->ReadIndexAndFilter();
  if (s.ok() && t->has_range_dels_) s = t->ReadRangeDelBlock();
  if (!s.ok()) return s;
  *table = std::move(t);
  return Status::OK();
}

std::string BlockBasedTable::BlockWhere(uint64_t offset) const {
  return BlockLocation(file_->file_name(), offset);
}

BlockBasedTable::CacheKeyBuffer BlockBasedTable::CacheKey(
    CachedKind kind, uint64_t offset) const {
  CacheKeyBuffer key;
  EncodeFixed64(key.data, cache_id_);
  key.data[8] = static_cast<char>(kind);
  key.size = EncodeVarint64(key.data + 9, offset) - key.data;
  return key;
}

Status BlockBasedTable::ReadMetaBlock(const BlockHandle& handle, bool owned,
                                      BlockContents* contents) const {
  Status s = ReadBlock(file_.get(), file_size_, handle,
                       /*verify_checksum=*/true, contents, file_in_memory_);
  if (s.ok() && owned) MakeOwned(contents);
  return s;
}

Status BlockBasedTable::ReadMetaindex(BlockHandle* properties_handle) {
  const BlockHandle& handle = footer_.metaindex_handle;
  BlockContents contents;
  Status s = ReadMetaBlock(handle, /*owned=*/false, &contents);
  if (!s.ok()) return s;
  Block block(std::move(contents));
  if (!block.status().ok()) {
    return Status::Corruption(
        BlockWhere(handle.offset()),
        std::string("metaindex: ") + block.status().getState());
  }
  std::string filter_key;
  if (table_options_.filter_policy != nullptr) {
    filter_key = kFilterBlockPrefix;
    filter_key += table_options_.filter_policy->Name();
  }
  bool have_properties = false;
  std::unique_ptr<InternalIterator> iter(block.NewIterator(
      BytewiseComparator(), file_->file_name().c_str(), handle.offset()));
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    const Slice name = iter->key();
    const bool is_properties = name == Slice(kPropertiesBlockName);
    const bool is_filter = !filter_key.empty() && name == Slice(filter_key);
    const bool is_range_del = name == Slice(kRangeDelBlockName);
    if (!is_properties && !is_filter && !is_range_del) continue;  // unknown
    Slice value = iter->value();
    BlockHandle h;
    if (!h.DecodeFrom(&value) || !value.empty()) {
      return Status::Corruption(
          BlockWhere(handle.offset()),
          "metaindex: malformed handle of " + name.ToString());
    }
    if (is_properties) {
      *properties_handle = h;
      have_properties = true;
    } else if (is_range_del) {
      range_del_handle_ = h;
      has_range_dels_ = true;
    } else {
      filter_handle_ = h;
      has_filter_ = true;
    }
  }
  if (!iter->status().ok()) return iter->status();
  if (!have_properties) {
    return Status::Corruption(BlockWhere(handle.offset()),
                              "metaindex has no properties block");
  }
  return Status::OK();
}

Status BlockBasedTable::ReadProperties(const BlockHandle& handle) {
  BlockContents contents;
  Status s = ReadMetaBlock(handle, /*owned=*/false, &contents);
  if (!s.ok()) return s;
  auto props = std::make_shared<TableProperties>();
  s = DecodeTableProperties(contents.data, props.get());
  if (s.ok()) s = footer_.CheckVersion(props->format_version);
  if (!s.ok()) {
    return Status::Corruption(BlockWhere(handle.offset()), s.getState());
  }
  if (props->comparator_name != icmp_->Name()) {
    return Status::InvalidArgument(
        file_->file_name(), "table sorted by comparator " +
                                props->comparator_name + ", opened with " +
                                icmp_->Name());
  }
  // The filter holds prefixes of the DB's extractor only if the table was
  // built with one of the same name.
  if (reader_prefix_extractor_ != nullptr &&
      props->prefix_extractor_name == reader_prefix_extractor_->Name()) {
    filter_prefix_extractor_ = reader_prefix_extractor_;
  }
  compressed_ = props->compression_name != CompressionTypeName(kNoCompression);
  props_ = std::move(props);
  return Status::OK();
}

Status BlockBasedTable::ReadIndexAndFilter() {
  const bool in_cache =
      cache_ != nullptr && table_options_.cache_index_and_filter_blocks;
  if (in_cache) {
    // Load both into the cache now: a damaged table fails here, at Open.
    PinnedValue<Block> index;
    Status s = GetIndexBlock(&index);
    if (s.ok() && has_filter_) {
      PinnedValue<FullFilterBlockReader> filter;
      s = GetFilter(&filter);
    }
    return s;
  }
  BlockContents contents;
  Status s = ReadMetaBlock(footer_.index_handle, /*owned=*/false, &contents);
  if (!s.ok()) return s;
  index_block_.reset(new Block(std::move(contents)));
  if (!index_block_->status().ok()) {
    return Status::Corruption(
        BlockWhere(footer_.index_handle.offset()),
        std::string("index: ") + index_block_->status().getState());
  }
  PrepareIndexBlock(index_block_.get());
  if (has_filter_) {
    s = ReadMetaBlock(filter_handle_, /*owned=*/false, &contents);
    if (!s.ok()) return s;
    filter_ = MakeFilter(std::move(contents));
  }
  return Status::OK();
}

Status BlockBasedTable::ReadRangeDelBlock() {
  const uint64_t offset = range_del_handle_.offset();
  BlockContents contents;
  Status s = ReadMetaBlock(range_del_handle_, /*owned=*/false, &contents);
  if (!s.ok()) return s;
  std::unique_ptr<Block> block(new Block(std::move(contents)));
  if (!block->status().ok()) {
    return Status::Corruption(
        BlockWhere(offset),
        std::string("range deletions: ") + block->status().getState());
  }
  // Checked whole now, so that every later reader of the block may trust
  // its entries: range tombstone keys in strictly increasing order.
  std::unique_ptr<InternalIterator> iter(
      block->NewIterator(&cmp_, file_->file_name().c_str(), offset));
  std::string prev;
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    const Slice key = iter->key();
    ParsedInternalKey parsed;
    if (!ParseInternalKey(key, &parsed).ok() ||
        parsed.type != kTypeRangeDeletion) {
      return Status::Corruption(BlockWhere(offset),
                                "range deletions: entry is not a range "
                                "tombstone key");
    }
    if (!prev.empty() && icmp_->Compare(prev, key) >= 0) {
      return Status::Corruption(BlockWhere(offset),
                                "range deletions: keys out of order");
    }
    prev.assign(key.data(), key.size());
  }
  if (!iter->status().ok()) return iter->status();
  iter.reset();
  range_del_block_ = std::move(block);
  return Status::OK();
}

std::unique_ptr<FullFilterBlockReader> BlockBasedTable::MakeFilter(
    BlockContents&& contents) const {
  return std::unique_ptr<FullFilterBlockReader>(new FullFilterBlockReader(
      table_options_.filter_policy.get(), std::move(contents),
      filter_prefix_extractor_, props_->whole_key_filtering != 0));
}

void BlockBasedTable::PrepareIndexBlock(Block* block) const {
  // The prefixes order user keys bytewise only.
  if (icmp_->bytewise()) block->BuildUserKeyPrefixes(!IndexHasUserKeys());
}

Status BlockBasedTable::GetIndexBlock(PinnedValue<Block>* out,
                                      bool count) const {
  if (index_block_ != nullptr) {
    out->Borrow(index_block_.get());
    return Status::OK();
  }
  const BlockHandle& handle = footer_.index_handle;
  auto make = [&](std::unique_ptr<Block>* block, size_t* charge) {
    BlockContents contents;
    Status s = ReadMetaBlock(handle, /*owned=*/true, &contents);
    if (!s.ok()) return s;
    block->reset(new Block(std::move(contents)));
    if (!(*block)->status().ok()) {
      return Status::Corruption(
          BlockWhere(handle.offset()),
          std::string("index: ") + (*block)->status().getState());
    }
    PrepareIndexBlock(block->get());
    *charge = (*block)->usable_size();
    return Status::OK();
  };
  CacheLoad load = CacheLoad::kNotAdded;
  Status s = LoadThroughCache(
      cache_, CacheKey(CachedKind::kIndex, handle.offset()).slice(),
      /*fill=*/true,
      table_options_.cache_index_and_filter_blocks_with_high_priority
          ? Cache::Priority::HIGH
          : Cache::Priority::LOW,
      make, out, &load);
  if (s.ok() && count && statistics_ != nullptr) {
    RecordCacheLoad(CachedKind::kIndex, load);
  }
  return s;
}

Status BlockBasedTable::GetFilter(PinnedValue<FullFilterBlockReader>* out,
                                  bool count) const {
  if (filter_ != nullptr) {
    out->Borrow(filter_.get());
    return Status::OK();
  }
  auto make = [&](std::unique_ptr<FullFilterBlockReader>* filter,
                  size_t* charge) {
    BlockContents contents;
    Status s = ReadMetaBlock(filter_handle_, /*owned=*/true, &contents);
    if (!s.ok()) return s;
    *filter = MakeFilter(std::move(contents));
    *charge = (*filter)->ApproximateMemoryUsage();
    return Status::OK();
  };
  CacheLoad load = CacheLoad::kNotAdded;
  Status s = LoadThroughCache(
      cache_, CacheKey(CachedKind::kFilter, filter_handle_.offset()).slice(),
      /*fill=*/true,
      table_options_.cache_index_and_filter_blocks_with_high_priority
          ? Cache::Priority::HIGH
          : Cache::Priority::LOW,
      make, out, &load);
  if (s.ok() && count && statistics_ != nullptr) {
    RecordCacheLoad(CachedKind::kFilter, load);
  }
  return s;
}

Status BlockBasedTable::GetDataBlock(const ReadOptions& read_options,
                                     const BlockHandle& handle,
                                     PinnedValue<Block>* out,
                                     FilePrefetchBuffer* prefetch,
                                     const BatchRead* preread) const {
  // A batch's read serves only if it is this block, whole: anything else
  // (an error, a short read) is read again here, which reports it.
  const Slice* bytes = nullptr;
  if (preread != nullptr && preread->file == file_.get() &&
      preread->offset == handle.offset() && preread->status.ok() &&
      preread->result.size() == handle.size() + kBlockTrailerSize) {
    bytes = &preread->result;
  }
  auto make = [&](std::unique_ptr<Block>* block, size_t* charge) {
    BlockContents contents;
    if (bytes != nullptr) preread->used = true;
    Status s = ReadBlock(file_.get(), file_size_, handle,
                         read_options.verify_checksums, &contents,
                         file_in_memory_, compressed_, prefetch, bytes);
    if (!s.ok()) return s;
    // A block used in place in an mmap'ed file is not cached (charge 0):
    // the cache would hold pointers into the mapping and save nothing.
    const bool owned = contents.allocation != nullptr;
    block->reset(new Block(std::move(contents)));
    if (!(*block)->status().ok()) {
      return Status::Corruption(BlockWhere(handle.offset()),
                                (*block)->status().getState());
    }
    *charge = owned ? (*block)->usable_size() : 0;
    return Status::OK();
  };
  CacheLoad load = CacheLoad::kNotAdded;
  Status s = LoadThroughCache(
      cache_, CacheKey(CachedKind::kData, handle.offset()).slice(),
      read_options.fill_cache, Cache::Priority::LOW, make, out, &load);
  if (s.ok() && statistics_ != nullptr) {
    RecordCacheLoad(CachedKind::kData, load);
  }
  return s;
}

void BlockBasedTable::RecordCacheLoad(CachedKind kind, CacheLoad load) const {
  // Without a block cache there is nothing to hit or miss.
  if (cache_ == nullptr) return;
  const bool hit = load == CacheLoad::kHit;
  Tickers per_kind = hit ? BLOCK_CACHE_DATA_HIT : BLOCK_CACHE_DATA_MISS;
  switch (kind) {
    case CachedKind::kIndex:
      per_kind = hit ? BLOCK_CACHE_INDEX_HIT : BLOCK_CACHE_INDEX_MISS;
      break;
    case CachedKind::kFilter:
      per_kind = hit ? BLOCK_CACHE_FILTER_HIT : BLOCK_CACHE_FILTER_MISS;
      break;
    case CachedKind::kData:
      break;
  }
  statistics_->recordTick(per_kind, 1);
  statistics_->recordTick(hit ? BLOCK_CACHE_HIT : BLOCK_CACHE_MISS, 1);
  if (load == CacheLoad::kAdded) statistics_->recordTick(BLOCK_CACHE_ADD, 1);
}

const Comparator* BlockBasedTable::IndexComparator() const {
  return IndexHasUserKeys() ? icmp_->user_comparator()
                            : static_cast<const Comparator*>(&cmp_);
}

InternalIterator* BlockBasedTable::NewIndexIterator() const {
  PinnedValue<Block> index;
  Status s = GetIndexBlock(&index);
  if (!s.ok()) return NewErrorInternalIterator(s);
  const uint64_t offset = footer_.index_handle.offset();
  if (IndexHasUserKeys()) {
    return new UserKeyIndexIterator(std::move(index), icmp_->user_comparator(),
                                    &file_->file_name(), offset);
  }
  return new TableBlockIterator(std::move(index), &cmp_, &file_->file_name(),
                                offset);
}

Status BlockBasedTable::DecodeIndexValue(const Slice& index_value,
                                         BlockHandle* handle) const {
  Slice input = index_value;
  if (!handle->DecodeFrom(&input) || !input.empty()) {
    return Status::Corruption(BlockWhere(footer_.index_handle.offset()),
                              "index: malformed block handle");
  }
  return Status::OK();
}

InternalIterator* BlockBasedTable::NewDataBlockIterator(
    const ReadOptions& read_options, const Slice& index_value,
    FilePrefetchBuffer* prefetch) const {
  BlockHandle handle;
  Status s = DecodeIndexValue(index_value, &handle);
  if (!s.ok()) return NewErrorInternalIterator(s);
  PinnedValue<Block> block;
  s = GetDataBlock(read_options, handle, &block, prefetch);
  if (!s.ok()) return NewErrorInternalIterator(s);
  return new TableBlockIterator(std::move(block), &cmp_, &file_->file_name(),
                                handle.offset());
}

InternalIterator* BlockBasedTable::NewScanIterator(
    const ReadOptions& read_options, const FileScanOptions& scan) {
  // A file in memory (mmap) has nothing to read ahead.
  if (file_in_memory_ || !scan.Active()) return NewIterator(read_options);
  // The iterator's own buffer, alive as long as the iterator.
  auto prefetch = std::make_shared<FilePrefetchBuffer>(file_.get(), scan);
  return NewTwoLevelIterator(NewIndexIterator(), [this, read_options, prefetch](
                                                     const Slice& index_value) {
    return NewDataBlockIterator(read_options, index_value, prefetch.get());
  });
}

InternalIterator* BlockBasedTable::NewIterator(
    const ReadOptions& read_options) {
  InternalIterator* iter = NewTwoLevelIterator(
      NewIndexIterator(), [this, read_options](const Slice& index_value) {
        return NewDataBlockIterator(read_options, index_value);
      });
  // Prefix seeks skip the table when its filter has no key of the prefix.
  if (read_options.prefix_same_as_start && !read_options.total_order_seek &&
      has_filter_ && filter_prefix_extractor_ != nullptr) {
    iter = NewPrefixCheckIterator(
        iter, filter_prefix_extractor_,
        [this](const Slice& prefix) { return PrefixMayMatch(prefix); });
  }
  return iter;
}

InternalIterator* BlockBasedTable::NewRangeTombstoneIterator(
    const ReadOptions& /*read_options*/) {
  // The block is in memory and was checked at open: nothing to read.
  if (range_del_block_ == nullptr) return nullptr;
  const uint64_t offset = range_del_handle_.offset();
  PinnedValue<Block> block;
  block.Borrow(range_del_block_.get());
  return new TableBlockIterator(std::move(block), &cmp_, &file_->file_name(),
                                offset);
}

bool BlockBasedTable::PrefixMayMatch(const Slice& prefix) {
  if (!has_filter_ || filter_prefix_extractor_ == nullptr) return true;
  PinnedValue<FullFilterBlockReader> filter;
  if (!GetFilter(&filter).ok()) return true;  // then read the data
  RecordTick(statistics_, BLOOM_FILTER_PREFIX_CHECKED);
  const bool may_match = filter->PrefixMayMatch(prefix);
  if (!may_match) RecordTick(statistics_, BLOOM_FILTER_PREFIX_USEFUL);
  return may_match;
}

uint64_t BlockBasedTable::ApproximateOffsetOf(const Slice& internal_key) {
  std::unique_ptr<InternalIterator> index(NewIndexIterator());
  index->Seek(internal_key);
  if (index->Valid()) {
    Slice value = index->value();
    BlockHandle handle;
    if (handle.DecodeFrom(&value)) return handle.offset();
  }
  // Past the last key (or a damaged index): the end of the file.
  return file_size_;
}

size_t BlockBasedTable::ApproximateMemoryUsage() const {
  size_t usage = 0;
  if (index_block_ != nullptr) usage += index_block_->usable_size();
  if (filter_ != nullptr) usage += filter_->ApproximateMemoryUsage();
  if (range_del_block_ != nullptr) usage += range_del_block_->usable_size();
  return usage;
}

}  // namespace strata
