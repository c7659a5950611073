// DBImpl: column families — creating and dropping them, the handles the
// API hands out, the routes write groups insert by, and the options a
// family runs with (docs/column_families.md).
//
// A family is created or dropped by a MANIFEST edit under mutex_. The
// write path learns of it through routes_, which only the leader of a
// write group replaces (PrepareGroup), once no insert is running: a batch
// never sees a family half added. A write naming a family that does not
// exist is refused before it reaches the WAL (CheckBatchFamilies); one
// that raced with the drop of its family is dropped with the family.

#include <algorithm>
#include <string>

#include "db/db_impl.h"
#include "db/options_fields.h"
#include "db/write_batch_internal.h"
#include "memtable/memtable.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

Status DB::CreateColumnFamilies(
    const ColumnFamilyOptions& options,
    const std::vector<std::string>& column_family_names,
    std::vector<ColumnFamilyHandle*>* handles) {
  std::vector<ColumnFamilyDescriptor> families;
  for (const std::string& name : column_family_names) {
    families.emplace_back(name, options);
  }
  return CreateColumnFamilies(families, handles);
}

Status DB::CreateColumnFamilies(
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::vector<ColumnFamilyHandle*>* handles) {
  if (handles == nullptr) {
    return Status::InvalidArgument("CreateColumnFamilies: handles is null");
  }
  handles->clear();
  for (const ColumnFamilyDescriptor& d : column_families) {
    ColumnFamilyHandle* handle = nullptr;
    Status s = CreateColumnFamily(d.options, d.name, &handle);
    if (!s.ok()) return s;
    handles->push_back(handle);
  }
  return Status::OK();
}

Status DB::DropColumnFamilies(
    const std::vector<ColumnFamilyHandle*>& column_families) {
  for (ColumnFamilyHandle* handle : column_families) {
    Status s = DropColumnFamily(handle);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status DBImpl::FamilyOf(ColumnFamilyHandle* handle,
                        ColumnFamilyData** cfd) const {
  if (handle == nullptr) {
    return Status::InvalidArgument("the column family handle is null");
  }
  auto* impl = static_cast<ColumnFamilyHandleImpl*>(handle);
  if (impl->db() != this) {
    return Status::InvalidArgument("column family handle of another DB: ",
                                   impl->GetName());
  }
  *cfd = impl->cfd();
  if (*cfd == nullptr) {
    return Status::InvalidArgument(
        "column family handle used after DestroyColumnFamilyHandle or "
        "Close: ",
        impl->GetName());
  }
  return Status::OK();
}

Status DBImpl::CheckFamilyLive(ColumnFamilyHandle* column_family) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  MutexLock l(&mutex_);
  if (cfd->dropped()) {
    return Status::InvalidArgument("column family dropped: ",
                                   column_family->GetName());
  }
  return Status::OK();
}

Status DBImpl::FamiliesOf(const std::vector<ColumnFamilyHandle*>& handles,
                          std::vector<ColumnFamilyData*>* cfds) const {
  cfds->clear();
  for (ColumnFamilyHandle* handle : handles) {
    ColumnFamilyData* cfd = nullptr;
    Status s = FamilyOf(handle, &cfd);
    if (!s.ok()) return s;
    cfds->push_back(cfd);
  }
  return Status::OK();
}

ColumnFamilyHandleImpl* DBImpl::NewHandle(ColumnFamilyData* cfd) {
  mutex_.AssertHeld();
  auto* handle = new ColumnFamilyHandleImpl(cfd, this);
  handles_.insert(handle);
  return handle;
}

void DBImpl::ForgetHandle(ColumnFamilyHandleImpl* handle) {
  MutexLock l(&mutex_);
  handles_.erase(handle);
  handle->Release();
}

Status DBImpl::GetDescriptor(ColumnFamilyHandleImpl* handle,
                             ColumnFamilyDescriptor* desc) {
  MutexLock l(&mutex_);
  ColumnFamilyData* cfd = handle->cfd();
  if (cfd == nullptr) {
    return Status::InvalidArgument(
        "GetDescriptor: the handle was destroyed or its DB closed");
  }
  desc->name = cfd->name();
  desc->options = cfd->options();
  return Status::OK();
}

MemTable* DBImpl::NewMemTable(const ColumnFamilyData* cfd) const {
  const Options& options = cfd->options();
  const size_t block =
      std::min<size_t>(std::max<size_t>(options.write_buffer_size / 8,
                                        ConcurrentArena::kMinBlockSize),
                       ConcurrentArena::kDefaultBlockSize);
  // A region may stay partly unused: at most an eighth of the buffer.
  const size_t region = options.memtable_huge_page_size;
  const bool use_regions = region > 0 && port::HugePagesAvailable() &&
                           options.write_buffer_size / 8 >= region;
  MemTableOptions memtable_options;
  memtable_options.arena_block_size = block;
  memtable_options.huge_page_region = use_regions ? region : 0;
  // ValidateOptions let through only the factories handled here.
  const auto* vector =
      dynamic_cast<const VectorRepFactory*>(options.memtable_factory.get());
  if (vector != nullptr) {
    memtable_options.vector_rep = true;
    memtable_options.vector_reserve = vector->count();
  }
  if (options.inplace_update_support) {
    memtable_options.inplace_update_locks = options.inplace_update_num_locks;
  }
  MemTable* mem = new MemTable(cfd->icmp(), memtable_options);
  mem->Ref();
  return mem;
}

Status DBImpl::CreateFamily(const std::string& name,
                            const ColumnFamilyOptions& options,
                            ColumnFamilyData** cfd) {
  mutex_.AssertHeld();
  // The family starts with the WAL being written: none before it holds
  // any of its records.
  Status s = versions_->CreateColumnFamily(
      name, SanitizeOptions(Options(options_, options)),
      live_logs_.back().number, &mutex_, cfd);
  if (!s.ok()) return s;
  (*cfd)->mem = NewMemTable(*cfd);
  routes_stale_ = true;
  STRATA_LOG_INFO(info_log_, "created column family %s (id %u)", name.c_str(),
                  (*cfd)->id());
  return Status::OK();
}

Status DBImpl::CreateColumnFamily(const ColumnFamilyOptions& options,
                                  const std::string& column_family_name,
                                  ColumnFamilyHandle** handle) {
  if (handle == nullptr) {
    return Status::InvalidArgument("CreateColumnFamily: handle is null");
  }
  *handle = nullptr;
  if (column_family_name.empty()) {
    return Status::InvalidArgument("CreateColumnFamily: empty name");
  }
  Status s = ValidateOptions(Options(options_, options));
  if (!s.ok()) return s;
  MutexLock l(&mutex_);
  if (!opened_ || closing_) {
    return Status::ShutdownInProgress("the DB is closed");
  }
  if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
  if (versions_->column_families()->FindByName(column_family_name) != nullptr) {
    return Status::InvalidArgument("column family already exists: ",
                                   column_family_name);
  }
  ColumnFamilyData* cfd = nullptr;
  s = CreateFamily(column_family_name, options, &cfd);
  if (!s.ok()) return s;
  *handle = NewHandle(cfd);
  // The family exists whatever the OPTIONS file write does.
  return PersistOptions();
}

Status DBImpl::DropColumnFamily(ColumnFamilyHandle* column_family) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  if (cfd->id() == 0) {
    return Status::InvalidArgument(
        "the default column family cannot be "
        "dropped");
  }
  {
    MutexLock l(&mutex_);
    if (!opened_ || closing_) {
      return Status::ShutdownInProgress("the DB is closed");
    }
    if (cfd->dropped()) {
      return Status::InvalidArgument("column family already dropped: ",
                                     cfd->name());
    }
    s = versions_->DropColumnFamily(cfd, &mutex_);
    if (!s.ok()) return s;
    // Its memtables go with its last reference; the budget no longer
    // counts them (nor will a flush of them).
    cfd->charges.ReleaseAll(write_buffer_manager_);
    routes_stale_ = true;
    // No flush of it will be installed; the WALs it kept alive may go.
    bg_cv_.SignalAll();
    STRATA_LOG_INFO(info_log_, "dropped column family %s (id %u)",
                    cfd->name().c_str(), cfd->id());
    s = PersistOptions();
  }
  // The routes let go of the family before this returns, so its data goes
  // with its last handle and reader. (The drop is durable either way.)
  RefreshRoutes();
  MutexLock l(&mutex_);
  if (opened_ && !closing_) DeleteObsoleteFiles();
  return s;
}

Status DBImpl::DestroyColumnFamilyHandle(ColumnFamilyHandle* column_family) {
  if (column_family == nullptr) {
    return Status::InvalidArgument("DestroyColumnFamilyHandle: null handle");
  }
  if (column_family == default_handle_) {
    return Status::InvalidArgument(
        "the handle DefaultColumnFamily() returns belongs to the DB");
  }
  auto* impl = static_cast<ColumnFamilyHandleImpl*>(column_family);
  if (impl->db() != this) {
    return Status::InvalidArgument("column family handle of another DB: ",
                                   impl->GetName());
  }
  MutexLock l(&mutex_);
  if (handles_.erase(impl) == 0) {
    return Status::InvalidArgument("column family handle already destroyed: ",
                                   impl->GetName());
  }
  impl->Release();
  destroyed_handles_.emplace_back(impl);
  // A dropped family whose last handle this was is gone: its files too.
  if (opened_ && !closing_) DeleteObsoleteFiles();
  return Status::OK();
}

void DBImpl::RebuildRoutes() {
  mutex_.AssertHeld();
  const std::vector<ColumnFamilyData*> families =
      versions_->column_families()->All();
  for (ColumnFamilyData* cfd : families) cfd->Ref();
  ColumnFamilyRoutes* old = routes_.exchange(new ColumnFamilyRoutes(families),
                                             std::memory_order_acq_rel);
  if (old != nullptr) {
    old->UnrefAll();
    delete old;
  }
  routes_stale_ = false;
}

Status DBImpl::RefreshRoutes() {
  // An empty write group: its PrepareGroup rebuilds stale routes once the
  // inserts before it are done.
  WriteThread::Writer request(WriteOptions(), nullptr);
  return write_thread_.Write(&request);
}

// Checks, against the live families, what a batch naming families other
// than the default one asks of them.
namespace {

// Markers of a transaction's batch (WriteWithCallback) name no family and
// are accepted.
class FamilyChecker final : public AcceptingHandler {
 public:
  // ignore_missing: a family that does not exist is not an error (its
  // updates will be skipped).
  FamilyChecker(const ColumnFamilySet* families, bool ignore_missing)
      : families_(families), ignore_missing_(ignore_missing) {}

  Status PutCF(uint32_t cf, const Slice&, const Slice&) override {
    return Check(cf, false);
  }
  Status DeleteCF(uint32_t cf, const Slice&) override {
    return Check(cf, false);
  }
  Status SingleDeleteCF(uint32_t cf, const Slice&) override {
    return Check(cf, false);
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin,
                       const Slice& end) override {
    Status s = Check(cf, false);
    if (s.ok() && last_ != nullptr &&
        last_->user_comparator()->Compare(begin, end) > 0) {
      s = Status::InvalidArgument(
          "DeleteRange in a write batch: the end key comes before the begin "
          "key in column family ",
          last_->name());
    }
    return s;
  }
  Status MergeCF(uint32_t cf, const Slice&, const Slice&) override {
    return Check(cf, true);
  }

 private:
  Status Check(uint32_t cf, bool merge) {
    if (last_ == nullptr || last_->id() != cf) last_ = families_->Find(cf);
    if (last_ == nullptr) {
      if (ignore_missing_) return Status::OK();
      return Status::InvalidArgument(
          "write batch names column family " + std::to_string(cf) +
          ", which this DB does not have (dropped?)");
    }
    if (merge && last_->options().merge_operator == nullptr) {
      return Status::InvalidArgument(
          "Merge needs a merge_operator, which column family " + last_->name() +
          " does not have");
    }
    return Status::OK();
  }

  const ColumnFamilySet* const families_;
  const bool ignore_missing_;
  const ColumnFamilyData* last_ = nullptr;
};

}  // namespace

Status DBImpl::CheckBatchFamilies(const WriteBatch* batch,
                                  bool ignore_missing) {
  MutexLock l(&mutex_);
  FamilyChecker checker(versions_->column_families(), ignore_missing);
  return batch->Iterate(&checker);
}

Status DBImpl::SetOptions(
    ColumnFamilyHandle* column_family,
    const std::unordered_map<std::string, std::string>& new_options) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  if (new_options.empty()) {
    return Status::InvalidArgument("SetOptions: no option given");
  }
  MutexLock l(&mutex_);
  Options changed = cfd->options();
  ConfigOptions config;
  config.mutable_options_only = true;
  config.input_strings_escaped = false;
  for (const auto& entry : new_options) {
    s = SetOptionField(ColumnFamilyOptionFields(), OptionSection::kColumnFamily,
                       config, "SetOptions: ", entry.first, entry.second,
                       static_cast<ColumnFamilyOptions*>(&changed));
    if (!s.ok()) return s;
  }
  // Values the option tables take but no DB runs with.
  const char* bad = nullptr;
  if (changed.write_buffer_size == 0) bad = "write_buffer_size";
  if (changed.max_write_buffer_number < 1) bad = "max_write_buffer_number";
  if (changed.target_file_size_base == 0) bad = "target_file_size_base";
  if (changed.target_file_size_multiplier < 1) {
    bad = "target_file_size_multiplier";
  }
  if (changed.max_bytes_for_level_base == 0) bad = "max_bytes_for_level_base";
  if (!(changed.max_bytes_for_level_multiplier >= 1)) {
    bad = "max_bytes_for_level_multiplier";
  }
  if (bad != nullptr) {
    return Status::InvalidArgument("SetOptions: bad value for ", bad);
  }
  cfd->SetMutableOptions(SanitizeOptions(changed));
  STRATA_LOG_INFO(info_log_, "SetOptions on column family %s",
                  cfd->name().c_str());
  // New triggers may start a compaction or end a stall.
  MaybeScheduleCompaction();
  bg_cv_.SignalAll();
  // The options are in force whatever the file write does; its failure
  // is reported (RocksDB's fail_if_options_file_error).
  return PersistOptions();
}

Options DBImpl::GetOptions(ColumnFamilyHandle* column_family) const {
  ColumnFamilyData* cfd = nullptr;
  if (!FamilyOf(column_family, &cfd).ok()) return options_;
  MutexLock l(&mutex_);
  return cfd->options();
}

DBOptions DBImpl::GetDBOptions() const { return options_; }

}  // namespace strata
