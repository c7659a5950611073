// DBImplReadOnly: the DB DB::OpenForReadOnly returns (docs/operations.md,
// "Read-only instances"). It reads what the files hold — the tables, and
// the WALs replayed into memtables that stay in memory — and writes
// nothing: no LOCK, no WAL, no MANIFEST, no table, no LOG, no deleted
// file. Every call that would change the DB is NotSupported.

#ifndef STRATA_DB_DB_IMPL_READONLY_H_
#define STRATA_DB_DB_IMPL_READONLY_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "db/db_impl.h"

namespace strata {

// Not final: a secondary instance (db/db_impl_secondary.h) refuses the
// same calls.
class DBImplReadOnly : public DBImpl {
 public:
  DBImplReadOnly(const Options& options, const std::string& dbname)
      : DBImpl(options, dbname, /*read_only=*/true) {}

  using DB::CompactRange;
  using DB::Delete;
  using DB::DeleteRange;
  using DB::Flush;
  using DB::IngestExternalFile;
  using DB::Merge;
  using DB::Put;
  using DB::SetOptions;
  using DB::SingleDelete;
  Status CreateColumnFamily(const ColumnFamilyOptions& options,
                            const std::string& column_family_name,
                            ColumnFamilyHandle** handle) override;
  Status DropColumnFamily(ColumnFamilyHandle* column_family) override;
  Status Write(const WriteOptions& options, WriteBatch* updates) override;
  Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, const Slice& value) override;
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                const Slice& key) override;
  Status SingleDelete(const WriteOptions& options,
                      ColumnFamilyHandle* column_family,
                      const Slice& key) override;
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* column_family,
               const Slice& key, const Slice& value) override;
  Status DeleteRange(const WriteOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& begin_key,
                     const Slice& end_key) override;
  Status SyncWAL() override;
  Status Resume() override;
  Status Flush(const FlushOptions& options,
               ColumnFamilyHandle* column_family) override;
  Status Flush(
      const FlushOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_families) override;
  Status CompactRange(const CompactRangeOptions& options,
                      ColumnFamilyHandle* column_family, const Slice* begin,
                      const Slice* end) override;
  Status SetOptions(
      ColumnFamilyHandle* column_family,
      const std::unordered_map<std::string, std::string>& new_options) override;
  Status IngestExternalFile(ColumnFamilyHandle* column_family,
                            const std::vector<std::string>& external_files,
                            const IngestExternalFileOptions& options) override;
  Status IngestExternalFiles(
      const std::vector<IngestExternalFileArg>& args) override;
  Status DisableFileDeletions() override;
  Status EnableFileDeletions(bool force) override;
  // The files as they are: nothing is flushed first.
  Status GetLiveFiles(std::vector<std::string>& files,
                      uint64_t* manifest_file_size,
                      bool flush_memtable) override;
  Status GetLiveFilesStorageInfo(
      const LiveFilesStorageInfoOptions& opts,
      std::vector<LiveFileStorageInfo>* files) override;
  // No WAL is being written.
  Status GetCurrentWalFile(std::unique_ptr<LogFile>* current_log_file) override;
};

}  // namespace strata

#endif  // STRATA_DB_DB_IMPL_READONLY_H_
