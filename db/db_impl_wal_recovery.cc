// DBImpl: replaying the WALs at open, per WALRecoveryMode
// (docs/formats/wal.md, "What each WALRecoveryMode does with this").

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/memtable_inserter.h"
#include "db/write_batch_internal.h"
#include "env/file_reader.h"
#include "util/logging.h"

namespace strata {

namespace {

// Collects what a WAL reader reports; the first report is the one that
// decides what recovery does.
class RecoveryReporter final : public log::Reader::Reporter {
 public:
  void Corruption(size_t, const Status& status) override {
    if (status.IsCorruption()) {
      if (first_.ok()) first_ = status;
    } else if (read_error_.ok()) {
      read_error_ = status;
    }
  }
  // The first damage reported, and the first read error.
  const Status& first() const { return first_; }
  const Status& read_error() const { return read_error_; }

 private:
  Status first_;
  Status read_error_;
};

// The hole a power loss leaves when it takes the end of an older WAL (or
// the start of a newer one) and keeps data of the newer one it was retired
// for (db_impl_wal.cc). Every WAL but the first this recovery replays was
// started at a switch and so begins with a predecessor record once it
// holds any record: it names a WAL this recovery replays (numbered at or
// above min_log) and that WAL's length, and replayed holds where each
// replayed WAL's last record ended. OK when there is no hole.
Status CheckPredecessor(const log::Reader& reader, const std::string& fname,
                        bool first, bool has_records, uint64_t min_log,
                        const std::map<uint64_t, uint64_t>& replayed) {
  uint64_t number = 0;
  uint64_t size = 0;
  if (!reader.Predecessor(&number, &size)) {
    if (first || !has_records) return Status::OK();
    return Status::Corruption(
        fname,
        "holds records but no predecessor record, and a WAL before it "
        "was replayed (its start lost in a power loss?): the writes "
        "from here on would not follow the recovered ones");
  }
  if (number < min_log) return Status::OK();
  std::string what = "follows WAL #" + NumberToString(number) + " of " +
                     NumberToString(size) + " bytes, ";
  const auto it = replayed.find(number);
  if (it == replayed.end()) {
    what += "which is missing";
  } else if (it->second == size) {
    return Status::OK();
  } else {
    what += "whose records end at byte " + NumberToString(it->second);
  }
  return Status::Corruption(
      fname, what +
                 " (its end lost in a power loss?): the writes from here "
                 "on would not follow the recovered ones");
}

}  // namespace

// Routes a replayed WAL record's families: a family whose log number is
// past the WAL has its data from it in tables already, and a family
// dropped since (or never opened) is skipped.
class DBImpl::FamilyRouter final : public MemTableRouter {
 public:
  FamilyRouter(const ColumnFamilySet* families, uint64_t log_number)
      : families_(families), log_number_(log_number) {}
  Status Route(uint32_t id, MemTable** mem) override {
    ColumnFamilyData* cfd = families_->Find(id);
    *mem =
        cfd != nullptr && log_number_ >= cfd->log_number() ? cfd->mem : nullptr;
    return Status::OK();
  }

 private:
  const ColumnFamilySet* const families_;
  const uint64_t log_number_;
};

Status DBImpl::RecoverLogFiles(const std::vector<uint64_t>& logs) {
  const WALRecoveryMode mode = options_.wal_recovery_mode;
  SequenceNumber max_sequence = 0;
  // Per WAL replayed: where its last record ended (CheckPredecessor).
  std::map<uint64_t, uint64_t> replayed;
  WriteBatch batch;
  std::string scratch;
  Slice record;
  for (uint64_t number : logs) {
    const std::string fname = LogFileName(dbname_, number);
    std::unique_ptr<SequentialFile> file;
    Status s = env_->NewSequentialFile(fname, &file, EnvOptions());
    if (!s.ok()) return s;
    RecoveryReporter reporter;
    log::Reader reader(
        std::make_unique<SequentialFileReader>(std::move(file), fname),
        &reporter, /*checksum=*/true, number);
    Status damage;
    bool more = reader.ReadRecord(&record, &scratch, mode);
    if (!reporter.read_error().ok()) return reporter.read_error();
    const Status hole =
        CheckPredecessor(reader, fname, number == logs.front(), more,
                         versions_->MinLogNumber(), replayed);
    if (!hole.ok()) {
      STRATA_LOG_WARN(info_log_, "WAL recovery: %s", hole.ToString().c_str());
      if (mode == WALRecoveryMode::kPointInTimeRecovery) {
        last_allocated_ = last_published_ = max_sequence;
        return Status::OK();  // nothing of this WAL or later ones
      }
      if (mode != WALRecoveryMode::kSkipAnyCorruptedRecords) return hole;
    }
    for (; more; more = reader.ReadRecord(&record, &scratch, mode)) {
      if (!reporter.read_error().ok()) {
        return reporter.read_error();  // a read error fails the open
      }
      if (!reporter.first().ok()) {
        damage = Status::Corruption(fname, reporter.first().getState());
      }
      if (!damage.ok() && mode == WALRecoveryMode::kPointInTimeRecovery) {
        break;  // nothing after the first damage is applied
      }
      Status bad;
      if (record.size() < WriteBatchInternal::kHeader) {
        bad = Status::Corruption("record too small for a write batch");
      } else {
        bad = WriteBatchInternal::SetContents(&batch, record);
        if (bad.ok()) bad = WriteBatchInternal::Validate(&batch);
        // A record kind strata does not implement (a WAL RocksDB wrote
        // with 2PC, say) is no damage to skip: the open fails.
        if (bad.IsNotSupported()) {
          return Status::NotSupported(
              fname + " offset " + NumberToString(reader.LastRecordOffset()),
              bad.ToString());
        }
      }
      if (!bad.ok()) {
        if (damage.ok()) {
          damage = Status::Corruption(
              fname + " offset " + NumberToString(reader.LastRecordOffset()),
              bad.ToString());
        }
        if (mode == WALRecoveryMode::kSkipAnyCorruptedRecords) continue;
        break;
      }
      const SequenceNumber first = WriteBatchInternal::Sequence(&batch);
      FamilyRouter router(versions_->column_families(), number);
      MemTable* default_mem = nullptr;
      router.Route(0, &default_mem);
      s = InsertBatchIntoMemTable(&batch, first, default_mem, &router,
                                  /*concurrent=*/false,
                                  /*ignore_duplicates=*/true);
      if (!s.ok()) return s;
      const uint32_t count = WriteBatchInternal::Count(&batch);
      if (count > 0) max_sequence = std::max(max_sequence, first + count - 1);
    }
    if (!reporter.read_error().ok()) return reporter.read_error();
    replayed[number] = reader.EndOfLastRecord();
    if (damage.ok() && !reporter.first().ok()) {
      damage = Status::Corruption(fname, reporter.first().getState());
    }
    if (!damage.ok()) {
      STRATA_LOG_WARN(info_log_, "WAL recovery: %s", damage.ToString().c_str());
      switch (mode) {
        case WALRecoveryMode::kTolerateCorruptedTailRecords:
        case WALRecoveryMode::kAbsoluteConsistency:
          return damage;
        case WALRecoveryMode::kPointInTimeRecovery:
          last_allocated_ = last_published_ = max_sequence;
          return Status::OK();
        case WALRecoveryMode::kSkipAnyCorruptedRecords:
          break;
      }
    }
  }
  last_allocated_ = last_published_ = max_sequence;
  return Status::OK();
}

}  // namespace strata
