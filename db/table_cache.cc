#include "db/table_cache.h"

#include <limits>
#include <string>
#include <utility>

#include "db/filename.h"
#include "env/file_reader.h"
#include "strata/table.h"
#include "table/global_seqno_reader.h"
#include "util/coding.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// max_open_files < 0 means "keep every table open". The cache still needs
// a capacity; this one no DB reaches (one entry per table, charge 1), and
// it leaves the shard arithmetic far from overflow.
constexpr size_t kUnboundedCapacity = std::numeric_limits<size_t>::max() / 4;

// Shards cut lock contention between readers of different tables, but a
// shard evicts when it alone is full. Each shard is given at least this
// many tables, so small caches stay one exact LRU.
constexpr size_t kMinTablesPerShard = 64;
constexpr int kMaxShardBits = 4;

int ShardBitsFor(size_t capacity) {
  int bits = 0;
  while (bits < kMaxShardBits &&
         (capacity >> (bits + 1)) >= kMinTablesPerShard) {
    bits++;
  }
  return bits;
}

std::shared_ptr<Cache> NewTableLRUCache(int max_open_files) {
  if (max_open_files < 0) {
    return NewLRUCache(kUnboundedCapacity, kMaxShardBits,
                       /*strict_capacity_limit=*/false,
                       /*high_pri_pool_ratio=*/0.0);
  }
  const size_t limit = static_cast<size_t>(max_open_files);
  const int bits = ShardBitsFor(limit);
  // A multiple of the shard count, so the shards' capacities add up to no
  // more than max_open_files.
  const size_t capacity = limit & ~((size_t{1} << bits) - 1);
  return NewLRUCache(capacity, bits, /*strict_capacity_limit=*/false,
                     /*high_pri_pool_ratio=*/0.0);
}

// The cache key of a table: its file number, fixed64, in buf.
Slice TableKey(uint64_t file_number, char (&buf)[8]) {
  EncodeFixed64(buf, file_number);
  return Slice(buf, sizeof(buf));
}

void DeleteTableReader(const Slice& /*key*/, void* value) {
  delete static_cast<TableReader*>(value);
}

// The table's iterator, holding the cache handle that keeps the table open
// until the iterator is deleted.
class PinnedTableIterator final : public InternalIterator {
 public:
  PinnedTableIterator(InternalIterator* iter, Cache* cache,
                      Cache::Handle* handle)
      : iter_(iter), cache_(cache), handle_(handle) {}
  ~PinnedTableIterator() override {
    delete iter_;  // before the reader it reads from may close
    cache_->Release(handle_);
  }

  bool Valid() const override { return iter_->Valid(); }
  void SeekToFirst() override { iter_->SeekToFirst(); }
  void SeekToLast() override { iter_->SeekToLast(); }
  void Seek(const Slice& target) override { iter_->Seek(target); }
  void SeekForPrev(const Slice& target) override { iter_->SeekForPrev(target); }
  void Next() override { iter_->Next(); }
  void Prev() override { iter_->Prev(); }
  void SetSeekConfinedToPrefix(bool confined) override {
    iter_->SetSeekConfinedToPrefix(confined);
  }
  Slice key() const override { return iter_->key(); }
  Slice value() const override { return iter_->value(); }
  Status status() const override { return iter_->status(); }

 private:
  InternalIterator* const iter_;
  Cache* const cache_;
  Cache::Handle* const handle_;
};

}  // namespace

TableCacheOptions TableCacheOptionsFor(const Options& options,
                                       const std::string& dbname,
                                       const InternalKeyComparator* icmp) {
  TableCacheOptions result;
  result.env = options.env;
  result.dbname = dbname;
  result.table_factory = options.table_factory.get();
  result.reader_options.icmp = icmp;
  result.reader_options.prefix_extractor = options.prefix_extractor.get();
  result.reader_options.statistics = options.statistics.get();
  result.env_options = EnvOptions(options);
  result.max_open_files = options.max_open_files;
  return result;
}

TableCache::TableCache(const TableCacheOptions& options)
    : options_(options),
      cache_(NewTableLRUCache(options.max_open_files)),
      pin_(options.max_open_files < 0) {}

TableCache::~TableCache() = default;

Status TableCache::OpenTable(uint64_t file_number, uint64_t file_size,
                             std::unique_ptr<TableReader>* table) const {
  const std::string fname = TableFileName(options_.dbname, file_number);
  if (options_.table_factory == nullptr) {
    return Status::InvalidArgument("no table factory to open", fname);
  }
  Env* env = options_.env != nullptr ? options_.env : Env::Default();
  std::unique_ptr<RandomAccessFile> file;
  Status s = env->NewRandomAccessFile(fname, &file, options_.env_options);
  if (s.IsNotFound()) {
    // Every table opened here is named by a version. Passed on as it is,
    // the Env's NotFound would read as "no such key" from Get.
    return Status::Corruption("table file missing", s.ToString());
  }
  if (!s.ok()) return s;
  std::unique_ptr<RandomAccessFileReader> reader(
      new RandomAccessFileReader(std::move(file), fname));
  return options_.table_factory->NewTableReader(
      options_.reader_options, std::move(reader), file_size, table);
}

Status TableCache::FindTable(uint64_t file_number, uint64_t file_size,
                             Cache::Handle** handle) {
  char buf[8];
  const Slice key = TableKey(file_number, buf);
  *handle = cache_->Lookup(key);
  if (*handle != nullptr) return Status::OK();

  MutexLock l(&open_mutexes_[file_number % kOpenStripes]);
  // Another thread may have opened it while this one waited.
  *handle = cache_->Lookup(key);
  if (*handle != nullptr) return Status::OK();
  std::unique_ptr<TableReader> table;
  Status s = OpenTable(file_number, file_size, &table);
  // An error is not cached: the next use tries again, so a transient
  // failure (or a repaired file) does not stick.
  if (!s.ok()) return s;
  return cache_->Insert(key, table.release(), 1, &DeleteTableReader, handle);
}

InternalIterator* TableCache::NewIterator(const ReadOptions& read_options,
                                          uint64_t file_number,
                                          uint64_t file_size,
                                          TableReader** table_reader,
                                          SequenceNumber global_seqno,
                                          const FileScanOptions* scan) {
  if (table_reader != nullptr) *table_reader = nullptr;
  Cache::Handle* handle = nullptr;
  Status s = FindTable(file_number, file_size, &handle);
  if (!s.ok()) return NewErrorInternalIterator(s);
  TableReader* table = static_cast<TableReader*>(cache_->Value(handle));
  if (table_reader != nullptr) *table_reader = table;
  InternalIterator* iter = scan != nullptr
                               ? table->NewScanIterator(read_options, *scan)
                               : table->NewIterator(read_options);
  if (global_seqno != 0) {
    iter = NewGlobalSeqnoIterator(iter, global_seqno,
                                  options_.reader_options.icmp);
  }
  return new PinnedTableIterator(iter, cache_.get(), handle);
}

Status TableCache::ReaderGet(TableReader* table, SequenceNumber global_seqno,
                             const ReadOptions& read_options,
                             const Slice& internal_key, void* arg,
                             GetEntryFunction handle_entry) const {
  if (global_seqno == 0) {
    return table->Get(read_options, internal_key, arg, handle_entry);
  }
  GlobalSeqnoReader view(table, global_seqno, options_.reader_options.icmp);
  return view.Get(read_options, internal_key, arg, handle_entry);
}

void TableCache::ReaderMultiGet(TableReader* table, SequenceNumber global_seqno,
                                const ReadOptions& read_options,
                                TableLookup* const* lookups, size_t n,
                                GetEntryFunction handle_entry) const {
  if (global_seqno == 0) {
    table->MultiGet(read_options, lookups, n, handle_entry);
    return;
  }
  GlobalSeqnoReader view(table, global_seqno, options_.reader_options.icmp);
  view.MultiGet(read_options, lookups, n, handle_entry);
}

namespace {

// An error opening the table goes to every lookup not done.
void FailLookups(const Status& s, TableLookup* const* lookups, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (lookups[i]->done) continue;
    lookups[i]->status = s;
    lookups[i]->done = true;
  }
}

}  // namespace

Status TableCache::Get(const ReadOptions& read_options, uint64_t file_number,
                       uint64_t file_size, const Slice& internal_key, void* arg,
                       GetEntryFunction handle_entry,
                       SequenceNumber global_seqno) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(file_number, file_size, &handle);
  if (!s.ok()) return s;
  s = ReaderGet(static_cast<TableReader*>(cache_->Value(handle)), global_seqno,
                read_options, internal_key, arg, handle_entry);
  cache_->Release(handle);
  return s;
}

void TableCache::MultiGet(const ReadOptions& read_options, uint64_t file_number,
                          uint64_t file_size, TableLookup* const* lookups,
                          size_t n, GetEntryFunction handle_entry,
                          SequenceNumber global_seqno) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(file_number, file_size, &handle);
  if (!s.ok()) {
    FailLookups(s, lookups, n);
    return;
  }
  ReaderMultiGet(static_cast<TableReader*>(cache_->Value(handle)), global_seqno,
                 read_options, lookups, n, handle_entry);
  cache_->Release(handle);
}

Status TableCache::FindReader(const FileMetaData& f, TableReader** table,
                              Cache::Handle** release) {
  *release = nullptr;
  Cache::Handle* handle = f.table.Get(cache_.get());
  if (handle == nullptr) {
    Status s = FindTable(f.number, f.file_size, &handle);
    if (!s.ok()) return s;
    if (!pin_ || !f.table.Set(cache_.get(), handle)) *release = handle;
  }
  *table = static_cast<TableReader*>(cache_->Value(handle));
  return Status::OK();
}

Status TableCache::Get(const ReadOptions& read_options, const FileMetaData& f,
                       const Slice& internal_key, void* arg,
                       GetEntryFunction handle_entry) {
  TableReader* table = nullptr;
  Cache::Handle* release = nullptr;
  Status s = FindReader(f, &table, &release);
  if (!s.ok()) return s;
  s = ReaderGet(table, f.global_seqno, read_options, internal_key, arg,
                handle_entry);
  if (release != nullptr) cache_->Release(release);
  return s;
}

void TableCache::MultiGet(const ReadOptions& read_options,
                          const FileMetaData& f, TableLookup* const* lookups,
                          size_t n, GetEntryFunction handle_entry) {
  TableReader* table = nullptr;
  Cache::Handle* release = nullptr;
  Status s = FindReader(f, &table, &release);
  if (!s.ok()) {
    FailLookups(s, lookups, n);
    return;
  }
  ReaderMultiGet(table, f.global_seqno, read_options, lookups, n, handle_entry);
  if (release != nullptr) cache_->Release(release);
}

Cache::Handle* TableCache::PlanMultiGet(const ReadOptions& read_options,
                                        const FileMetaData& f,
                                        TableLookup* const* lookups, size_t n,
                                        ReadBatch* reads) {
  if (f.global_seqno != 0) return nullptr;
  TableReader* table = nullptr;
  Cache::Handle* release = nullptr;
  if (!FindReader(f, &table, &release).ok()) return nullptr;
  table->PlanMultiGet(read_options, lookups, n, reads);
  return release;
}

Status TableCache::WithTable(uint64_t file_number, uint64_t file_size,
                             const std::function<void(TableReader*)>& fn,
                             SequenceNumber global_seqno) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(file_number, file_size, &handle);
  if (!s.ok()) return s;
  TableReader* table = static_cast<TableReader*>(cache_->Value(handle));
  if (global_seqno != 0) {
    GlobalSeqnoReader view(table, global_seqno, options_.reader_options.icmp);
    fn(&view);
  } else {
    fn(table);
  }
  cache_->Release(handle);
  return Status::OK();
}

void TableCache::Evict(uint64_t file_number) {
  char buf[8];
  // Under the file's open lock: an open already under way when the file
  // was deleted finishes first, so its reader is erased too rather than
  // inserted after this and kept open for good.
  MutexLock l(&open_mutexes_[file_number % kOpenStripes]);
  cache_->Erase(TableKey(file_number, buf));
}

size_t TableCache::NumOpen() const { return cache_->GetUsage(); }

}  // namespace strata
