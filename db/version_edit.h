// VersionEdit: one change to the DB's set of table files, and the counters
// that go with it — the record type of the MANIFEST
// (docs/formats/manifest.md). Applying every edit of a MANIFEST in order,
// starting from an empty DB, gives the current version.
//
// An edit holds only the fields it sets; a field left unset leaves the
// value of the earlier edits in force. The encoding is a sequence of
// tagged fields, so a decoder skips what it does not set.
//
// DecodeFrom reads untrusted bytes (a MANIFEST record): every varint,
// length, level and key is checked, and a bad edit is a Corruption naming
// the field, never a crash or an allocation beyond the record's size.
//
// Thread safety: none; an edit belongs to one thread at a time.

#ifndef STRATA_DB_VERSION_EDIT_H_
#define STRATA_DB_VERSION_EDIT_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

namespace config {
// The most levels an edit may name; a VersionSet may use fewer.
constexpr int kMaxNumLevels = 64;
}  // namespace config

class VersionEdit {
 public:
  // (level, file number)
  using DeletedFileSet = std::set<std::pair<int, uint64_t>>;

  VersionEdit() = default;

  void Clear();

  // The column family the edit's files, log number and pointers belong
  // to (0, the default family, unless set).
  void SetColumnFamily(uint32_t id) { column_family_ = id; }
  // The edit creates family column_family() with this name (and the
  // comparator named by SetComparatorName).
  void AddColumnFamily(const std::string& name) {
    is_column_family_add_ = true;
    column_family_name_ = name;
  }
  // The edit drops family column_family().
  void DropColumnFamily() { is_column_family_drop_ = true; }
  // The largest family id ever handed out (ids are not reused).
  void SetMaxColumnFamily(uint32_t id) {
    has_max_column_family_ = true;
    max_column_family_ = id;
  }

  void SetComparatorName(const Slice& name) {
    has_comparator_ = true;
    comparator_ = name.ToString();
  }
  // WALs numbered below log_number are fully reflected in tables.
  void SetLogNumber(uint64_t num) {
    has_log_number_ = true;
    log_number_ = num;
  }
  // Two-phase commit: WALs numbered below num may be deleted, and
  // recovery reads from num, whatever the families' log numbers say
  // (the oldest WAL holding an unresolved prepared section); 0: no such
  // WAL. DB-wide, in the last edit of a record.
  void SetMinLogNumberToKeep(uint64_t num) {
    has_min_log_number_to_keep_ = true;
    min_log_number_to_keep_ = num;
  }
  void SetNextFile(uint64_t num) {
    has_next_file_number_ = true;
    next_file_number_ = num;
  }
  void SetLastSequence(SequenceNumber seq) {
    has_last_sequence_ = true;
    last_sequence_ = seq;
  }
  // Where the next compaction of level starts (round robin over its keys).
  void SetCompactPointer(int level, const InternalKey& key) {
    compact_pointers_.emplace_back(level, key);
  }

  // Adds table file f (its number, size, keys and sequence numbers) to
  // level. REQUIRES: f.smallest and f.largest are valid internal keys.
  void AddFile(int level, const FileMetaData& f);
  void AddFile(int level, uint64_t number, uint64_t file_size,
               const InternalKey& smallest, const InternalKey& largest,
               SequenceNumber smallest_seqno, SequenceNumber largest_seqno);
  // Removes table file number from level. (Not "DeleteFile": a Win32
  // macro of that name would rename it.)
  void RemoveFile(int level, uint64_t number) {
    deleted_files_.insert(std::make_pair(level, number));
  }

  uint32_t column_family() const { return column_family_; }
  bool is_column_family_add() const { return is_column_family_add_; }
  const std::string& column_family_name() const { return column_family_name_; }
  bool is_column_family_drop() const { return is_column_family_drop_; }
  bool has_max_column_family() const { return has_max_column_family_; }
  uint32_t max_column_family() const { return max_column_family_; }

  bool has_comparator() const { return has_comparator_; }
  const std::string& comparator() const { return comparator_; }
  bool has_log_number() const { return has_log_number_; }
  uint64_t log_number() const { return log_number_; }
  bool has_min_log_number_to_keep() const {
    return has_min_log_number_to_keep_;
  }
  uint64_t min_log_number_to_keep() const { return min_log_number_to_keep_; }
  bool has_next_file_number() const { return has_next_file_number_; }
  uint64_t next_file_number() const { return next_file_number_; }
  bool has_last_sequence() const { return has_last_sequence_; }
  SequenceNumber last_sequence() const { return last_sequence_; }
  const std::vector<std::pair<int, InternalKey>>& compact_pointers() const {
    return compact_pointers_;
  }
  const DeletedFileSet& deleted_files() const { return deleted_files_; }
  const std::vector<std::pair<int, FileMetaData>>& new_files() const {
    return new_files_;
  }

  // Appends the encoding to *dst.
  void EncodeTo(std::string* dst) const;
  // Replaces *this with the edit encoded in src; on error *this is
  // cleared and the Corruption names the bad field.
  Status DecodeFrom(const Slice& src);

  // A MANIFEST record holds one edit or an atomic group of them (edits of
  // several families applied together, or not at all). EncodeGroup
  // appends the record for edits (one edit encodes as EncodeTo does);
  // DecodeGroup replaces *edits with the edits of record.
  static void EncodeGroup(const std::vector<const VersionEdit*>& edits,
                          std::string* dst);
  static Status DecodeGroup(const Slice& record,
                            std::vector<VersionEdit>* edits);

  std::string DebugString() const;

 private:
  // Decodes fields up to the end of *input or the start of the next edit
  // of a group, which *input is left at; *next_edit says which (the next
  // edit may be empty: then *input is too).
  Status DecodeFields(Slice* input, bool* next_edit);

  uint32_t column_family_ = 0;
  uint32_t max_column_family_ = 0;
  bool is_column_family_add_ = false;
  bool is_column_family_drop_ = false;
  bool has_max_column_family_ = false;
  std::string column_family_name_;
  std::string comparator_;
  uint64_t log_number_ = 0;
  uint64_t next_file_number_ = 0;
  SequenceNumber last_sequence_ = 0;
  bool has_comparator_ = false;
  bool has_log_number_ = false;
  bool has_next_file_number_ = false;
  bool has_last_sequence_ = false;
  uint64_t min_log_number_to_keep_ = 0;
  bool has_min_log_number_to_keep_ = false;

  std::vector<std::pair<int, InternalKey>> compact_pointers_;
  DeletedFileSet deleted_files_;
  std::vector<std::pair<int, FileMetaData>> new_files_;
};

}  // namespace strata

#endif  // STRATA_DB_VERSION_EDIT_H_
