// The Repairer's WALs (step 4): each replayed whole into one memtable per
// column family, skipping what is damaged, and written as tables.

#include <algorithm>
#include <functional>
#include <map>
#include <memory>

#include "db/builder.h"
#include "db/column_family.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/memtable_inserter.h"
#include "db/repair.h"
#include "db/write_batch_internal.h"
#include "env/file_reader.h"
#include "memtable/memtable.h"
#include "util/logging.h"

namespace strata {

namespace {

class FunctionRouter final : public MemTableRouter {
 public:
  explicit FunctionRouter(std::function<MemTable*(uint32_t)> route)
      : route_(std::move(route)) {}
  Status Route(uint32_t id, MemTable** mem) override {
    *mem = route_(id);
    return Status::OK();
  }

 private:
  const std::function<MemTable*(uint32_t)> route_;
};

}  // namespace

Status Repairer::ConvertLogs() {
  for (uint64_t number : logs_) {
    Status s = ConvertLog(number);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status Repairer::ConvertLog(uint64_t number) {
  const std::string fname = LogFileName(dbname_, number);
  std::unique_ptr<SequentialFile> file;
  Status s = env_->NewSequentialFile(fname, &file, EnvOptions());
  if (!s.ok()) return s;
  RepairReporter reporter(info_log_.get());
  log::Reader reader(
      std::make_unique<SequentialFileReader>(std::move(file), fname), &reporter,
      /*checksum=*/true, number);
  // Records after damage in the same block are kept too.
  reader.ResyncAfterDamage();

  // The memtables, by family id, made at a family's first record; the
  // updates of families not kept, by id.
  std::map<uint32_t, MemTable*> mems;
  std::map<uint32_t, uint64_t> dropped;
  const auto route = [&](uint32_t id) -> MemTable* {
    const auto family = families_.find(id);
    if (family == families_.end()) {
      dropped[id]++;
      return nullptr;
    }
    MemTable*& mem = mems[id];
    if (mem == nullptr) {
      mem = new MemTable(family->second->icmp());
      mem->Ref();
    }
    return mem;
  };
  FunctionRouter router(route);

  WriteBatch batch;
  std::string scratch;
  Slice record;
  uint64_t applied = 0;
  uint64_t skipped = 0;
  // kAbsoluteConsistency: every damage is reported, a torn tail included;
  // what to do about it is decided here — skip it.
  while (reader.ReadRecord(&record, &scratch,
                           WALRecoveryMode::kAbsoluteConsistency)) {
    SequenceNumber marker = 0;
    if (WriteBatchInternal::IsCloseMarker(record, &marker)) {
      max_sequence_ = std::max(max_sequence_, marker);
      continue;
    }
    // Checked whole before any of it is applied.
    Status bad = WriteBatchInternal::SetContents(&batch, record);
    if (bad.ok()) bad = WriteBatchInternal::Validate(&batch);
    if (bad.ok()) {
      const SequenceNumber first = WriteBatchInternal::Sequence(&batch);
      bad = InsertBatchIntoMemTable(&batch, first, route(0), &router,
                                    /*concurrent=*/false,
                                    /*ignore_duplicates=*/true);
      const uint32_t count = WriteBatchInternal::Count(&batch);
      if (count > 0) max_sequence_ = std::max(max_sequence_, first + count - 1);
    }
    if (!bad.ok()) {
      STRATA_LOG_WARN(
          info_log_, "%s offset %llu: record skipped: %s", fname.c_str(),
          static_cast<unsigned long long>(reader.LastRecordOffset()),
          bad.ToString().c_str());
      skipped++;
      continue;
    }
    applied++;
  }
  s = reporter.read_error();
  for (const auto& entry : dropped) {
    STRATA_LOG_WARN(info_log_,
                    "%s: %llu updates of column family id %u dropped: no "
                    "family of that id is kept",
                    fname.c_str(),
                    static_cast<unsigned long long>(entry.second), entry.first);
  }
  for (const auto& entry : mems) {
    if (s.ok()) s = WriteTable(families_[entry.first], entry.second);
    entry.second->Unref();
  }
  STRATA_LOG_INFO(info_log_, "%s: %llu records replayed, %llu skipped: %s",
                  fname.c_str(), static_cast<unsigned long long>(applied),
                  static_cast<unsigned long long>(skipped),
                  s.ToString().c_str());
  return s;
}

Status Repairer::WriteTable(ColumnFamilyData* cfd, MemTable* mem) {
  if (mem->num_entries() == 0) return Status::OK();
  mem->MarkImmutable();
  FileMetaData meta;
  meta.number = versions_->NewFileNumber();
  std::unique_ptr<InternalIterator> points(mem->NewIterator());
  std::unique_ptr<InternalIterator> tombstones(
      mem->NewRangeTombstoneIterator());
  Status s = BuildTable(TableOptionsFor(env_, dbname_, *cfd), points.get(),
                        tombstones.get(), &meta);
  if (s.ok() && meta.file_size > 0) {
    written_.push_back(meta.number);
    good_[cfd->id()].push_back(meta);
  }
  return s;
}

}  // namespace strata
