#include "db/external_file_ingest.h"

#include <algorithm>
#include <memory>

#include "db/compaction.h"
#include "db/filename.h"
#include "db/version.h"
#include "env/file_copy.h"
#include "env/file_reader.h"
#include "memtable/memtable.h"
#include "strata/env.h"
#include "strata/table.h"
#include "table/table_properties.h"
#include "table/table_reader.h"

namespace strata {

namespace {

Status Refuse(const std::string& path, const std::string& why) {
  return Status::InvalidArgument("external file " + path, why);
}

// Reads the point entries through, checking what SstFileWriter promises.
Status ScanPoints(const InternalKeyComparator& icmp, const std::string& path,
                  InternalIterator* iter, IngestedFile* file) {
  const Comparator* ucmp = icmp.user_comparator();
  std::string prev;
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    ParsedInternalKey parsed;
    Status s = ParseInternalKey(iter->key(), &parsed);
    if (!s.ok()) return Status::Corruption(path, s.ToString());
    if (parsed.sequence != 0) {
      return Refuse(path, "holds an entry with a sequence number");
    }
    if (parsed.type != kTypeValue && parsed.type != kTypeMerge &&
        parsed.type != kTypeDeletion && parsed.type != kTypeSingleDeletion) {
      return Refuse(path, "holds an entry of an unknown type");
    }
    if (!prev.empty() && ucmp->Compare(parsed.user_key, prev) <= 0) {
      return Refuse(path, "keys are not strictly increasing");
    }
    prev.assign(parsed.user_key.data(), parsed.user_key.size());
    file->meta.UpdateBoundaries(iter->key(), 0);
  }
  return iter->status();
}

Status ScanTombstones(const InternalKeyComparator& icmp,
                      const std::string& path, InternalIterator* iter,
                      IngestedFile* file, std::string* smallest,
                      std::string* largest) {
  const Comparator* ucmp = icmp.user_comparator();
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    ParsedInternalKey parsed;
    Status s = ParseInternalKey(iter->key(), &parsed);
    if (!s.ok()) return Status::Corruption(path, s.ToString());
    if (parsed.sequence != 0 || parsed.type != kTypeRangeDeletion) {
      return Refuse(path, "holds a malformed range deletion");
    }
    const Slice end = iter->value();
    if (ucmp->Compare(parsed.user_key, end) >= 0) {
      return Refuse(path, "holds an empty or reversed range deletion");
    }
    file->meta.UpdateTombstoneBoundaries(icmp, iter->key(), 0, end);
    if (smallest->empty() || ucmp->Compare(parsed.user_key, *smallest) < 0) {
      smallest->assign(parsed.user_key.data(), parsed.user_key.size());
    }
    if (largest->empty() || ucmp->Compare(end, *largest) > 0) {
      largest->assign(end.data(), end.size());
    }
  }
  return iter->status();
}

}  // namespace

Status ReadExternalFile(const Options& options,
                        const InternalKeyComparator& icmp,
                        const std::string& external_path, IngestedFile* file) {
  Env* env = options.env != nullptr ? options.env : Env::Default();
  file->external_path = external_path;
  uint64_t size = 0;
  Status s = env->GetFileSize(external_path, &size);
  // A missing file is an I/O error here, as in RocksDB: NotFound would
  // read as a missing key.
  if (s.IsNotFound()) return Status::IOError(external_path, s.ToString());
  if (!s.ok()) return s;
  std::unique_ptr<RandomAccessFile> raw;
  s = env->NewRandomAccessFile(external_path, &raw, EnvOptions(options));
  if (!s.ok()) return s;
  TableReaderOptions ro;
  ro.icmp = &icmp;
  ro.prefix_extractor = options.prefix_extractor.get();
  std::unique_ptr<TableReader> table;
  s = options.table_factory->NewTableReader(
      ro,
      std::make_unique<RandomAccessFileReader>(std::move(raw), external_path),
      size, &table);
  if (!s.ok()) return s;
  std::shared_ptr<const TableProperties> props = table->GetTableProperties();
  if (props == nullptr || props->external_sst_file_version == 0) {
    return Refuse(external_path, "was not written by SstFileWriter");
  }
  if (props->external_sst_file_version != kExternalSstFileVersion) {
    return Refuse(external_path,
                  "has external file version " +
                      std::to_string(props->external_sst_file_version));
  }
  if (props->comparator_name != icmp.user_comparator()->Name()) {
    return Refuse(external_path, "was written with comparator " +
                                     props->comparator_name + ", not " +
                                     icmp.user_comparator()->Name());
  }
  ReadOptions read;
  read.verify_checksums = true;
  read.fill_cache = false;
  std::unique_ptr<InternalIterator> points(table->NewIterator(read));
  s = ScanPoints(icmp, external_path, points.get(), file);
  if (!s.ok()) return s;
  std::string smallest, largest;
  if (file->meta.smallest.Valid()) {
    smallest = file->meta.smallest.user_key().ToString();
    largest = file->meta.largest.user_key().ToString();
  }
  std::unique_ptr<InternalIterator> tombstones(
      table->NewRangeTombstoneIterator(read));
  if (tombstones != nullptr) {
    s = ScanTombstones(icmp, external_path, tombstones.get(), file, &smallest,
                       &largest);
    if (!s.ok()) return s;
  }
  if (!file->meta.smallest.Valid()) {
    return Refuse(external_path, "holds no entry");
  }
  file->smallest_user_key = std::move(smallest);
  file->largest_user_key = std::move(largest);
  file->meta.file_size = size;
  file->meta.num_entries = props->num_entries;
  file->meta.num_deletions = props->num_deletions;
  file->meta.num_range_deletions = props->num_range_deletions;
  file->meta.counts_known = true;
  return Status::OK();
}

Status CheckFilesApart(const Comparator* ucmp,
                       std::vector<IngestedFile>* files) {
  std::sort(files->begin(), files->end(),
            [ucmp](const IngestedFile& a, const IngestedFile& b) {
              return ucmp->Compare(a.smallest_user_key, b.smallest_user_key) <
                     0;
            });
  for (size_t i = 1; i < files->size(); i++) {
    const IngestedFile& a = (*files)[i - 1];
    const IngestedFile& b = (*files)[i];
    if (ucmp->Compare(a.largest_user_key, b.smallest_user_key) >= 0) {
      return Status::InvalidArgument("external files " + a.external_path +
                                     " and " + b.external_path +
                                     " overlap: the files of one call must "
                                     "not");
    }
  }
  return Status::OK();
}

bool MemTableOverlaps(MemTable* mem, const InternalKeyComparator& icmp,
                      const Slice& smallest, const Slice& largest) {
  if (mem->num_entries() == 0) return false;
  const Comparator* ucmp = icmp.user_comparator();
  std::unique_ptr<InternalIterator> points(mem->NewIterator());
  const InternalKey first(smallest, kMaxSequenceNumber, kValueTypeForSeek);
  points->Seek(first.Encode());
  if (points->Valid() &&
      ucmp->Compare(ExtractUserKey(points->key()), largest) <= 0) {
    return true;
  }
  std::unique_ptr<InternalIterator> ranges(mem->NewRangeTombstoneIterator());
  if (ranges == nullptr) return false;
  for (ranges->SeekToFirst(); ranges->Valid(); ranges->Next()) {
    if (ucmp->Compare(ExtractUserKey(ranges->key()), largest) <= 0 &&
        ucmp->Compare(ranges->value(), smallest) > 0) {
      return true;
    }
  }
  return false;
}

Status BringIntoDB(Env* env, const std::string& dbname,
                   const IngestExternalFileOptions& options, uint64_t number,
                   IngestedFile* file) {
  file->meta.number = number;
  file->internal_path = TableFileName(dbname, number);
  if (options.move_files) {
    Status s = env->LinkFile(file->external_path, file->internal_path);
    if (s.ok()) {
      file->linked = true;
      return s;
    }
    if (!options.failed_move_fall_back_to_copy) return s;
  }
  return CopyFile(env, file->external_path, file->internal_path,
                  file->meta.file_size, /*sync=*/true);
}

int PickIngestLevel(const Version* version, const Slice& smallest,
                    const Slice& largest, bool* overlaps) {
  const LevelFilesView view = LevelFilesViewOf(*version);
  *overlaps = false;
  int target = 0;
  for (int level = 0; level < version->num_levels(); level++) {
    if (version->OverlapInLevel(level, &smallest, &largest)) {
      *overlaps = true;
      break;
    }
    if (level == 0 ||
        !RunningCompactionMayWrite(view, level, smallest, largest)) {
      target = level;
    }
  }
  return target;
}

void SetIngestedBoundaries(SequenceNumber global_seqno, IngestedFile* file) {
  FileMetaData& m = file->meta;
  auto renumber = [global_seqno](InternalKey* key) {
    ParsedInternalKey parsed;
    if (!ParseInternalKey(key->Encode(), &parsed).ok()) return;
    // A tombstone's end bound stays at the top sequence number.
    if (parsed.sequence == kMaxSequenceNumber) return;
    *key = InternalKey(parsed.user_key.ToString(), global_seqno, parsed.type);
  };
  renumber(&m.smallest);
  renumber(&m.largest);
  m.smallest_seqno = global_seqno;
  m.largest_seqno = global_seqno;
  m.global_seqno = global_seqno;
}

}  // namespace strata
