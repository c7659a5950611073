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

// Whether record is an intact write batch holding a write numbered past
// max_sequence. A batch of count 0 holds none (strata never logs one; its
// sequence number is not used up), and a record numbered at or below
// max_sequence (a replay, stale bytes) is not a write made after the
// replayed ones. A kind of record strata does not replay still counts: its
// header is whole and names its writes.
bool WritesPast(const Slice& record, SequenceNumber max_sequence) {
  if (record.size() < WriteBatchInternal::kHeader) return false;
  WriteBatch batch;
  if (!WriteBatchInternal::SetContents(&batch, record).ok()) return false;
  const Status s = WriteBatchInternal::Validate(&batch);
  if (!s.ok() && !s.IsNotSupported()) return false;
  return WriteBatchInternal::Count(&batch) > 0 &&
         WriteBatchInternal::Sequence(&batch) > max_sequence;
}

// Whether record, read after damage, shows that the damaged bytes were
// whole once: it WritesPast max_sequence, or it is the close marker of a
// clean close made after the last write replayed (the marker carries the
// DB's last sequence then; an earlier close's marker is numbered at or
// below max_sequence).
bool IntactAfterDamage(const Slice& record, SequenceNumber max_sequence) {
  SequenceNumber marker = 0;
  if (WriteBatchInternal::IsCloseMarker(record, &marker)) {
    return marker > max_sequence;
  }
  return WritesPast(record, max_sequence);
}

// Reads WAL number from its start and sets *found if a record of it is
// IntactAfterDamage. The reader resynchronizes inside a block after
// damage and takes a torn tail that an intact fragment follows for
// damage, so a record in the same block as the damage counts too. A read
// error is returned.
Status ScanForIntactRecords(Env* env, const std::string& dbname,
                            uint64_t number, SequenceNumber max_sequence,
                            bool* found) {
  const std::string fname = LogFileName(dbname, number);
  std::unique_ptr<SequentialFile> file;
  Status s = env->NewSequentialFile(fname, &file, EnvOptions());
  if (!s.ok()) return s;
  RecoveryReporter reporter;
  log::Reader reader(
      std::make_unique<SequentialFileReader>(std::move(file), fname), &reporter,
      /*checksum=*/true, number);
  reader.CheckTornTails();
  reader.ResyncAfterDamage();
  std::string scratch;
  Slice record;
  while (!*found && reader.ReadRecord(&record, &scratch,
                                      WALRecoveryMode::kPointInTimeRecovery)) {
    *found = IntactAfterDamage(record, max_sequence);
  }
  return reporter.read_error();
}

// Point-in-time recovery found damage in WAL number of logs (sorted) and
// applied nothing after it. A torn write leaves nothing intact after it;
// media damage can. So that WAL (again from its start: every record
// before the damage was replayed, so is numbered at or below
// max_sequence, the last one replayed) and every later WAL of logs are
// read, and *found is set if any record there is IntactAfterDamage: then
// the damage is no torn tail, and dropping it would lose writes silently.
// Nothing is applied. A read error is returned.
Status FindWritesAfterDamage(Env* env, const std::string& dbname,
                             const std::vector<uint64_t>& logs, uint64_t number,
                             SequenceNumber max_sequence, bool* found) {
  *found = false;
  Status s = ScanForIntactRecords(env, dbname, number, max_sequence, found);
  for (auto it = std::upper_bound(logs.begin(), logs.end(), number);
       s.ok() && !*found && it != logs.end(); ++it) {
    s = ScanForIntactRecords(env, dbname, *it, max_sequence, found);
  }
  return s;
}

// A clean close's marker records the MANIFEST's number and its size once
// the close's edit was synced (docs/formats/wal.md). If record is such a
// marker naming the MANIFEST versions recovered from, and the edits
// recovered from it end before that size, its end was lost after the
// close (no crash after the close cuts it short): the edits lost may have
// added tables that the open would delete as obsolete, so the open fails.
Status CheckManifestLength(Env* env, const std::string& dbname,
                           const VersionSet& versions, const Slice& record) {
  SequenceNumber seq = 0;
  uint64_t number = 0;
  uint64_t size = 0;
  if (!WriteBatchInternal::IsCloseMarker(record, &seq, &number, &size) ||
      number == 0 || number != versions.ManifestFileNumber() ||
      versions.RecoveredManifestEnd() >= size) {
    return Status::OK();
  }
  const std::string fname = DescriptorFileName(dbname, number);
  uint64_t file_size = 0;
  std::string read = "reads back as ";
  if (env->GetFileSize(fname, &file_size).ok()) {
    read += NumberToString(file_size) + " bytes, ";
  }
  read += "its intact edits ending at byte " +
          NumberToString(versions.RecoveredManifestEnd());
  return Status::Corruption(
      fname, read + ", but the clean close at sequence " + NumberToString(seq) +
                 " left it " + NumberToString(size) +
                 " bytes: edits were lost after it (the table files they "
                 "added are kept)");
}

// A hole before WAL number of logs (CheckPredecessor) stops the replay
// there; a short MANIFEST can make one (its lost edits made the WAL
// before number obsolete, and it was deleted). So number and every later
// WAL of logs are read for a close marker that CheckManifestLength
// rejects; its Corruption is returned, or a read error, else OK.
Status CheckManifestLengthAfterHole(Env* env, const std::string& dbname,
                                    const VersionSet& versions,
                                    const std::vector<uint64_t>& logs,
                                    uint64_t number) {
  for (auto it = std::lower_bound(logs.begin(), logs.end(), number);
       it != logs.end(); ++it) {
    const std::string fname = LogFileName(dbname, *it);
    std::unique_ptr<SequentialFile> file;
    Status s = env->NewSequentialFile(fname, &file, EnvOptions());
    if (!s.ok()) return s;
    RecoveryReporter reporter;
    log::Reader reader(
        std::make_unique<SequentialFileReader>(std::move(file), fname),
        &reporter, /*checksum=*/true, *it);
    std::string scratch;
    Slice record;
    while (s.ok() && reader.ReadRecord(&record, &scratch,
                                       WALRecoveryMode::kPointInTimeRecovery)) {
      s = CheckManifestLength(env, dbname, versions, record);
    }
    if (s.ok()) s = reporter.read_error();
    if (!s.ok()) return s;
  }
  return Status::OK();
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

void DBImpl::TrackPreparedLogs() {
  if (prepared_floor_set_) return;
  prepared_floor_set_ = true;
  two_phase_allowed_.store(true, std::memory_order_release);
  // Called by LogAndApply, under mutex_.
  versions_->SetPreparedLogFloor([this]() NO_THREAD_SAFETY_ANALYSIS {
    return prepared_logs_.Floor(versions_->MinLogNumber());
  });
}

std::map<std::string, RecoveredTransaction>
DBImpl::TakeRecoveredTransactions() {
  MutexLock l(&mutex_);
  std::map<std::string, RecoveredTransaction> taken;
  taken.swap(*recovered_transactions_.unresolved());
  return taken;
}

Status DBImpl::ReplayBatch(WriteBatch* batch, uint64_t log_number,
                           SequenceNumber* max_sequence,
                           PreparedSink* prepared) {
  const SequenceNumber first = WriteBatchInternal::Sequence(batch);
  FamilyRouter router(versions_->column_families(), log_number);
  MemTable* default_mem = nullptr;
  router.Route(0, &default_mem);
  Status s = InsertBatchIntoMemTable(batch, first, default_mem, &router,
                                     /*concurrent=*/false,
                                     /*ignore_duplicates=*/true, prepared);
  if (!s.ok()) return s;
  const uint32_t count = WriteBatchInternal::Count(batch);
  if (count > 0) *max_sequence = std::max(*max_sequence, first + count - 1);
  return Status::OK();
}

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
    // A record that looks cut short by the end of the file while an
    // intact fragment follows it is damage (rule c), not a torn tail.
    reader.CheckTornTails();
    Status damage;
    bool more = reader.ReadRecord(&record, &scratch, mode);
    if (!reporter.read_error().ok()) return reporter.read_error();
    const Status hole =
        CheckPredecessor(reader, fname, number == logs.front(), more,
                         versions_->MinLogNumberToKeep(), replayed);
    if (!hole.ok()) {
      STRATA_LOG_WARN(info_log_, "WAL recovery: %s", hole.ToString().c_str());
      s = CheckManifestLengthAfterHole(env_, dbname_, *versions_, logs, number);
      if (!s.ok()) return s;
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
      s = CheckManifestLength(env_, dbname_, *versions_, record);
      if (!s.ok()) return s;
      recovered_transactions_.set_log_number(number);
      s = ReplayBatch(&batch, number, &max_sequence, &recovered_transactions_);
      if (!s.ok()) return s;
    }
    if (!reporter.read_error().ok()) return reporter.read_error();
    replayed[number] = reader.EndOfLastRecord();
    last_replayed_log_ = number;
    last_replayed_end_ = reader.EndOfLastRecord();
    if (damage.ok() && !reporter.first().ok()) {
      damage = Status::Corruption(fname, reporter.first().getState());
    }
    if (!damage.ok()) {
      STRATA_LOG_WARN(info_log_, "WAL recovery: %s", damage.ToString().c_str());
      switch (mode) {
        case WALRecoveryMode::kTolerateCorruptedTailRecords:
        case WALRecoveryMode::kAbsoluteConsistency:
          return damage;
        case WALRecoveryMode::kPointInTimeRecovery: {
          // A torn tail (or garbage) ends the history here; intact later
          // writes, or a clean close's marker, mean the damage hit
          // acknowledged data.
          bool found = false;
          s = FindWritesAfterDamage(env_, dbname_, logs, number, max_sequence,
                                    &found);
          if (!s.ok()) return s;
          if (found) {
            return Status::Corruption(
                damage.getState(),
                "intact writes numbered past the last one recovered (or "
                "the marker of a clean close after them) follow it: damage, "
                "not a torn write (kSkipAnyCorruptedRecords opens, without "
                "the damaged records)");
          }
          last_allocated_ = last_published_ = max_sequence;
          return Status::OK();
        }
        case WALRecoveryMode::kSkipAnyCorruptedRecords:
          break;
      }
    }
  }
  last_allocated_ = last_published_ = max_sequence;
  return Status::OK();
}

}  // namespace strata
