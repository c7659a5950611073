// SstFileWriter: writes a table file outside any DB, for
// DB::IngestExternalFile (docs/operations.md, "Bulk ingestion").
//
// Keys are user keys, added in strictly increasing order of the
// comparator (an equal or smaller key is InvalidArgument); range
// deletions may come in any order. Every entry is written with sequence
// number 0; the table's properties mark it as an external file (format:
// docs/formats/table.md, "External files"). The file is usable only
// after Finish() returned OK.
//
// Thread safety: one thread at a time per writer; many writers may write
// their own files at once.

#ifndef STRATA_INCLUDE_SST_FILE_WRITER_H_
#define STRATA_INCLUDE_SST_FILE_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "strata/env.h"
#include "strata/export.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/types.h"

namespace strata {

class ColumnFamilyHandle;
class Comparator;

// What SstFileWriter::Finish reports about the file it wrote.
struct STRATA_EXPORT ExternalSstFileInfo {
  ExternalSstFileInfo() = default;
  ExternalSstFileInfo(const std::string& _file_path,
                      const std::string& _smallest_key,
                      const std::string& _largest_key,
                      SequenceNumber _sequence_number, uint64_t _file_size,
                      int32_t _num_entries, int32_t _version)
      : file_path(_file_path),
        smallest_key(_smallest_key),
        largest_key(_largest_key),
        sequence_number(_sequence_number),
        file_size(_file_size),
        num_entries(static_cast<uint64_t>(_num_entries)),
        version(_version) {}

  std::string file_path;
  std::string smallest_key;            // smallest point key (user key)
  std::string largest_key;             // largest point key (user key)
  std::string smallest_range_del_key;  // smallest range deletion begin
  std::string largest_range_del_key;   // largest range deletion end
  std::string file_checksum;           // empty: strata keeps none
  std::string file_checksum_func_name;
  SequenceNumber sequence_number = 0;  // of every entry: always 0
  uint64_t file_size = 0;
  uint64_t num_entries = 0;  // point entries
  uint64_t num_range_del_entries = 0;
  int32_t version = 0;  // the external file format version (2)
};

class STRATA_EXPORT SstFileWriter {
 public:
  // A writer of tables for a DB opened with options (its comparator,
  // table_factory, compression, prefix_extractor); column_family, if
  // given, names the family recorded in the file. invalidate_page_cache,
  // io_priority and skip_filters are accepted and ignored.
  SstFileWriter(const EnvOptions& env_options, const Options& options,
                ColumnFamilyHandle* column_family = nullptr,
                bool invalidate_page_cache = true,
                Env::IOPriority io_priority = Env::IOPriority::IO_TOTAL,
                bool skip_filters = false)
      : SstFileWriter(env_options, options, options.comparator, column_family,
                      invalidate_page_cache, io_priority, skip_filters) {}
  // As above, with user_comparator ordering the keys.
  SstFileWriter(const EnvOptions& env_options, const Options& options,
                const Comparator* user_comparator,
                ColumnFamilyHandle* column_family = nullptr,
                bool invalidate_page_cache = true,
                Env::IOPriority io_priority = Env::IOPriority::IO_TOTAL,
                bool skip_filters = false);
  // An unfinished file is abandoned and removed.
  ~SstFileWriter();

  SstFileWriter(const SstFileWriter&) = delete;
  SstFileWriter& operator=(const SstFileWriter&) = delete;

  // Creates file_path (replacing any file) through options.env.
  Status Open(const std::string& file_path);

  // The entries. Each needs Open() first and no Finish() yet.
  Status Add(const Slice& user_key, const Slice& value);  // = Put
  Status Put(const Slice& user_key, const Slice& value);
  Status Merge(const Slice& user_key, const Slice& value);
  Status Delete(const Slice& user_key);
  // Deletes [begin_key, end_key); an empty range adds nothing, a reversed
  // one is InvalidArgument.
  Status DeleteRange(const Slice& begin_key, const Slice& end_key);
  // User-defined timestamps are not supported: NotSupported.
  Status Put(const Slice& user_key, const Slice& timestamp, const Slice& value);
  Status Delete(const Slice& user_key, const Slice& timestamp);
  Status DeleteRange(const Slice& begin_key, const Slice& end_key,
                     const Slice& timestamp);

  // Completes and syncs the file; fills *file_info if not null. A file
  // with no entry is InvalidArgument (and removed), as in RocksDB.
  Status Finish(ExternalSstFileInfo* file_info = nullptr);

  // Bytes written so far.
  uint64_t FileSize();

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_SST_FILE_WRITER_H_
