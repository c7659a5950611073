// DBImpl: IngestExternalFile(s) (docs/operations.md, "Bulk ingestion").
//
// A call runs in three steps:
//   1. Without the mutex: every file is read through and checked
//      (ReadExternalFile), the files of each family checked apart, then
//      brought into the DB directory under new numbers (pending outputs,
//      so that no obsolete-file sweep takes them) and the directory
//      synced. A failure removes what was brought in: nothing changed.
//   2. The job waits in ingest_jobs_ and a null write goes through the
//      write thread. The next group's PrepareGroup runs the job before
//      its numbers are allocated, when every earlier write is in its
//      memtable and no later one has begun — the exclusion a memtable
//      switch has. There the job flushes the memtables its files overlap
//      (or is refused without allow_blocking_flush), picks each file's
//      level and sequence number, and installs every file of every
//      family with one LogAndApply; only then is the number published.
//   3. The caller removes the DB's copies if the job failed, or the
//      source names of linked files (move_files) if it succeeded.

#include <algorithm>

#include "db/db_impl.h"
#include "db/external_file_ingest.h"
#include "db/filename.h"
#include "memtable/memtable.h"
#include "strata/listener.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

struct DBImpl::IngestJob {
  struct Family {
    ColumnFamilyData* cfd = nullptr;
    IngestExternalFileOptions options;
    std::vector<IngestedFile> files;
  };
  std::vector<Family> families;
  bool taken = false;  // popped by RunIngestJobs
  bool done = false;   // status is final
  // LogAndApply was called: on failure its edit may still be in the
  // MANIFEST that CURRENT names, so the files brought in stay.
  bool install_tried = false;
  Status status;
};

Status DBImpl::IngestExternalFile(
    ColumnFamilyHandle* column_family,
    const std::vector<std::string>& external_files,
    const IngestExternalFileOptions& options) {
  IngestExternalFileArg arg;
  arg.column_family = column_family;
  arg.external_files = external_files;
  arg.options = options;
  return IngestExternalFiles({arg});
}

Status DBImpl::IngestExternalFiles(
    const std::vector<IngestExternalFileArg>& args) {
  if (args.empty()) {
    return Status::InvalidArgument("IngestExternalFiles: no files given");
  }
  IngestJob job;
  Status s;
  for (const IngestExternalFileArg& arg : args) {
    IngestJob::Family family;
    s = FamilyOf(arg.column_family, &family.cfd);
    if (!s.ok()) return s;
    for (const IngestJob::Family& f : job.families) {
      if (f.cfd == family.cfd) {
        return Status::InvalidArgument("IngestExternalFiles: column family " +
                                       f.cfd->name() + " is given twice");
      }
    }
    if (arg.external_files.empty()) {
      return Status::InvalidArgument("IngestExternalFile: no files given");
    }
    if (arg.options.ingest_behind) {
      return Status::NotSupported("IngestExternalFile: ingest_behind");
    }
    family.options = arg.options;
    family.files.resize(arg.external_files.size());
    for (size_t i = 0; i < arg.external_files.size(); i++) {
      s = ReadExternalFile(family.cfd->options(), family.cfd->icmp(),
                           arg.external_files[i], &family.files[i]);
      if (!s.ok()) return s;
    }
    s = CheckFilesApart(family.cfd->user_comparator(), &family.files);
    if (!s.ok()) return s;
    job.families.push_back(std::move(family));
  }

  std::vector<uint64_t> numbers;
  {
    MutexLock l(&mutex_);
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    for (IngestJob::Family& family : job.families) {
      for (size_t i = 0; i < family.files.size(); i++) {
        numbers.push_back(versions_->NewFileNumber());
        pending_outputs_.insert(numbers.back());
      }
    }
  }
  size_t next = 0;
  for (IngestJob::Family& family : job.families) {
    for (IngestedFile& file : family.files) {
      if (s.ok()) {
        s = BringIntoDB(env_, dbname_, family.options, numbers[next], &file);
      }
      next++;
    }
  }
  if (s.ok()) s = SyncDBDirectory(env_, dbname_);

  if (s.ok()) {
    {
      MutexLock l(&mutex_);
      ingest_jobs_.push_back(&job);
    }
    WriteThread::Writer request(WriteOptions(), nullptr);
    const Status group = write_thread_.Write(&request);
    MutexLock l(&mutex_);
    if (!job.taken) {
      // Its group failed before it could run (closing, a stopped DB).
      ingest_jobs_.erase(
          std::find(ingest_jobs_.begin(), ingest_jobs_.end(), &job));
      job.status =
          group.ok() ? Status::Aborted("ingestion did not run") : group;
      job.done = true;
    }
    while (!job.done) bg_cv_.Wait();
    s = job.status;
  }

  for (IngestJob::Family& family : job.families) {
    for (IngestedFile& file : family.files) {
      if (file.internal_path.empty()) continue;
      if (s.ok()) {
        // Moved: the DB's name is the file's only one now, as in RocksDB.
        if (file.linked) env_->RemoveFile(file.external_path);
      } else if (!job.install_tried) {
        env_->RemoveFile(file.internal_path);
      }
    }
  }
  if (s.ok()) NotifyIngested(job);
  MutexLock l(&mutex_);
  for (uint64_t number : numbers) pending_outputs_.erase(number);
  return s;
}

void DBImpl::NotifyIngested(const IngestJob& job) {
  for (const IngestJob::Family& family : job.families) {
    for (const IngestedFile& file : family.files) {
      ExternalFileIngestionInfo info;
      info.cf_name = family.cfd->name();
      info.external_file_path = file.external_path;
      info.internal_file_path = file.internal_path;
      info.global_seqno = file.meta.global_seqno;
      for (const auto& listener : options_.listeners) {
        listener->OnExternalFileIngested(this, info);
      }
    }
  }
}

void DBImpl::RunIngestJobs() {
  mutex_.AssertHeld();
  while (!ingest_jobs_.empty()) {
    IngestJob* job = ingest_jobs_.front();
    ingest_jobs_.pop_front();
    job->taken = true;
    job->status = RunIngestJob(job);
    job->done = true;
    bg_cv_.SignalAll();
  }
}

Status DBImpl::RunIngestJob(IngestJob* job) {
  mutex_.AssertHeld();
  // Earlier groups' inserts (pipelined, unordered) finish first, and
  // their numbers are published: the memtables are then complete and the
  // next number is free.
  WaitForMemTableWrites();
  while (last_published_.load(std::memory_order_acquire) <
         last_allocated_.load(std::memory_order_acquire)) {
    mutex_.Unlock();
    env_->SleepForMicroseconds(10);
    mutex_.Lock();
  }
  if (closing_) return Status::ShutdownInProgress("the DB is closing");
  if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
  for (const IngestJob::Family& family : job->families) {
    if (family.cfd->dropped()) {
      return Status::ColumnFamilyDropped("IngestExternalFile: ",
                                         family.cfd->name());
    }
  }
  Status s = FlushForIngest(job);
  if (s.ok()) s = InstallIngest(job);
  return s;
}

Status DBImpl::FlushForIngest(IngestJob* job) {
  mutex_.AssertHeld();
  std::vector<ColumnFamilyData*> switching;
  std::vector<ColumnFamilyData*> waiting;
  for (const IngestJob::Family& family : job->families) {
    ColumnFamilyData* cfd = family.cfd;
    bool in_mem = false;
    bool in_imm = false;
    for (const IngestedFile& f : family.files) {
      const Slice smallest(f.smallest_user_key);
      const Slice largest(f.largest_user_key);
      in_mem =
          in_mem || MemTableOverlaps(cfd->mem, cfd->icmp(), smallest, largest);
      for (MemTable* m : cfd->imm.current()->memtables()) {
        in_imm = in_imm || MemTableOverlaps(m, cfd->icmp(), smallest, largest);
      }
    }
    if (!in_mem && !in_imm) continue;
    if (!family.options.allow_blocking_flush) {
      return Status::InvalidArgument(
          "IngestExternalFile: the files overlap the memtables of " +
              cfd->name(),
          "and allow_blocking_flush is false");
    }
    if (in_mem) switching.push_back(cfd);
    waiting.push_back(cfd);
  }
  if (waiting.empty()) return Status::OK();
  if (!switching.empty()) {
    Status s = SwitchMemTables(switching);
    if (!s.ok()) return s;
  }
  MaybeScheduleFlush();
  for (ColumnFamilyData* cfd : waiting) {
    while (cfd->imm.NumNotFlushed() > 0 && !error_handler_.IsDBStopped() &&
           !cfd->dropped() && !closing_) {
      bg_cv_.Wait();
    }
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
    if (cfd->dropped()) {
      return Status::ColumnFamilyDropped("IngestExternalFile: ", cfd->name());
    }
  }
  return Status::OK();
}

Status DBImpl::InstallIngest(IngestJob* job) {
  mutex_.AssertHeld();
  const SequenceNumber global = last_allocated_.load() + 1;
  bool global_used = false;
  std::vector<VersionEdit> edits(job->families.size());
  std::vector<ColumnFamilyData*> cfds;
  std::vector<VersionEdit*> edit_ptrs;
  for (size_t i = 0; i < job->families.size(); i++) {
    IngestJob::Family& family = job->families[i];
    ColumnFamilyData* cfd = family.cfd;
    const Version* current = cfd->current();
    for (IngestedFile& f : family.files) {
      bool overlaps = false;
      f.level = PickIngestLevel(current, f.smallest_user_key,
                                f.largest_user_key, &overlaps);
      if (overlaps && !family.options.allow_global_seqno) {
        return Status::InvalidArgument(
            "IngestExternalFile: " + f.external_path +
                " overlaps data in the DB",
            "and allow_global_seqno is false");
      }
      if (family.options.fail_if_not_bottommost_level &&
          f.level != current->num_levels() - 1) {
        return Status::TryAgain("IngestExternalFile: " + f.external_path +
                                " does not fit in the bottommost level");
      }
      // Older snapshots must not see the keys: at sequence number 0
      // every snapshot would.
      const bool numbered = overlaps || (family.options.snapshot_consistency &&
                                         !snapshots_.empty());
      SetIngestedBoundaries(numbered ? global : 0, &f);
      global_used = global_used || numbered;
      edits[i].AddFile(f.level, f.meta);
    }
    cfds.push_back(cfd);
    edit_ptrs.push_back(&edits[i]);
  }
  if (global_used) {
    // The MANIFEST must cover the number, as it would the entries of a
    // flushed table: the WALs may not hold it.
    versions_->SetLastSequence(std::max(versions_->LastSequence(), global));
  }
  ingestions_installing_++;
  job->install_tried = true;
  Status s = versions_->LogAndApply(cfds, edit_ptrs, &mutex_);
  ingestions_installing_--;
  bg_cv_.SignalAll();
  if (!s.ok()) {
    // As for a flush or compaction whose MANIFEST write failed: the
    // MANIFEST may or may not hold the edit (and the global number), so
    // nothing more is written until the DB is resumed or reopened.
    SetBackgroundError(s, BackgroundErrorReason::kManifestWrite);
  }
  if (s.ok() && global_used) {
    last_allocated_.store(global, std::memory_order_release);
    Publish(global);
  }
  if (s.ok()) {
    for (const IngestJob::Family& family : job->families) {
      for (const IngestedFile& f : family.files) {
        STRATA_LOG_INFO(info_log_,
                        "ingested %s into %s as table %llu at level %d, "
                        "global seqno %llu",
                        f.external_path.c_str(), family.cfd->name().c_str(),
                        static_cast<unsigned long long>(f.meta.number), f.level,
                        static_cast<unsigned long long>(f.meta.global_seqno));
      }
    }
  }
  MaybeScheduleCompaction();
  return s;
}

}  // namespace strata
