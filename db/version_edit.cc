#include "db/version_edit.h"

#include "util/coding.h"
#include "util/logging.h"

namespace strata {

// The encoding (docs/formats/manifest.md): a sequence of fields, each
//
//   +----------------+---------------------------------------+
//   | varint32 tag   | payload (depends on the tag)          |
//   +----------------+---------------------------------------+
//
//   kComparator      lp-string name
//   kLogNumber       varint64
//   kNextFileNumber  varint64
//   kLastSequence    varint64
//   kCompactPointer  varint32 level, lp-string internal key
//   kDeletedFile     varint32 level, varint64 number
//   kNewFile         varint32 level, varint64 number, varint64 size,
//                    lp-string smallest, lp-string largest,
//                    varint64 smallest_seqno, varint64 largest_seqno
//   kNewFileGlobalSeqno varint64 number, varint64 global seqno (right
//                    after the new-file field of that number)
//   kColumnFamily    varint32 family id (absent: the default family, 0)
//   kColumnFamilyAdd lp-string name
//   kColumnFamilyDrop (no payload)
//   kMaxColumnFamily varint32 id
//   kNextEdit        (no payload) the next edit of an atomic group starts
//   kMinLogToKeep    lp: varint64 number (ignorable)
//   tag & kTagIgnorableBit: lp-string payload, skipped if unknown
//
// (lp-string: varint32 length, then the bytes.) Tags are on disk: never
// renumber them.
namespace {

enum Tag : uint32_t {
  kComparator = 1,
  kLogNumber = 2,
  kNextFileNumber = 3,
  kLastSequence = 4,
  kCompactPointer = 5,
  kDeletedFile = 6,
  kNewFile = 7,
  // Not ignorable: an older strata would read an ingested file's entries
  // at sequence number 0, below the data they overwrite.
  kNewFileGlobalSeqno = 8,
  kColumnFamily = 200,
  kColumnFamilyAdd = 201,
  kColumnFamilyDrop = 202,
  kMaxColumnFamily = 203,
  kNextEdit = 300,
};

// A tag with this bit set is followed by a length-prefixed payload; a
// reader that does not know the tag skips it. Fields that an older
// strata may safely ignore are given such tags.
constexpr uint32_t kTagIgnorableBit = 0x2000;

// After a new file: its counts (lp: varint64 number, entries, deletions,
// range deletions). Ignorable: a reader without it opens the table for
// its properties and range tombstones instead.
constexpr uint32_t kNewFileCounts = kTagIgnorableBit | kNewFile;

// The oldest WAL to keep for two-phase commit's prepared sections.
// Ignorable: a strata without two-phase commit refuses the WAL records
// that make it needed.
constexpr uint32_t kMinLogToKeep = kTagIgnorableBit | 10;

bool GetLevel(Slice* input, int* level) {
  uint32_t v;
  if (!GetVarint32(input, &v) ||
      v >= static_cast<uint32_t>(config::kMaxNumLevels)) {
    return false;
  }
  *level = static_cast<int>(v);
  return true;
}

// An internal key with a known value type.
bool GetInternalKey(Slice* input, InternalKey* key) {
  Slice s;
  if (!GetLengthPrefixedSlice(input, &s)) return false;
  ParsedInternalKey parsed;
  if (!ParseInternalKey(s, &parsed).ok()) return false;
  key->DecodeFrom(s);
  return true;
}

bool GetSequence(Slice* input, SequenceNumber* seq) {
  return GetVarint64(input, seq) && *seq <= kMaxSequenceNumber;
}

Status BadField(const char* field) {
  return Status::Corruption("version edit", field);
}

}  // namespace

void VersionEdit::Clear() { *this = VersionEdit(); }

void VersionEdit::AddFile(int level, const FileMetaData& f) {
  FileMetaData copy = f;
  // The copy belongs to no version yet.
  copy.refs = 0;
  copy.being_compacted = false;
  new_files_.emplace_back(level, std::move(copy));
}

void VersionEdit::AddFile(int level, uint64_t number, uint64_t file_size,
                          const InternalKey& smallest,
                          const InternalKey& largest,
                          SequenceNumber smallest_seqno,
                          SequenceNumber largest_seqno) {
  FileMetaData f;
  f.number = number;
  f.file_size = file_size;
  f.smallest = smallest;
  f.largest = largest;
  f.smallest_seqno = smallest_seqno;
  f.largest_seqno = largest_seqno;
  new_files_.emplace_back(level, std::move(f));
}

void VersionEdit::EncodeTo(std::string* dst) const {
  // Family fields first: a reader knows the family before its files.
  if (column_family_ != 0) {
    PutVarint32(dst, kColumnFamily);
    PutVarint32(dst, column_family_);
  }
  if (is_column_family_add_) {
    PutVarint32(dst, kColumnFamilyAdd);
    PutLengthPrefixedSlice(dst, column_family_name_);
  }
  if (is_column_family_drop_) PutVarint32(dst, kColumnFamilyDrop);
  if (has_max_column_family_) {
    PutVarint32(dst, kMaxColumnFamily);
    PutVarint32(dst, max_column_family_);
  }
  if (has_comparator_) {
    PutVarint32(dst, kComparator);
    PutLengthPrefixedSlice(dst, comparator_);
  }
  if (has_log_number_) {
    PutVarint32(dst, kLogNumber);
    PutVarint64(dst, log_number_);
  }
  if (has_min_log_number_to_keep_) {
    PutVarint32(dst, kMinLogToKeep);
    std::string payload;
    PutVarint64(&payload, min_log_number_to_keep_);
    PutLengthPrefixedSlice(dst, payload);
  }
  if (has_next_file_number_) {
    PutVarint32(dst, kNextFileNumber);
    PutVarint64(dst, next_file_number_);
  }
  if (has_last_sequence_) {
    PutVarint32(dst, kLastSequence);
    PutVarint64(dst, last_sequence_);
  }
  for (const auto& cp : compact_pointers_) {
    PutVarint32(dst, kCompactPointer);
    PutVarint32(dst, static_cast<uint32_t>(cp.first));
    PutLengthPrefixedSlice(dst, cp.second.Encode());
  }
  for (const auto& d : deleted_files_) {
    PutVarint32(dst, kDeletedFile);
    PutVarint32(dst, static_cast<uint32_t>(d.first));
    PutVarint64(dst, d.second);
  }
  for (const auto& nf : new_files_) {
    const FileMetaData& f = nf.second;
    PutVarint32(dst, kNewFile);
    PutVarint32(dst, static_cast<uint32_t>(nf.first));
    PutVarint64(dst, f.number);
    PutVarint64(dst, f.file_size);
    PutLengthPrefixedSlice(dst, f.smallest.Encode());
    PutLengthPrefixedSlice(dst, f.largest.Encode());
    PutVarint64(dst, f.smallest_seqno);
    PutVarint64(dst, f.largest_seqno);
    if (f.counts_known) {
      std::string counts;
      PutVarint64(&counts, f.number);
      PutVarint64(&counts, f.num_entries);
      PutVarint64(&counts, f.num_deletions);
      PutVarint64(&counts, f.num_range_deletions);
      PutVarint32(dst, kNewFileCounts);
      PutLengthPrefixedSlice(dst, counts);
    }
    if (f.global_seqno != 0) {
      PutVarint32(dst, kNewFileGlobalSeqno);
      PutVarint64(dst, f.number);
      PutVarint64(dst, f.global_seqno);
    }
  }
}

Status VersionEdit::DecodeFrom(const Slice& src) {
  Clear();
  Slice input = src;
  bool next_edit = false;
  Status s = DecodeFields(&input, &next_edit);
  if (s.ok() && next_edit) {
    s = Status::Corruption("version edit", "a group where one edit belongs");
  }
  if (!s.ok()) Clear();
  return s;
}

void VersionEdit::EncodeGroup(const std::vector<const VersionEdit*>& edits,
                              std::string* dst) {
  for (size_t i = 0; i < edits.size(); i++) {
    if (i > 0) PutVarint32(dst, kNextEdit);
    edits[i]->EncodeTo(dst);
  }
}

Status VersionEdit::DecodeGroup(const Slice& record,
                                std::vector<VersionEdit>* edits) {
  edits->clear();
  Slice input = record;
  // A next-edit tag starts an edit even at the end of the record: that
  // is how EncodeGroup writes a group whose last edit sets no field.
  bool next_edit = false;
  do {
    edits->emplace_back();
    Status s = edits->back().DecodeFields(&input, &next_edit);
    if (!s.ok()) {
      edits->clear();
      return s;
    }
  } while (next_edit);
  return Status::OK();
}

Status VersionEdit::DecodeFields(Slice* in, bool* next_edit) {
  Slice& input = *in;
  *next_edit = false;
  while (!input.empty()) {
    uint32_t tag;
    if (!GetVarint32(&input, &tag)) return BadField("tag");
    switch (tag) {
      case kNextEdit:
        *next_edit = true;
        return Status::OK();
      case kColumnFamily:
        if (!GetVarint32(&input, &column_family_)) {
          return BadField("column family");
        }
        break;
      case kColumnFamilyAdd: {
        Slice name;
        if (!GetLengthPrefixedSlice(&input, &name)) {
          return BadField("column family name");
        }
        AddColumnFamily(name.ToString());
        break;
      }
      case kColumnFamilyDrop:
        DropColumnFamily();
        break;
      case kMaxColumnFamily: {
        uint32_t v;
        if (!GetVarint32(&input, &v)) return BadField("max column family");
        SetMaxColumnFamily(v);
        break;
      }
      case kComparator: {
        Slice name;
        if (!GetLengthPrefixedSlice(&input, &name)) {
          return BadField("comparator name");
        }
        SetComparatorName(name);
        break;
      }
      case kLogNumber: {
        uint64_t v;
        if (!GetVarint64(&input, &v)) return BadField("log number");
        SetLogNumber(v);
        break;
      }
      case kNextFileNumber: {
        uint64_t v;
        if (!GetVarint64(&input, &v)) return BadField("next file number");
        SetNextFile(v);
        break;
      }
      case kLastSequence: {
        SequenceNumber v;
        if (!GetSequence(&input, &v)) return BadField("last sequence");
        SetLastSequence(v);
        break;
      }
      case kCompactPointer: {
        int level;
        InternalKey key;
        if (!GetLevel(&input, &level) || !GetInternalKey(&input, &key)) {
          return BadField("compaction pointer");
        }
        SetCompactPointer(level, key);
        break;
      }
      case kDeletedFile: {
        int level;
        uint64_t number;
        if (!GetLevel(&input, &level) || !GetVarint64(&input, &number)) {
          return BadField("deleted file");
        }
        RemoveFile(level, number);
        break;
      }
      case kNewFile: {
        int level;
        FileMetaData f;
        if (!GetLevel(&input, &level) || !GetVarint64(&input, &f.number) ||
            !GetVarint64(&input, &f.file_size) ||
            !GetInternalKey(&input, &f.smallest) ||
            !GetInternalKey(&input, &f.largest) ||
            !GetSequence(&input, &f.smallest_seqno) ||
            !GetSequence(&input, &f.largest_seqno)) {
          return BadField("new file");
        }
        if (f.smallest_seqno > f.largest_seqno) {
          return BadField("new file: smallest sequence above largest");
        }
        new_files_.emplace_back(level, std::move(f));
        break;
      }
      case kNewFileGlobalSeqno: {
        uint64_t number;
        SequenceNumber seqno;
        if (!GetVarint64(&input, &number) || !GetSequence(&input, &seqno)) {
          return BadField("new file global seqno");
        }
        if (new_files_.empty() || new_files_.back().second.number != number) {
          return BadField("global seqno of a file the edit does not add");
        }
        new_files_.back().second.global_seqno = seqno;
        break;
      }
      case kMinLogToKeep: {
        Slice payload;
        uint64_t v;
        if (!GetLengthPrefixedSlice(&input, &payload) ||
            !GetVarint64(&payload, &v)) {
          return BadField("min log number to keep");
        }
        SetMinLogNumberToKeep(v);
        break;
      }
      case kNewFileCounts: {
        Slice counts;
        uint64_t number, entries, deletions, range_deletions;
        if (!GetLengthPrefixedSlice(&input, &counts) ||
            !GetVarint64(&counts, &number) || !GetVarint64(&counts, &entries) ||
            !GetVarint64(&counts, &deletions) ||
            !GetVarint64(&counts, &range_deletions)) {
          return BadField("new file counts");
        }
        // They follow their file's record; counts of a file this edit does
        // not add are ignored.
        if (!new_files_.empty() && new_files_.back().second.number == number) {
          FileMetaData& f = new_files_.back().second;
          f.num_entries = entries;
          f.num_deletions = deletions;
          f.num_range_deletions = range_deletions;
          f.counts_known = true;
        }
        break;
      }
      default: {
        if ((tag & kTagIgnorableBit) == 0) {
          return Status::Corruption("version edit",
                                    "unknown tag " + NumberToString(tag));
        }
        Slice skipped;
        if (!GetLengthPrefixedSlice(&input, &skipped)) {
          return Status::Corruption(
              "version edit",
              "ignorable tag " + NumberToString(tag) + ": payload cut short");
        }
        break;
      }
    }
  }
  return Status::OK();
}

std::string VersionEdit::DebugString() const {
  std::string r = "VersionEdit {";
  if (column_family_ != 0) {
    r += "\n  ColumnFamily: " + NumberToString(column_family_);
  }
  if (is_column_family_add_) r += "\n  ColumnFamilyAdd: " + column_family_name_;
  if (is_column_family_drop_) r += "\n  ColumnFamilyDrop";
  if (has_max_column_family_) {
    r += "\n  MaxColumnFamily: " + NumberToString(max_column_family_);
  }
  if (has_comparator_) r += "\n  Comparator: " + comparator_;
  if (has_log_number_) r += "\n  LogNumber: " + NumberToString(log_number_);
  if (has_min_log_number_to_keep_) {
    r += "\n  MinLogNumberToKeep: " + NumberToString(min_log_number_to_keep_);
  }
  if (has_next_file_number_) {
    r += "\n  NextFileNumber: " + NumberToString(next_file_number_);
  }
  if (has_last_sequence_) {
    r += "\n  LastSequence: " + NumberToString(last_sequence_);
  }
  for (const auto& cp : compact_pointers_) {
    r += "\n  CompactPointer: L" + NumberToString(cp.first) + " " +
         EscapeString(cp.second.Encode());
  }
  for (const auto& d : deleted_files_) {
    r += "\n  DeleteFile: L" + NumberToString(d.first) + " #" +
         NumberToString(d.second);
  }
  for (const auto& nf : new_files_) {
    const FileMetaData& f = nf.second;
    r += "\n  AddFile: L" + NumberToString(nf.first) + " #" +
         NumberToString(f.number) + " " + NumberToString(f.file_size) +
         " bytes [" + EscapeString(f.smallest.Encode()) + " .. " +
         EscapeString(f.largest.Encode()) + "] seq " +
         NumberToString(f.smallest_seqno) + ".." +
         NumberToString(f.largest_seqno);
    if (f.counts_known) {
      r += " entries " + NumberToString(f.num_entries) + " deletions " +
           NumberToString(f.num_deletions) + " range deletions " +
           NumberToString(f.num_range_deletions);
    }
  }
  r += "\n}\n";
  return r;
}

}  // namespace strata
