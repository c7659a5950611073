// ldb idump (inspect.h): the internal keys of one column family, read
// with the DB's own recovery pieces — VersionSet::Recover for the live
// tables, the table cache for their entries, InsertBatchIntoMemTable for
// the WALs not yet flushed, a merging iterator for the order — and
// nothing written.

#include <algorithm>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "db/column_family.h"
#include "db/db_impl.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "db/memtable_inserter.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "db/write_batch_internal.h"
#include "memtable/memtable.h"
#include "table/merging_iterator.h"
#include "tools/inspect/inspect.h"
#include "tools/inspect/log_file.h"
#include "tools/inspect/print.h"
#include "util/logging.h"

namespace strata {
namespace inspect {

namespace {

// Sends the updates of family id to mem and skips the others'.
class OneFamily final : public MemTableRouter {
 public:
  OneFamily(uint32_t id, MemTable* mem) : id_(id), mem_(mem) {}
  Status Route(uint32_t id, MemTable** mem) override {
    *mem = id == id_ ? mem_ : nullptr;
    return Status::OK();
  }

 private:
  const uint32_t id_;
  MemTable* const mem_;
};

// Replays into mem the updates of family id in the WALs of db_path
// numbered first and up, as recovery does; a torn tail is dropped, other
// damage is an error naming the WAL and the offset.
Status ReplayWals(Env* env, const std::string& db_path, uint64_t first,
                  uint32_t id, MemTable* mem) {
  std::vector<std::string> children;
  Status s = env->GetChildren(db_path, &children);
  if (!s.ok()) return s;
  std::vector<uint64_t> logs;
  for (const std::string& child : children) {
    uint64_t number = 0;
    FileType type;
    if (ParseFileName(child, &number, &type) && type == FileType::kWalFile &&
        number >= first) {
      logs.push_back(number);
    }
  }
  std::sort(logs.begin(), logs.end());
  OneFamily router(id, mem);
  WriteBatch batch;
  Slice record;
  for (uint64_t number : logs) {
    const std::string fname = LogFileName(db_path, number);
    std::unique_ptr<LogFile> log;
    s = LogFile::Open(env, fname,
                      WALRecoveryMode::kTolerateCorruptedTailRecords,
                      /*check_torn_tails=*/true, &log);
    if (!s.ok()) return s;
    while (log->Next(&record)) {
      s = BatchFromRecord(record, &batch);
      if (s.ok()) {
        s = InsertBatchIntoMemTable(&batch,
                                    WriteBatchInternal::Sequence(&batch),
                                    id == 0 ? mem : nullptr, &router,
                                    /*concurrent=*/false,
                                    /*ignore_duplicates=*/true);
      }
      if (!s.ok()) {
        return Status::Corruption(
            fname + " offset " + NumberToString(log->offset()), s.ToString());
      }
    }
    if (!log->status().ok()) return log->status();
  }
  return Status::OK();
}

// The iterators over every entry of cfd's current version, range
// tombstones included, appended to *children; an error opening a table
// names it.
Status AddTableIterators(const std::string& db_path, ColumnFamilyData* cfd,
                         std::vector<InternalIterator*>* children) {
  ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;
  Version* v = cfd->current();
  for (int level = 0; level < v->num_levels(); level++) {
    for (const FileMetaData* f : v->files(level)) {
      // The point iterator pins the table, so its tombstone iterator
      // stays valid as long as both live.
      children->push_back(cfd->table_cache()->NewIterator(
          ro, f->number, f->file_size, nullptr, f->global_seqno));
      Status s = children->back()->status();
      if (s.ok()) {
        s = cfd->table_cache()->WithTable(
            f->number, f->file_size,
            [&](TableReader* reader) {
              InternalIterator* t = reader->NewRangeTombstoneIterator(ro);
              if (t != nullptr) children->push_back(t);
            },
            f->global_seqno);
      }
      if (!s.ok()) {
        return Status::Corruption(TableFileName(db_path, f->number),
                                  s.ToString());
      }
    }
  }
  return Status::OK();
}

void PrintEntry(const ParsedInternalKey& key, const Slice& value,
                const PrintOptions& print, std::ostream* out) {
  *out << "'" << Bytes(key.user_key, print.key_hex) << "' seq:" << key.sequence
       << ", type:" << static_cast<int>(key.type) << " => "
       << Bytes(value, print.value_hex) << "\n";
}

}  // namespace

Status DumpInternalKeys(Env* env, const std::string& db_path,
                        const Options& options, const InternalDumpOptions& dump,
                        std::ostream* out) {
  std::vector<std::string> names;
  Status s = VersionSet::ListColumnFamilies(env, db_path, &names);
  if (!s.ok()) return s;
  if (std::find(names.begin(), names.end(), dump.column_family) ==
      names.end()) {
    return Status::InvalidArgument("Non-existing column family",
                                   dump.column_family);
  }
  Options opts = DBImpl::SanitizeOptions(options);
  opts.env = env;
  // Reading needs no level limit: a DB created with more levels than
  // options say is still read.
  opts.num_levels = config::kMaxNumLevels;
  std::map<std::string, Options> families;
  for (const std::string& name : names) {
    if (name != kDefaultColumnFamilyName) families[name] = opts;
  }
  VersionSetOptions vs_options;
  vs_options.env_options = EnvOptions(opts);
  VersionSet versions(db_path, env, vs_options, opts);
  bool save_manifest = false;
  s = versions.Recover(families, &save_manifest);
  if (!s.ok()) return s;
  ColumnFamilyData* cfd =
      versions.column_families()->FindByName(dump.column_family);
  if (cfd == nullptr) {
    return Status::InvalidArgument("Non-existing column family",
                                   dump.column_family);
  }

  MemTable* mem = new MemTable(cfd->icmp());
  mem->Ref();
  std::vector<InternalIterator*> children;
  s = ReplayWals(env, db_path, cfd->log_number(), cfd->id(), mem);
  if (s.ok()) {
    children.push_back(mem->NewIterator());
    InternalIterator* t = mem->NewRangeTombstoneIterator();
    if (t != nullptr) children.push_back(t);
    s = AddTableIterators(db_path, cfd, &children);
  }
  if (!s.ok()) {
    for (InternalIterator* it : children) delete it;
    mem->Unref();
    return s;
  }
  std::unique_ptr<InternalIterator> iter(
      NewMergingIterator(&cfd->icmp(), std::move(children)));
  if (dump.has_from) {
    iter->Seek(
        InternalKey(dump.from, kMaxSequenceNumber, kValueTypeForSeek).Encode());
  } else {
    iter->SeekToFirst();
  }
  const Comparator* ucmp = cfd->user_comparator();
  int64_t count = 0;
  for (; iter->Valid(); iter->Next()) {
    if (dump.max_keys >= 0 && count >= dump.max_keys) break;
    ParsedInternalKey key;
    s = ParseInternalKey(iter->key(), &key);
    if (!s.ok()) break;
    if (dump.has_to && ucmp->Compare(key.user_key, dump.to) >= 0) break;
    count++;
    if (!dump.count_only) PrintEntry(key, iter->value(), dump.print, out);
  }
  if (s.ok()) s = iter->status();
  iter.reset();
  mem->Unref();
  if (!s.ok()) return s;
  *out << "Internal keys in range: " << count << "\n";
  return Status::OK();
}

}  // namespace inspect
}  // namespace strata
