// The block-based table reader (table/block_based_table_reader.h) over
// arbitrary bytes: Open, then every entry forward and backward, Seeks,
// Gets, a MultiGet, the range tombstones and the properties.
//
// Input: one byte of settings, then the file. The settings byte turns on
// checksum verification of data blocks (bit 0), a block cache holding the
// index and filter (bit 1), a bloom filter policy (bit 2), a prefix
// extractor (bit 3) and reads answered in place, as from an mmap'ed file
// (bit 4).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "env/file_reader.h"
#include "fuzz/fuzz_util.h"
#include "strata/cache.h"
#include "strata/comparator.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "strata/table.h"
#include "table/block_based_table_reader.h"
#include "table/internal_iterator.h"

namespace {

using strata::Slice;
using strata::Status;

// The file: its bytes copied to scratch, or pointed to in place.
class StringSource : public strata::RandomAccessFile {
 public:
  StringSource(std::string contents, bool in_place)
      : contents_(std::move(contents)), in_place_(in_place) {}
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    if (offset >= contents_.size()) {
      *result = Slice(scratch, 0);
      return Status::OK();
    }
    n = std::min(n, contents_.size() - static_cast<size_t>(offset));
    if (in_place_) {
      *result = Slice(contents_.data() + offset, n);
    } else {
      std::memcpy(scratch, contents_.data() + offset, n);
      *result = Slice(scratch, n);
    }
    return Status::OK();
  }

 private:
  const std::string contents_;
  const bool in_place_;
};

bool CountEntry(void* arg, const Slice& internal_key, const Slice& value,
                strata::CachePin*) {
  *static_cast<size_t*>(arg) += internal_key.size() + value.size();
  return false;
}

// Walks it in both directions and reads every key and value.
size_t Walk(strata::InternalIterator* it) {
  size_t bytes = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    bytes += it->key().ToString().size() + it->value().ToString().size();
  }
  it->status();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    bytes += it->key().size() + it->value().size();
  }
  it->status();
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  fuzz::FuzzInput input(data, size);
  const uint8_t settings = input.TakeByte();
  // Keys to look up: user keys of the seeds' sizes, and the empty one.
  const char* const kTargets[] = {"", "a", "key000050", "key999999",
                                  "\xff\xff"};

  BlockBasedTableOptions table_options;
  if (settings & 2) {
    table_options.block_cache = NewLRUCache(1 << 20);
    table_options.cache_index_and_filter_blocks = true;
  }
  if (settings & 4) {
    table_options.filter_policy.reset(NewBloomFilterPolicy(10));
  }
  std::unique_ptr<const SliceTransform> prefix;
  if (settings & 8) prefix.reset(NewFixedPrefixTransform(3));
  const InternalKeyComparator icmp(BytewiseComparator());
  TableReaderOptions reader_options;
  reader_options.icmp = &icmp;
  reader_options.prefix_extractor = prefix.get();

  const std::string contents = input.Rest().ToString();
  auto file = std::make_unique<RandomAccessFileReader>(
      std::make_unique<StringSource>(contents, (settings & 16) != 0),
      "/000007.sst");
  std::unique_ptr<TableReader> table;
  Status s = BlockBasedTable::Open(table_options, reader_options,
                                   std::move(file), contents.size(), &table);
  if (!s.ok()) return 0;

  ReadOptions read_options;
  read_options.verify_checksums = (settings & 1) != 0;
  {
    std::unique_ptr<InternalIterator> it(table->NewIterator(read_options));
    Walk(it.get());
    for (const char* target : kTargets) {
      const LookupKey lookup(target, kMaxSequenceNumber);
      it->Seek(lookup.internal_key());
      if (it->Valid()) it->Prev();
      it->SeekForPrev(lookup.internal_key());
      if (it->Valid()) it->Next();
      size_t bytes = 0;
      table->Get(read_options, lookup.internal_key(), &bytes, CountEntry)
          .ToString();
      table->ApproximateOffsetOf(lookup.internal_key());
      table->PrefixMayMatch(target);
    }
  }
  {
    const LookupKey a("a", kMaxSequenceNumber);
    const LookupKey b("key000050", kMaxSequenceNumber);
    size_t bytes_a = 0, bytes_b = 0;
    TableLookup lookups[2];
    lookups[0].internal_key = a.internal_key();
    lookups[0].arg = &bytes_a;
    lookups[1].internal_key = b.internal_key();
    lookups[1].arg = &bytes_b;
    TableLookup* const pointers[2] = {&lookups[0], &lookups[1]};
    table->MultiGet(read_options, pointers, 2, CountEntry);
  }
  {
    std::unique_ptr<InternalIterator> tombstones(
        table->NewRangeTombstoneIterator(read_options));
    if (tombstones != nullptr) Walk(tombstones.get());
  }
  table->GetTableProperties();
  table->ApproximateMemoryUsage();
  return 0;
}
