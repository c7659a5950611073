// A program written against RocksDB's C++ API that operates a DB: it
// writes across three column families, takes checkpoints (after a flush
// and from the WALs), opens them and reads them back, lists what a live
// copy of the DB needs (GetLiveFilesStorageInfo), backs the DB up (from
// the WALs and flushed), lists, verifies, restores and purges the
// backups, and opens the DB read only (a subset of its families, beside a
// writer, refusing writes); then it writes tables with SstFileWriter and
// ingests them (IngestExternalFile: into an empty DB, over the memtable,
// over data under a snapshot, refusals).
//
// Built and compared as rocksdb_column_families.cc is (README.md): every
// line printed is a fact both engines must agree on — keys, values,
// counts, status codes — never a file name, a size or a message.

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/utilities/backup_engine.h"
#include "rocksdb/utilities/checkpoint.h"
#include "rocksdb/write_batch.h"

namespace {

const char* Code(const rocksdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsCorruption()) return "Corruption";
  if (s.IsNotSupported()) return "NotSupported";
  if (s.IsIOError()) return "IOError";
  return "other error";
}

void Show(const char* what, const rocksdb::Status& s) {
  std::printf("%s: %s\n", what, Code(s));
}

std::vector<rocksdb::ColumnFamilyDescriptor> Families(
    const rocksdb::Options& options) {
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const char* name : {"default", "lock", "write"}) {
    families.emplace_back(name, rocksdb::ColumnFamilyOptions(options));
  }
  return families;
}

void Scan(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family) {
  rocksdb::Iterator* it = db->NewIterator(rocksdb::ReadOptions(), family);
  std::string entries;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    entries += " " + it->key().ToString() + "=" + it->value().ToString();
  }
  std::printf("  %s:%s [%s]\n", family->GetName().c_str(), entries.c_str(),
              Code(it->status()));
  delete it;
}

void CloseDb(rocksdb::DB* db,
             std::vector<rocksdb::ColumnFamilyHandle*>* handles) {
  for (rocksdb::ColumnFamilyHandle* h : *handles) {
    db->DestroyColumnFamilyHandle(h);
  }
  handles->clear();
  delete db;
}

// Opens the copy in dir with its families and prints what it holds.
void ShowCopy(const std::string& dir, const rocksdb::Options& options) {
  std::vector<std::string> names;
  rocksdb::Status s =
      rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(options), dir, &names);
  std::printf("families of the copy: %s", Code(s));
  for (const std::string& name : names) std::printf(" %s", name.c_str());
  std::printf("\n");
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  s = rocksdb::DB::Open(rocksdb::DBOptions(options), dir, Families(options),
                        &handles, &db);
  Show("open the copy", s);
  if (!s.ok()) return;
  for (rocksdb::ColumnFamilyHandle* h : handles) Scan(db, h);
  // The copy is a DB of its own: a write there stays there.
  Show("put in the copy", db->Put(rocksdb::WriteOptions(), "copy-only", "x"));
  CloseDb(db, &handles);
}

// What GetLiveFilesStorageInfo lists, as facts both engines share.
void ShowStorageInfo(rocksdb::DB* db) {
  std::vector<rocksdb::LiveFileStorageInfo> files;
  rocksdb::Status s = db->GetLiveFilesStorageInfo(
      rocksdb::LiveFilesStorageInfoOptions(), &files);
  Show("GetLiveFilesStorageInfo", s);
  std::vector<rocksdb::LiveFileMetaData> tables;
  db->GetLiveFilesMetaData(&tables);
  size_t table_files = 0, manifests = 0, currents = 0, options_files = 0;
  bool manifest_trimmed = false, tables_whole = true, current_named = false;
  for (const rocksdb::LiveFileStorageInfo& f : files) {
    switch (f.file_type) {
      case rocksdb::kTableFile:
        table_files++;
        tables_whole = tables_whole && !f.trim_to_size;
        break;
      case rocksdb::kDescriptorFile:
        manifests++;
        manifest_trimmed = f.trim_to_size;
        break;
      case rocksdb::kCurrentFile:
        currents++;
        current_named = f.replacement_contents ==
                            "MANIFEST-" + f.replacement_contents.substr(9) &&
                        f.size == f.replacement_contents.size();
        break;
      case rocksdb::kOptionsFile:
        options_files++;
        break;
      default:
        break;
    }
  }
  std::printf("  tables listed: %s, whole: %s\n",
              table_files == tables.size() ? "every live one" : "wrong",
              tables_whole ? "yes" : "no");
  std::printf("  MANIFEST: %zu, up to a size: %s\n", manifests,
              manifest_trimmed ? "yes" : "no");
  std::printf("  CURRENT: %zu, naming the MANIFEST: %s\n", currents,
              current_named ? "yes" : "no");
  std::printf("  OPTIONS: %zu\n", options_files);
}

// Restores backup id (0: the newest) into dir and prints what it holds;
// the DB's latest sequence number there is compared with sequence.
void ShowRestored(const rocksdb::BackupEngineReadOnlyBase& engine,
                  rocksdb::BackupID id, const std::string& dir,
                  rocksdb::SequenceNumber sequence,
                  const rocksdb::Options& options) {
  rocksdb::DestroyDB(dir, options);
  Show("  restore", id == 0 ? engine.RestoreDBFromLatestBackup(dir, dir)
                            : engine.RestoreDBFromBackup(
                                  rocksdb::RestoreOptions(), id, dir, dir));
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(rocksdb::DBOptions(options), dir,
                                        Families(options), &handles, &db);
  Show("  open the restored DB", s);
  if (!s.ok()) return;
  for (rocksdb::ColumnFamilyHandle* h : handles) Scan(db, h);
  std::printf("  its sequence is the backed-up one: %s\n",
              db->GetLatestSequenceNumber() == sequence ? "yes" : "no");
  CloseDb(db, &handles);
  rocksdb::DestroyDB(dir, options);
}

// Backs the DB up twice (from the WALs, then flushed, with metadata),
// lists, verifies and restores the backups, and purges the older.
void ShowBackups(rocksdb::DB* db,
                 const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                 const std::string& dir, const rocksdb::Options& options) {
  const std::string backup_dir = dir + "_backups";
  rocksdb::BackupEngineOptions engine_options(backup_dir);
  engine_options.destroy_old_data = true;  // an earlier run's
  rocksdb::BackupEngine* engine = nullptr;
  Show("BackupEngine::Open",
       rocksdb::BackupEngine::Open(engine_options, rocksdb::Env::Default(),
                                   &engine));
  if (engine == nullptr) return;
  rocksdb::BackupID first = 0, second = 0;
  Show("backup from the WALs",
       engine->CreateNewBackup(rocksdb::CreateBackupOptions(), db, &first));
  const rocksdb::SequenceNumber first_sequence = db->GetLatestSequenceNumber();
  Show("put d in write (after)",
       db->Put(rocksdb::WriteOptions(), handles[2], "d", "4"));
  rocksdb::CreateBackupOptions flush;
  flush.flush_before_backup = true;
  Show("flushed backup with metadata",
       engine->CreateNewBackupWithMetadata(flush, db, "second", &second));
  const rocksdb::SequenceNumber second_sequence = db->GetLatestSequenceNumber();
  std::printf("  ids: %u, %u\n", first, second);

  std::vector<rocksdb::BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  std::printf("GetBackupInfo: %zu backups\n", infos.size());
  for (const rocksdb::BackupInfo& info : infos) {
    std::printf("  id %u: metadata \"%s\", files: %s, size: %s\n",
                info.backup_id, info.app_metadata.c_str(),
                info.number_files > 0 ? "some" : "none",
                info.size > 0 ? "some" : "none");
  }
  std::printf("  second not older than the first: %s\n",
              infos.size() == 2 && infos[1].timestamp >= infos[0].timestamp
                  ? "yes"
                  : "no");
  rocksdb::BackupInfo info;
  Show("GetBackupInfo of no backup", engine->GetBackupInfo(99, &info));
  Show("GetLatestBackupInfo", engine->GetLatestBackupInfo(&info));
  std::printf("  latest: %u\n", info.backup_id);
  Show("verify the first", engine->VerifyBackup(first));
  Show("verify the second with checksums", engine->VerifyBackup(second, true));
  Show("verify no backup", engine->VerifyBackup(99));
  std::printf("the newest backup, restored:\n");
  ShowRestored(*engine, 0, dir + "_restored", second_sequence, options);
  std::printf("the first backup, restored:\n");
  ShowRestored(*engine, first, dir + "_restored", first_sequence, options);

  Show("PurgeOldBackups(1)", engine->PurgeOldBackups(1));
  engine->GetBackupInfo(&infos);
  std::printf("  left: %zu, the second: %s\n", infos.size(),
              infos.size() == 1 && infos[0].backup_id == second ? "yes" : "no");
  Show("restore the purged one",
       engine->RestoreDBFromBackup(rocksdb::RestoreOptions(), first,
                                   dir + "_restored", dir + "_restored"));
  Show("delete the purged one", engine->DeleteBackup(first));
  delete engine;

  rocksdb::BackupEngineReadOnly* reader = nullptr;
  Show("BackupEngineReadOnly::Open",
       rocksdb::BackupEngineReadOnly::Open(
           rocksdb::BackupEngineOptions(backup_dir), rocksdb::Env::Default(),
           &reader));
  if (reader == nullptr) return;
  reader->GetBackupInfo(&infos);
  std::vector<rocksdb::BackupID> corrupt;
  reader->GetCorruptedBackups(&corrupt);
  std::printf("  backups: %zu, corrupt: %zu\n", infos.size(), corrupt.size());
  delete reader;
  // Empties the backup directory.
  engine = nullptr;
  rocksdb::BackupEngine::Open(engine_options, rocksdb::Env::Default(), &engine);
  delete engine;
}

// Opens path read-only with the default family and "write", reads, and
// tries what a read-only DB refuses.
void ShowReadOnly(const std::string& path, const rocksdb::Options& options) {
  std::vector<rocksdb::ColumnFamilyDescriptor> families = Families(options);
  families.erase(families.begin() + 1);  // not "lock"
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(
      rocksdb::DBOptions(options), path, families, &handles, &db);
  Show("open read-only (default, write)", s);
  if (!s.ok()) return;
  for (rocksdb::ColumnFamilyHandle* h : handles) Scan(db, h);
  Show("  put", db->Put(rocksdb::WriteOptions(), handles[1], "x", "y"));
  Show("  delete", db->Delete(rocksdb::WriteOptions(), "a"));
  rocksdb::WriteBatch batch;
  batch.Put("x", "y");
  Show("  write", db->Write(rocksdb::WriteOptions(), &batch));
  Show("  flush", db->Flush(rocksdb::FlushOptions(), handles[1]));
  Show("  compact",
       db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr));
  // (Creating and dropping a family are left out: RocksDB 7.8's read-only
  // DB does both, writing its MANIFEST; strata's refuses them.)
  Show("  disable file deletions", db->DisableFileDeletions());
  CloseDb(db, &handles);
  db = nullptr;
  Show("open read-only (default only, no WAL wanted)",
       rocksdb::DB::OpenForReadOnly(options, path, &db, true));
  delete db;
  db = nullptr;
  Show("open read-only (default only)",
       rocksdb::DB::OpenForReadOnly(options, path, &db));
  if (db != nullptr) Scan(db, db->DefaultColumnFamily());
  delete db;
  db = nullptr;
  Show("open read-only (a missing DB)",
       rocksdb::DB::OpenForReadOnly(options, path + "_missing", &db));
  delete db;
}

// Writes file path with keys [first, last] of one letter each -> value.
rocksdb::Status WriteSst(const rocksdb::Options& options,
                         const std::string& path, char first, char last,
                         const char* value) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status s = writer.Open(path);
  for (char c = first; s.ok() && c <= last; c++) {
    s = writer.Put(std::string(1, c), value);
  }
  return s.ok() ? writer.Finish() : s;
}

void ShowLevels(rocksdb::DB* db) {
  std::string levels;
  for (int level = 0; level < 7; level++) {
    std::string n;
    db->GetProperty("rocksdb.num-files-at-level" + std::to_string(level), &n);
    levels += " " + n;
  }
  std::printf("  files per level:%s; sequence %" PRIu64 "\n", levels.c_str(),
              db->GetLatestSequenceNumber());
}

std::string Value(rocksdb::DB* db, const std::string& key,
                  const rocksdb::Snapshot* snapshot = nullptr) {
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot;
  std::string value;
  rocksdb::Status s = db->Get(ro, key, &value);
  return s.ok() ? value : Code(s);
}

void ShowIngest(const std::string& path, const rocksdb::Options& options) {
  const std::string a = path + "_a.sst", b = path + "_b.sst",
                    c = path + "_c.sst", d = path + "_d.sst";
  {
    rocksdb::SstFileWriter empty(rocksdb::EnvOptions(), options);
    Show("sst put before open", empty.Put("a", "1"));
    Show("sst open", empty.Open(a));
    Show("sst finish with no entries", empty.Finish());
  }
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  Show("sst open again", writer.Open(a));
  Show("sst put b", writer.Put("b", "1"));
  Show("sst put b again", writer.Put("b", "2"));
  Show("sst put a after b", writer.Put("a", "3"));
  Show("sst delete range d-f", writer.DeleteRange("d", "f"));
  Show("sst put c", writer.Put("c", "4"));
  rocksdb::ExternalSstFileInfo info;
  Show("sst finish", writer.Finish(&info));
  std::printf("  info: %s..%s, %" PRIu64 " entries, %" PRIu64
              " range deletions, sequence %" PRIu64 ", version %d\n",
              info.smallest_key.c_str(), info.largest_key.c_str(),
              info.num_entries, info.num_range_del_entries,
              info.sequence_number, info.version);
  Show("sst put after finish", writer.Put("z", "5"));
  Show("sst file b..d", WriteSst(options, b, 'b', 'd', "B"));
  Show("sst file c..e", WriteSst(options, c, 'c', 'e', "C"));
  Show("sst file x..z", WriteSst(options, d, 'x', 'z', "X"));

  rocksdb::DB* db = nullptr;
  Show("open for ingestion", rocksdb::DB::Open(options, path + "_ingest", &db));
  if (db == nullptr) return;
  rocksdb::IngestExternalFileOptions ingest;
  Show("ingest x..z into an empty DB", db->IngestExternalFile({d}, ingest));
  ShowLevels(db);
  Show("put c", db->Put(rocksdb::WriteOptions(), "c", "put"));
  rocksdb::IngestExternalFileOptions no_flush = ingest;
  no_flush.allow_blocking_flush = false;
  Show("ingest b..d over the memtable, no blocking flush",
       db->IngestExternalFile({b}, no_flush));
  // (Two overlapping files in one call are left out: RocksDB 7.8 puts
  // them at level 0 one above the other; strata refuses them.)
  ShowLevels(db);
  const rocksdb::Snapshot* before = db->GetSnapshot();
  Show("ingest b..d over the memtable", db->IngestExternalFile({b}, ingest));
  ShowLevels(db);
  std::printf("  c: %s, at the snapshot before: %s\n", Value(db, "c").c_str(),
              Value(db, "c", before).c_str());
  rocksdb::IngestExternalFileOptions no_seqno = ingest;
  no_seqno.allow_global_seqno = false;
  Show("ingest c..e over data, no global seqno",
       db->IngestExternalFile({c}, no_seqno));
  Show("ingest c..e over data", db->IngestExternalFile({c}, ingest));
  ShowLevels(db);
  std::printf("  c: %s, d: %s, e: %s; at the snapshot before: %s %s %s\n",
              Value(db, "c").c_str(), Value(db, "d").c_str(),
              Value(db, "e").c_str(), Value(db, "c", before).c_str(),
              Value(db, "d", before).c_str(), Value(db, "e", before).c_str());
  db->ReleaseSnapshot(before);
  Show("ingest a missing file",
       db->IngestExternalFile({path + "_missing.sst"}, ingest));
  delete db;
  db = nullptr;
  Show("reopen", rocksdb::DB::Open(options, path + "_ingest", &db));
  if (db != nullptr) {
    Scan(db, db->DefaultColumnFamily());
    ShowLevels(db);
  }
  delete db;
  rocksdb::DestroyDB(path + "_ingest", options);
  for (const std::string& f : {a, b, c, d}) std::remove(f.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "api_compat_ops_db";
  const std::string flushed_copy = path + "_checkpoint";
  const std::string wal_copy = path + "_checkpoint_wal";
  rocksdb::Options options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  for (const std::string& dir : {path, flushed_copy, wal_copy}) {
    rocksdb::DestroyDB(dir, options);
  }

  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(rocksdb::DBOptions(options), path,
                                        Families(options), &handles, &db);
  Show("open", s);
  if (!s.ok()) return 1;

  rocksdb::WriteBatch batch;
  for (rocksdb::ColumnFamilyHandle* h : handles) batch.Put(h, "a", "1");
  Show("batch a", db->Write(rocksdb::WriteOptions(), &batch));
  Show("flush write", db->Flush(rocksdb::FlushOptions(), handles[2]));
  batch.Clear();
  for (rocksdb::ColumnFamilyHandle* h : handles) batch.Put(h, "b", "2");
  Show("batch b", db->Write(rocksdb::WriteOptions(), &batch));
  Show("delete a in lock",
       db->Delete(rocksdb::WriteOptions(), handles[1], "a"));

  rocksdb::Checkpoint* checkpoint = nullptr;
  Show("Checkpoint::Create", rocksdb::Checkpoint::Create(db, &checkpoint));
  uint64_t sequence = 0;
  Show("checkpoint after a flush",
       checkpoint->CreateCheckpoint(flushed_copy, 0, &sequence));
  std::printf("  sequence: %" PRIu64 " of %" PRIu64 "\n", sequence,
              db->GetLatestSequenceNumber());
  Show("put c (after)", db->Put(rocksdb::WriteOptions(), "c", "3"));
  Show("checkpoint into an existing directory",
       checkpoint->CreateCheckpoint(flushed_copy));
  Show("checkpoint into no directory", checkpoint->CreateCheckpoint(""));
  Show("checkpoint from the WALs",
       checkpoint->CreateCheckpoint(wal_copy, UINT64_MAX));
  delete checkpoint;

  ShowStorageInfo(db);
  ShowBackups(db, handles, path, options);
  CloseDb(db, &handles);
  ShowReadOnly(path, options);

  std::printf("the flushed checkpoint:\n");
  ShowCopy(flushed_copy, options);
  std::printf("the checkpoint from the WALs:\n");
  ShowCopy(wal_copy, options);

  std::printf("bulk loading:\n");
  rocksdb::Options load_options;
  load_options.create_if_missing = true;
  load_options.disable_auto_compactions = true;  // levels as ingested
  ShowIngest(path, load_options);

  for (const std::string& dir : {path, flushed_copy, wal_copy}) {
    rocksdb::DestroyDB(dir, options);
  }
  return 0;
}
