// ldb manifest_dump (inspect.h): the MANIFEST's edits and the state they
// build, printed as RocksDB prints them.

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "db/filename.h"
#include "db/version_edit.h"
#include "tools/inspect/inspect.h"
#include "tools/inspect/log_file.h"
#include "tools/inspect/manifest_state.h"
#include "tools/inspect/print.h"
#include "util/logging.h"

namespace strata {
namespace inspect {

namespace {

// Reads CURRENT of db_path: *path is the MANIFEST it names. The checks
// are recovery's (docs/formats/manifest.md).
Status CurrentManifest(Env* env, const std::string& db_path,
                       std::string* path) {
  const std::string current = CurrentFileName(db_path);
  // One file name; anything much longer is damage, not read into memory.
  uint64_t size = 0;
  Status s = env->GetFileSize(current, &size);
  if (!s.ok()) return s;
  if (size > 4096) {
    return Status::Corruption(current, "is " + NumberToString(size) +
                                           " bytes, too long for a file name");
  }
  std::string contents;
  s = ReadFileToString(env, current, &contents);
  if (!s.ok()) return s;
  uint64_t number = 0;
  FileType type;
  if (contents.size() < 2 || contents.back() != '\n' ||
      !ParseFileName(contents.substr(0, contents.size() - 1), &number, &type) ||
      type != FileType::kDescriptorFile) {
    return Status::Corruption(current, "does not name a MANIFEST: \"" +
                                           EscapeString(contents) + "\"");
  }
  *path = DescriptorFileName(db_path, number);
  return Status::OK();
}

// One edit as RocksDB's VersionEdit::DebugString prints it, of the fields
// strata has. remaining: the edits of its atomic group after it (printed
// only in a group of several).
std::string EditString(const VersionEdit& e, bool hex, bool in_group,
                       size_t remaining) {
  std::string r = "VersionEdit {";
  if (e.has_comparator()) r += "\n  Comparator: " + e.comparator();
  if (e.has_log_number())
    r += "\n  LogNumber: " + NumberToString(e.log_number());
  if (e.has_next_file_number()) {
    r += "\n  NextFileNumber: " + NumberToString(e.next_file_number());
  }
  if (e.has_max_column_family()) {
    r += "\n  MaxColumnFamily: " + NumberToString(e.max_column_family());
  }
  if (e.has_last_sequence()) {
    r += "\n  LastSeq: " + NumberToString(e.last_sequence());
  }
  for (const auto& cp : e.compact_pointers()) {
    r += "\n  CompactCursor: " + NumberToString(cp.first) + " " +
         InternalKeyString(cp.second.Encode(), hex);
  }
  for (const auto& d : e.deleted_files()) {
    r += "\n  DeleteFile: " + NumberToString(d.first) + " " +
         NumberToString(d.second);
  }
  for (const auto& nf : e.new_files()) {
    const FileMetaData& f = nf.second;
    r += "\n  AddFile: " + NumberToString(nf.first) + " " +
         NumberToString(f.number) + " " + NumberToString(f.file_size) + " " +
         InternalKeyString(f.smallest.Encode(), hex) + " .. " +
         InternalKeyString(f.largest.Encode(), hex);
  }
  r += "\n  ColumnFamily: " + NumberToString(e.column_family());
  if (e.is_column_family_add()) {
    r += "\n  ColumnFamilyAdd: " + e.column_family_name();
  }
  if (e.is_column_family_drop()) r += "\n  ColumnFamilyDrop";
  if (in_group) {
    r += "\n  AtomicGroup: " + NumberToString(remaining) + " entries remains";
  }
  r += "\n}\n";
  return r;
}

void PrintFamilies(const ManifestState& state, bool hex, std::ostream* out) {
  for (const auto& entry : state.families()) {
    const ManifestState::Family& f = *entry.second;
    *out << "--------------- Column family \"" << f.name << "\"  (ID "
         << entry.first << ") --------------\n"
         << "log number: " << f.log_number << "\n"
         << "comparator: " << f.comparator << "\n";
    for (int level = 0; level < f.version->num_levels(); level++) {
      *out << "--- level " << level << " --- version# " << f.version_number
           << " ---\n";
      for (const FileMetaData* file : f.version->files(level)) {
        *out << " " << file->number << ":" << file->file_size << "["
             << file->smallest_seqno << " .. " << file->largest_seqno << "]["
             << InternalKeyString(file->smallest.Encode(), hex) << " .. "
             << InternalKeyString(file->largest.Encode(), hex) << "]\n";
      }
    }
  }
  *out << "next_file_number " << state.next_file_number() << " last_sequence "
       << state.last_sequence() << "  prev_log_number 0 max_column_family "
       << state.max_column_family() << " min_log_number_to_keep "
       << state.min_log_number() << "\n";
}

}  // namespace

Status DumpManifest(Env* env, const std::string& db_path,
                    const std::string& manifest_path, bool verbose, bool hex,
                    std::ostream* out, const Comparator* user_comparator) {
  std::string path = manifest_path;
  if (path.empty()) {
    Status s = CurrentManifest(env, db_path, &path);
    if (!s.ok()) return s;
  }
  // A torn tail is reported too: recovery may drop it, but a dump says
  // the file ends in the middle of a record.
  std::unique_ptr<LogFile> log;
  Status s = LogFile::Open(env, path, WALRecoveryMode::kAbsoluteConsistency,
                           /*check_torn_tails=*/true, &log);
  if (!s.ok()) return s;
  if (verbose) *out << "Processing Manifest file " << path << "\n";
  ManifestState state(user_comparator);
  std::vector<VersionEdit> edits;
  Slice record;
  while (log->Next(&record)) {
    const std::string where = path + " offset " + NumberToString(log->offset());
    s = VersionEdit::DecodeGroup(record, &edits);
    if (!s.ok()) return Status::Corruption(where, s.getState());
    for (size_t i = 0; i < edits.size(); i++) {
      if (verbose) {
        *out << EditString(edits[i], hex, edits.size() > 1,
                           edits.size() - 1 - i);
      }
      s = state.Apply(edits[i], where);
      if (!s.ok()) return s;
    }
  }
  if (!log->status().ok()) return log->status();
  uint64_t number = 0;
  FileType type;
  if (!ParsePathName(path, &number, &type) ||
      type != FileType::kDescriptorFile) {
    number = 0;
  }
  s = state.Finish(path, number);
  if (!s.ok()) return s;
  PrintFamilies(state, hex, out);
  if (verbose) *out << "Processing Manifest file " << path << " done\n";
  return Status::OK();
}

}  // namespace inspect
}  // namespace strata
