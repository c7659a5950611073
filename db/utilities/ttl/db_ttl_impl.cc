#include "db/utilities/ttl/db_ttl_impl.h"

#include <utility>

#include "db/dbformat.h"
#include "db/utilities/ttl/ttl_format.h"
#include "db/write_batch_internal.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// Copies a batch with every value and merge operand stamped with now.
class StampingHandler : public WriteBatch::Handler {
 public:
  StampingHandler(int32_t now, WriteBatch* out) : now_(now), out_(out) {}

  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    ttl::AppendTimestamp(value, now_, &stamped_);
    const Slice v(stamped_);
    return WriteBatchInternal::AddRecord(out_, kTypeValue, cf, key, &v);
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    ttl::AppendTimestamp(value, now_, &stamped_);
    const Slice v(stamped_);
    return WriteBatchInternal::AddRecord(out_, kTypeMerge, cf, key, &v);
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    return WriteBatchInternal::AddRecord(out_, kTypeDeletion, cf, key, nullptr);
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    return WriteBatchInternal::AddRecord(out_, kTypeSingleDeletion, cf, key,
                                         nullptr);
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin,
                       const Slice& end) override {
    return WriteBatchInternal::AddRecord(out_, kTypeRangeDeletion, cf, begin,
                                         &end);
  }
  void LogData(const Slice& blob) override { out_->PutLogData(blob); }

 private:
  const int32_t now_;
  WriteBatch* const out_;
  std::string stamped_;
};

Status OpenWithTtl(const DBOptions& db_options, const std::string& dbname,
                   const std::vector<ColumnFamilyDescriptor>& column_families,
                   std::vector<ColumnFamilyHandle*>* handles, DBWithTTL** dbptr,
                   const std::vector<int32_t>& ttls, bool read_only) {
  *dbptr = nullptr;
  if (ttls.size() != column_families.size()) {
    return Status::InvalidArgument(
        "DBWithTTL::Open: " + std::to_string(ttls.size()) + " ttls for " +
        std::to_string(column_families.size()) + " column families");
  }
  Env* env = db_options.env != nullptr ? db_options.env : Env::Default();
  std::vector<ColumnFamilyDescriptor> families;
  std::vector<std::shared_ptr<TtlState>> states(column_families.size());
  for (size_t i = 0; i < column_families.size(); i++) {
    families.emplace_back(
        column_families[i].name,
        TtlFamilyOptions(column_families[i].options, ttls[i], env, &states[i]));
  }
  DB* db = nullptr;
  Status s = read_only ? DB::OpenForReadOnly(db_options, dbname, families,
                                             handles, &db)
                       : DB::Open(db_options, dbname, families, handles, &db);
  if (!s.ok()) return s;
  auto* impl = new DBWithTTLImpl(db, env);
  for (size_t i = 0; i < handles->size(); i++) {
    impl->AddFamily((*handles)[i]->GetID(), states[i]);
  }
  *dbptr = impl;
  return Status::OK();
}

}  // namespace

ColumnFamilyOptions TtlFamilyOptions(const ColumnFamilyOptions& options,
                                     int32_t ttl, Env* env,
                                     std::shared_ptr<TtlState>* state) {
  *state = std::make_shared<TtlState>(ttl, env);
  ColumnFamilyOptions result = options;
  result.compaction_filter_factory =
      std::make_shared<TtlCompactionFilterFactory>(
          *state, options.compaction_filter, options.compaction_filter_factory);
  result.compaction_filter = nullptr;
  if (options.merge_operator != nullptr) {
    result.merge_operator =
        std::make_shared<TtlMergeOperator>(*state, options.merge_operator);
  }
  return result;
}

Status DBWithTTL::Open(const Options& options, const std::string& dbname,
                       DBWithTTL** dbptr, int32_t ttl, bool read_only) {
  std::vector<ColumnFamilyDescriptor> families{ColumnFamilyDescriptor(
      kDefaultColumnFamilyName, ColumnFamilyOptions(options))};
  std::vector<ColumnFamilyHandle*> handles;
  Status s = OpenWithTtl(DBOptions(options), dbname, families, &handles, dbptr,
                         {ttl}, read_only);
  // The default family's handle is not needed: the DB keeps its own.
  if (s.ok()) s = (*dbptr)->DestroyColumnFamilyHandle(handles[0]);
  return s;
}

Status DBWithTTL::Open(
    const DBOptions& db_options, const std::string& dbname,
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::vector<ColumnFamilyHandle*>* handles, DBWithTTL** dbptr,
    const std::vector<int32_t>& ttls, bool read_only) {
  return OpenWithTtl(db_options, dbname, column_families, handles, dbptr, ttls,
                     read_only);
}

DBWithTTLImpl::DBWithTTLImpl(DB* db, Env* env) : DBWithTTL(db), env_(env) {}

DBWithTTLImpl::~DBWithTTLImpl() = default;

void DBWithTTLImpl::AddFamily(uint32_t id, std::shared_ptr<TtlState> state) {
  MutexLock l(&mu_);
  families_[id] = std::move(state);
}

Status DBWithTTLImpl::CreateColumnFamilyWithTtl(
    const ColumnFamilyOptions& options, const std::string& column_family_name,
    ColumnFamilyHandle** handle, int ttl) {
  std::shared_ptr<TtlState> state;
  Status s = db_->CreateColumnFamily(
      TtlFamilyOptions(options, ttl, env_, &state), column_family_name, handle);
  if (s.ok()) AddFamily((*handle)->GetID(), std::move(state));
  return s;
}

// DB's forms call CreateColumnFamily (below) per family; StackableDB's
// would go straight to the base DB, past the TTL layer.
Status DBWithTTLImpl::CreateColumnFamilies(
    const ColumnFamilyOptions& options,
    const std::vector<std::string>& column_family_names,
    std::vector<ColumnFamilyHandle*>* handles) {
  return DB::CreateColumnFamilies(options, column_family_names, handles);
}

Status DBWithTTLImpl::CreateColumnFamilies(
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::vector<ColumnFamilyHandle*>* handles) {
  return DB::CreateColumnFamilies(column_families, handles);
}

Status DBWithTTLImpl::CreateColumnFamily(const ColumnFamilyOptions& options,
                                         const std::string& column_family_name,
                                         ColumnFamilyHandle** handle) {
  return CreateColumnFamilyWithTtl(options, column_family_name, handle, 0);
}

// DB's own forms build a batch and pass it to Write, which stamps it.
Status DBWithTTLImpl::Put(const WriteOptions& options,
                          ColumnFamilyHandle* column_family, const Slice& key,
                          const Slice& value) {
  return DB::Put(options, column_family, key, value);
}

Status DBWithTTLImpl::Merge(const WriteOptions& options,
                            ColumnFamilyHandle* column_family, const Slice& key,
                            const Slice& value) {
  return DB::Merge(options, column_family, key, value);
}

Status DBWithTTLImpl::Write(const WriteOptions& options, WriteBatch* updates) {
  if (updates == nullptr) return db_->Write(options, updates);
  WriteBatch stamped;
  StampingHandler handler(ttl::NowSeconds(env_), &stamped);
  Status s = updates->Iterate(&handler);
  return s.ok() ? db_->Write(options, &stamped) : s;
}

int32_t DBWithTTLImpl::TtlOf(ColumnFamilyHandle* h) {
  if (h == nullptr) h = DefaultColumnFamily();
  MutexLock l(&mu_);
  auto it = families_.find(h->GetID());
  return it == families_.end()
             ? 0
             : it->second->ttl.load(std::memory_order_relaxed);
}

void DBWithTTLImpl::SetTtl(ColumnFamilyHandle* h, int32_t ttl) {
  if (h == nullptr) h = DefaultColumnFamily();
  MutexLock l(&mu_);
  auto it = families_.find(h->GetID());
  if (it != families_.end()) it->second->ttl.store(ttl);
}

Status DBWithTTLImpl::FinishRead(int32_t ttl, int32_t now,
                                 PinnableSlice* value) const {
  Status s = ttl::CheckValue(*value);
  if (!s.ok()) return s;
  if (ttl::IsStale(*value, ttl, now)) {
    value->Reset();
    return Status::NotFound("expired (DBWithTTL)");
  }
  value->remove_suffix(ttl::kTimestampLength);
  return Status::OK();
}

Status DBWithTTLImpl::Get(const ReadOptions& options,
                          ColumnFamilyHandle* column_family, const Slice& key,
                          PinnableSlice* value) {
  const int32_t ttl = TtlOf(column_family);
  Status s = db_->Get(options, column_family, key, value);
  return s.ok() ? FinishRead(ttl, ttl::NowSeconds(env_), value) : s;
}

Status DBWithTTLImpl::Get(const ReadOptions& options,
                          ColumnFamilyHandle* column_family, const Slice& key,
                          std::string* value) {
  PinnableSlice pinned(value);
  Status s = Get(options, column_family, key, &pinned);
  if (s.ok() && pinned.IsPinned())
    value->assign(pinned.data(), pinned.size());
  else if (s.ok())
    value->resize(pinned.size());
  return s;
}

std::vector<Status> DBWithTTLImpl::MultiGet(
    const ReadOptions& options,
    const std::vector<ColumnFamilyHandle*>& column_family,
    const std::vector<Slice>& keys, std::vector<std::string>* values) {
  std::vector<Status> statuses =
      db_->MultiGet(options, column_family, keys, values);
  const int32_t now = ttl::NowSeconds(env_);
  for (size_t i = 0; i < statuses.size(); i++) {
    if (!statuses[i].ok()) continue;
    PinnableSlice pinned(&(*values)[i]);
    pinned.PinSelf();
    statuses[i] = FinishRead(TtlOf(column_family[i]), now, &pinned);
    (*values)[i].resize(statuses[i].ok() ? pinned.size() : 0);
  }
  return statuses;
}

void DBWithTTLImpl::MultiGet(const ReadOptions& options,
                             ColumnFamilyHandle* column_family,
                             const size_t num_keys, const Slice* keys,
                             PinnableSlice* values, Status* statuses,
                             const bool sorted_input) {
  db_->MultiGet(options, column_family, num_keys, keys, values, statuses,
                sorted_input);
  const int32_t ttl = TtlOf(column_family);
  const int32_t now = ttl::NowSeconds(env_);
  for (size_t i = 0; i < num_keys; i++) {
    if (statuses[i].ok()) statuses[i] = FinishRead(ttl, now, &values[i]);
  }
}

Iterator* DBWithTTLImpl::NewIterator(const ReadOptions& options,
                                     ColumnFamilyHandle* column_family) {
  return NewTtlIterator(db_->NewIterator(options, column_family),
                        TtlOf(column_family), ttl::NowSeconds(env_));
}

Status DBWithTTLImpl::NewIterators(
    const ReadOptions& options,
    const std::vector<ColumnFamilyHandle*>& column_families,
    std::vector<Iterator*>* iterators) {
  Status s = db_->NewIterators(options, column_families, iterators);
  if (!s.ok()) return s;
  const int32_t now = ttl::NowSeconds(env_);
  for (size_t i = 0; i < iterators->size(); i++) {
    (*iterators)[i] =
        NewTtlIterator((*iterators)[i], TtlOf(column_families[i]), now);
  }
  return s;
}

}  // namespace strata
