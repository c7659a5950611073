// Helpers of the table tests and benchmark: a random model of internal
// key/value entries, building a table from it (to a file or to memory),
// opening one over files or over a string, and a RandomAccessFile that
// counts reads.

#ifndef STRATA_TEST_TABLE_TABLE_TEST_UTIL_H_
#define STRATA_TEST_TABLE_TABLE_TEST_UTIL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "env/file_reader.h"
#include "strata/env.h"
#include "strata/table.h"
#include "table/table_builder.h"
#include "table/table_reader.h"

namespace strata {
namespace test {

// Internal key -> value, sorted by the internal key comparator.
using TableEntries = std::vector<std::pair<std::string, std::string>>;

// Sorts entries by icmp, as a table needs them.
void SortTableEntries(const InternalKeyComparator& icmp, TableEntries* entries);

// num_user_keys random user keys (shared prefixes, lengths 1..24), each
// with 1..3 versions (descending sequence numbers, some deletions and
// merges); values up to 100 bytes, and with large_values one in 50 of
// 3..8 KB.
TableEntries RandomTableEntries(uint32_t seed, int num_user_keys,
                                const InternalKeyComparator& icmp,
                                bool large_values = true);

// Writes entries as a table through factory; *file_size is its size.
// Returns the builder's status (NotSupported for a codec not built in).
Status BuildTable(Env* env, const std::string& fname,
                  const TableFactory& factory,
                  const TableBuilderOptions& options,
                  const TableEntries& entries, uint64_t* file_size);

// The same table into a string (a MemEnv round trip).
Status BuildTableInMemory(const TableFactory& factory,
                          const TableBuilderOptions& options,
                          const TableEntries& entries, std::string* contents);

// A file over a string: Read copies into scratch, or, with in_memory,
// returns pointers into the string as an mmap'ed file does. Counts reads.
class StringFile : public RandomAccessFile {
 public:
  StringFile(std::string contents, bool in_memory,
             std::atomic<int>* reads = nullptr)
      : contents_(std::move(contents)), in_memory_(in_memory), reads_(reads) {}
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  const std::string& contents() const { return contents_; }

 private:
  const std::string contents_;
  const bool in_memory_;
  std::atomic<int>* const reads_;
};

// A RandomAccessFile that counts Read calls into *reads.
class CountingFile : public RandomAccessFile {
 public:
  CountingFile(std::unique_ptr<RandomAccessFile> target,
               std::atomic<int>* reads)
      : target_(std::move(target)), reads_(reads) {}
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    reads_->fetch_add(1, std::memory_order_relaxed);
    return target_->Read(offset, n, result, scratch);
  }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }

 private:
  std::unique_ptr<RandomAccessFile> target_;
  std::atomic<int>* const reads_;
};

// Opens fname with env_options; reads counted into *reads if non-null.
Status OpenTable(Env* env, const std::string& fname,
                 const EnvOptions& env_options, const TableFactory& factory,
                 const TableReaderOptions& options,
                 std::unique_ptr<TableReader>* table,
                 std::atomic<int>* reads = nullptr);

// Every entry the reader hands to a Get of internal_key.
struct GetResult {
  Status status;
  TableEntries entries;
};
GetResult CollectGet(TableReader* table, const ReadOptions& read_options,
                     const Slice& internal_key);

// Whether s is a Corruption whose message names file_name and an offset
// (" at <digits>" or "offset <digits>").
bool IsLocatedCorruption(const Status& s, const std::string& file_name);

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_TABLE_TABLE_TEST_UTIL_H_
