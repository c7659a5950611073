// Commands that read a DB's files themselves rather than through an open
// DB — idump, manifest_dump, dump_wal, dump --path — over the inspection
// library (tools/inspect) and sst_dump's table reader; and
// list_live_files_metadata, which asks an open DB for its tables.

#include <algorithm>
#include <sstream>

#include "db/filename.h"
#include "strata/metadata.h"
#include "tools/inspect/inspect.h"
#include "tools/ldb/command.h"
#include "tools/sst_dump/commands.h"

namespace strata {
namespace ldb {

namespace {

ExecResult Print(Invocation* inv, const Status& s,
                 const std::ostringstream& text) {
  // Keys may hold NUL bytes: all of the text, not a C string.
  const std::string& bytes = text.str();
  std::fwrite(bytes.data(), 1, bytes.size(), inv->out());
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  return ExecResult::Ok();
}

// dump --path of a table: its entries, then its properties as
// "name=value" lines, as RocksDB's ldb prints them.
ExecResult DumpTableFile(Invocation* inv, const std::string& path) {
  std::FILE* out = inv->out();
  std::fprintf(out, "Process %s\n", path.c_str());
  std::unique_ptr<sst_dump::TableFile> table;
  Status s = sst_dump::TableFile::Open(Env::Default(), path, &table);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(out, "Sst file format: block-based\n");
  sst_dump::Flags flags;
  flags.output_hex = inv->key_hex();
  std::fflush(out);  // the scan prints on stdout
  sst_dump::ScanCounts counts;
  s = sst_dump::ScanTable(*table, flags, /*print=*/true,
                          /*verify_checksum=*/true, &counts);
  std::fflush(stdout);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(out, "\n%s\n",
               sst_dump::FormatProperties(table->properties(), 0,
                                          /*name_equals_value=*/true)
                   .c_str());
  return ExecResult::Ok();
}

}  // namespace

ExecResult RunInternalDump(Invocation* inv) {
  std::string path;
  LDB_RETURN_IF_FAILED(inv->DbPath(&path));
  KeyRange range;
  LDB_RETURN_IF_FAILED(inv->ReadKeyRange(&range));
  inspect::InternalDumpOptions dump;
  dump.from = range.from;
  dump.has_from = range.has_from;
  dump.to = range.to;
  dump.has_to = range.has_to;
  LDB_RETURN_IF_FAILED(inv->IntOption("max_keys", -1, &dump.max_keys));
  dump.count_only = inv->line().Has("count_only");
  dump.column_family =
      inv->line().Value("column_family", kDefaultColumnFamilyName);
  dump.print.key_hex = inv->key_hex();
  dump.print.value_hex = inv->value_hex();
  std::ostringstream text;
  Status s = inspect::DumpInternalKeys(Env::Default(), path, *inv->options(),
                                       dump, &text);
  return Print(inv, s, text);
}

ExecResult RunManifestDump(Invocation* inv) {
  const std::string manifest = inv->line().Value("path");
  std::string db;
  if (manifest.empty()) LDB_RETURN_IF_FAILED(inv->DbPath(&db));
  std::ostringstream text;
  Status s =
      inspect::DumpManifest(Env::Default(), db, manifest,
                            inv->line().Has("verbose"), inv->key_hex(), &text);
  return Print(inv, s, text);
}

ExecResult RunDumpWal(Invocation* inv) {
  const std::string wal = inv->line().Value("walfile");
  if (wal.empty()) {
    return ExecResult::Failed(
        "--walfile=<write_ahead_log_file_path> must be "
        "specified");
  }
  const CommandLine& line = inv->line();
  // RocksDB's ldb prints a WAL's keys and values in hex, whatever --hex.
  const inspect::PrintOptions hex{true, true};
  std::ostringstream text;
  Status s = inspect::DumpWal(
      Env::Default(), wal, line.Has("header") || line.Has("print_header"),
      line.Has("print_value") || line.Has("print_values"), hex, &text);
  return Print(inv, s, text);
}

ExecResult DumpFile(Invocation* inv, const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  const std::string name =
      slash == std::string::npos ? path : path.substr(slash + 1);
  uint64_t number;
  FileType type;
  if (!ParseFileName(name, &number, &type)) {
    return ExecResult::Failed("File '" + path + "' is not a strata file");
  }
  std::ostringstream text;
  Status s;
  switch (type) {
    case kWalFile:
      s = inspect::DumpWal(Env::Default(), path, /*print_header=*/true,
                           /*print_values=*/true,
                           inspect::PrintOptions{true, true}, &text);
      return Print(inv, s, text);
    case kDescriptorFile:
      s = inspect::DumpManifest(Env::Default(), "", path, /*verbose=*/false,
                                inv->key_hex(), &text);
      return Print(inv, s, text);
    case kTableFile:
      return DumpTableFile(inv, path);
    default:
      return ExecResult::Failed("File '" + path +
                                "' is not a WAL, a MANIFEST or a table");
  }
}

ExecResult RunListLiveFilesMetaData(Invocation* inv) {
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  std::vector<LiveFileMetaData> files;
  inv->db()->GetLiveFilesMetaData(&files);
  std::FILE* out = inv->out();
  if (inv->line().Has("sort_by_filename")) {
    std::sort(files.begin(), files.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    std::fprintf(out, "Live SST and Blob Files:\n");
    for (const LiveFileMetaData& f : files) {
      std::fprintf(out, "%s%s : level %d, column family '%s'\n",
                   f.db_path.c_str(), f.name.c_str(), f.level,
                   f.column_family_name.c_str());
    }
  } else {
    for (ColumnFamilyHandle* handle : inv->families()) {
      const std::string& family = handle->GetName();
      std::fprintf(out, "===== Column Family: %s =====\n", family.c_str());
      std::fprintf(out, "Live SST Files:\n");
      const int levels = inv->db()->GetOptions(handle).num_levels;
      for (int level = 0; level < levels; level++) {
        std::fprintf(out, "---------- level %d ----------\n", level);
        for (const LiveFileMetaData& f : files) {
          if (f.column_family_name == family && f.level == level) {
            std::fprintf(out, "%s%s\n", f.db_path.c_str(), f.name.c_str());
          }
        }
      }
      // strata keeps no blob files; the heading stays for scripts.
      std::fprintf(out, "Live Blob Files:\n");
    }
  }
  std::fprintf(out, "------------------------------\n");
  return ExecResult::Ok();
}

}  // namespace ldb
}  // namespace strata
