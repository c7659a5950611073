// StackableDB: a DB that passes every call to another DB, for wrappers
// (DBWithTTL) that change a few calls and keep the rest. Shaped as
// RocksDB's: derive from it and override what the wrapper changes.
//
// Ownership: constructed from a raw pointer, the StackableDB owns the
// inner DB and deletes it when destroyed; from a shared_ptr, it shares it.
//
// Thread safety: as the inner DB's.

#ifndef STRATA_INCLUDE_UTILITIES_STACKABLE_DB_H_
#define STRATA_INCLUDE_UTILITIES_STACKABLE_DB_H_

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"

namespace strata {

class STRATA_EXPORT StackableDB : public DB {
 public:
  // Takes ownership of db.
  explicit StackableDB(DB* db) : db_(db) {}
  // Shares db.
  explicit StackableDB(std::shared_ptr<DB> db)
      : db_(db.get()), shared_db_ptr_(std::move(db)) {}

  ~StackableDB() override {
    if (shared_db_ptr_ == nullptr) delete db_;
    db_ = nullptr;
  }

  // The DB this one wraps, and the innermost one below every wrapper.
  virtual DB* GetBaseDB() { return db_; }
  virtual DB* GetRootDB() {
    StackableDB* inner = dynamic_cast<StackableDB*>(db_);
    return inner != nullptr ? inner->GetRootDB() : db_;
  }

  Status Close() override { return db_->Close(); }

  using DB::CreateColumnFamilies;
  using DB::CreateColumnFamily;
  Status CreateColumnFamily(const ColumnFamilyOptions& options,
                            const std::string& column_family_name,
                            ColumnFamilyHandle** handle) override {
    return db_->CreateColumnFamily(options, column_family_name, handle);
  }
  Status CreateColumnFamilies(
      const ColumnFamilyOptions& options,
      const std::vector<std::string>& column_family_names,
      std::vector<ColumnFamilyHandle*>* handles) override {
    return db_->CreateColumnFamilies(options, column_family_names, handles);
  }
  Status CreateColumnFamilies(
      const std::vector<ColumnFamilyDescriptor>& column_families,
      std::vector<ColumnFamilyHandle*>* handles) override {
    return db_->CreateColumnFamilies(column_families, handles);
  }
  Status DropColumnFamily(ColumnFamilyHandle* column_family) override {
    return db_->DropColumnFamily(column_family);
  }
  Status DropColumnFamilies(
      const std::vector<ColumnFamilyHandle*>& column_families) override {
    return db_->DropColumnFamilies(column_families);
  }
  Status DestroyColumnFamilyHandle(ColumnFamilyHandle* column_family) override {
    return db_->DestroyColumnFamilyHandle(column_family);
  }
  ColumnFamilyHandle* DefaultColumnFamily() const override {
    return db_->DefaultColumnFamily();
  }

  using DB::Put;
  Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, const Slice& value) override {
    return db_->Put(options, column_family, key, value);
  }
  using DB::Delete;
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                const Slice& key) override {
    return db_->Delete(options, column_family, key);
  }
  using DB::SingleDelete;
  Status SingleDelete(const WriteOptions& options,
                      ColumnFamilyHandle* column_family,
                      const Slice& key) override {
    return db_->SingleDelete(options, column_family, key);
  }
  using DB::DeleteRange;
  Status DeleteRange(const WriteOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& begin_key,
                     const Slice& end_key) override {
    return db_->DeleteRange(options, column_family, begin_key, end_key);
  }
  using DB::Merge;
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* column_family,
               const Slice& key, const Slice& value) override {
    return db_->Merge(options, column_family, key, value);
  }
  Status Write(const WriteOptions& options, WriteBatch* updates) override {
    return db_->Write(options, updates);
  }

  using DB::Get;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, PinnableSlice* value) override {
    return db_->Get(options, column_family, key, value);
  }
  Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, std::string* value) override {
    return db_->Get(options, column_family, key, value);
  }
  using DB::MultiGet;
  std::vector<Status> MultiGet(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys,
      std::vector<std::string>* values) override {
    return db_->MultiGet(options, column_family, keys, values);
  }
  void MultiGet(const ReadOptions& options, ColumnFamilyHandle* column_family,
                const size_t num_keys, const Slice* keys, PinnableSlice* values,
                Status* statuses, const bool sorted_input = false) override {
    db_->MultiGet(options, column_family, num_keys, keys, values, statuses,
                  sorted_input);
  }
  using DB::NewIterator;
  Iterator* NewIterator(const ReadOptions& options,
                        ColumnFamilyHandle* column_family) override {
    return db_->NewIterator(options, column_family);
  }
  Status NewIterators(const ReadOptions& options,
                      const std::vector<ColumnFamilyHandle*>& column_families,
                      std::vector<Iterator*>* iterators) override {
    return db_->NewIterators(options, column_families, iterators);
  }

  const Snapshot* GetSnapshot() override { return db_->GetSnapshot(); }
  void ReleaseSnapshot(const Snapshot* snapshot) override {
    db_->ReleaseSnapshot(snapshot);
  }
  SequenceNumber GetLatestSequenceNumber() const override {
    return db_->GetLatestSequenceNumber();
  }

  using DB::GetIntProperty;
  using DB::GetMapProperty;
  using DB::GetProperty;
  bool GetProperty(ColumnFamilyHandle* column_family, const Slice& property,
                   std::string* value) override {
    return db_->GetProperty(column_family, property, value);
  }
  bool GetIntProperty(ColumnFamilyHandle* column_family, const Slice& property,
                      uint64_t* value) override {
    return db_->GetIntProperty(column_family, property, value);
  }
  bool GetMapProperty(ColumnFamilyHandle* column_family, const Slice& property,
                      std::map<std::string, std::string>* value) override {
    return db_->GetMapProperty(column_family, property, value);
  }

  Status SyncWAL() override { return db_->SyncWAL(); }
  Status Resume() override { return db_->Resume(); }
  Status TryCatchUpWithPrimary() override {
    return db_->TryCatchUpWithPrimary();
  }

  using DB::Flush;
  Status Flush(const FlushOptions& options,
               ColumnFamilyHandle* column_family) override {
    return db_->Flush(options, column_family);
  }
  Status Flush(
      const FlushOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_families) override {
    return db_->Flush(options, column_families);
  }
  using DB::CompactRange;
  Status CompactRange(const CompactRangeOptions& options,
                      ColumnFamilyHandle* column_family, const Slice* begin,
                      const Slice* end) override {
    return db_->CompactRange(options, column_family, begin, end);
  }
  using DB::CompactFiles;
  Status CompactFiles(
      const CompactionOptions& compact_options,
      ColumnFamilyHandle* column_family,
      const std::vector<std::string>& input_file_names, const int output_level,
      const int output_path_id = -1,
      std::vector<std::string>* const output_file_names = nullptr,
      CompactionJobInfo* compaction_job_info = nullptr) override {
    return db_->CompactFiles(compact_options, column_family, input_file_names,
                             output_level, output_path_id, output_file_names,
                             compaction_job_info);
  }
  using DB::GetApproximateSizes;
  Status GetApproximateSizes(
      ColumnFamilyHandle* column_family, const Range* ranges, int n,
      uint64_t* sizes,
      SizeApproximationFlags include_flags =
          SizeApproximationFlags::INCLUDE_FILES) override {
    return db_->GetApproximateSizes(column_family, ranges, n, sizes,
                                    include_flags);
  }

  using DB::SetOptions;
  Status SetOptions(ColumnFamilyHandle* column_family,
                    const std::unordered_map<std::string, std::string>&
                        new_options) override {
    return db_->SetOptions(column_family, new_options);
  }
  using DB::GetOptions;
  Options GetOptions(ColumnFamilyHandle* column_family) const override {
    return db_->GetOptions(column_family);
  }
  DBOptions GetDBOptions() const override { return db_->GetDBOptions(); }

  Status DisableFileDeletions() override { return db_->DisableFileDeletions(); }
  Status EnableFileDeletions(bool force = true) override {
    return db_->EnableFileDeletions(force);
  }
  Status GetLiveFiles(std::vector<std::string>& files,
                      uint64_t* manifest_file_size,
                      bool flush_memtable = true) override {
    return db_->GetLiveFiles(files, manifest_file_size, flush_memtable);
  }
  Status GetLiveFilesStorageInfo(
      const LiveFilesStorageInfoOptions& opts,
      std::vector<LiveFileStorageInfo>* files) override {
    return db_->GetLiveFilesStorageInfo(opts, files);
  }
  Status GetSortedWalFiles(VectorLogPtr& files) override {
    return db_->GetSortedWalFiles(files);
  }
  Status GetCurrentWalFile(
      std::unique_ptr<LogFile>* current_log_file) override {
    return db_->GetCurrentWalFile(current_log_file);
  }
  void GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) override {
    db_->GetLiveFilesMetaData(metadata);
  }
  using DB::GetColumnFamilyMetaData;
  void GetColumnFamilyMetaData(ColumnFamilyHandle* column_family,
                               ColumnFamilyMetaData* metadata) override {
    db_->GetColumnFamilyMetaData(column_family, metadata);
  }
  using DB::IngestExternalFile;
  Status IngestExternalFile(ColumnFamilyHandle* column_family,
                            const std::vector<std::string>& external_files,
                            const IngestExternalFileOptions& options) override {
    return db_->IngestExternalFile(column_family, external_files, options);
  }
  Status IngestExternalFiles(
      const std::vector<IngestExternalFileArg>& args) override {
    return db_->IngestExternalFiles(args);
  }

  Status GetDbIdentity(std::string& identity) const override {
    return db_->GetDbIdentity(identity);
  }
  const std::string& GetName() const override { return db_->GetName(); }
  Env* GetEnv() const override { return db_->GetEnv(); }

 protected:
  DB* db_;
  std::shared_ptr<DB> shared_db_ptr_;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_STACKABLE_DB_H_
