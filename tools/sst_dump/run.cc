// Run: which files, and the per-file frame of every command ("Process
// <file>", "Sst file format: block-based", then the command's output and
// the properties), as RocksDB's sst_dump prints it.

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

#include "tools/sst_dump/commands.h"

namespace strata {
namespace sst_dump {

namespace {

struct Totals {
  uint64_t files = 0;
  uint64_t data_blocks = 0;
  uint64_t data_size = 0;
  uint64_t index_size = 0;
  uint64_t filter_size = 0;
};

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The files --file names: itself, or a directory's *.sst in name order.
Status ListFiles(Env* env, const std::string& path, bool* is_dir,
                 std::vector<std::string>* files) {
  *is_dir = false;
  Status s = env->FileExists(path);
  if (s.IsNotFound()) {
    return Status::NotFound(path, "no such file or directory");
  }
  if (!s.ok()) return s;
  s = env->IsDirectory(path, is_dir);
  if (!s.ok()) return s;
  if (!*is_dir) {
    files->push_back(path);
    return Status::OK();
  }
  std::vector<std::string> children;
  s = env->GetChildren(path, &children);
  if (!s.ok()) return s;
  std::sort(children.begin(), children.end());
  std::string dir = path;
  if (!dir.empty() && dir.back() != '/' && dir.back() != '\\') dir += '/';
  for (const std::string& name : children) {
    if (EndsWith(name, ".sst")) files->push_back(dir + name);
  }
  if (files->empty()) {
    return Status::NotFound(path, "no table files (*.sst) in the directory");
  }
  return Status::OK();
}

std::string KeyForPrint(bool has, const std::string& key) {
  return has ? ToHex(key) : "";
}

// The command's own output for one opened table.
Status RunCommand(Env* env, const Flags& flags, const TableFile& table) {
  const std::string& c = flags.command;
  if (c == "check" || c == "scan") {
    std::printf("from [%s] to [%s]\n",
                KeyForPrint(flags.has_from, flags.from).c_str(),
                KeyForPrint(flags.has_to, flags.to).c_str());
    ScanCounts counts;
    const bool check = c == "check";
    Status s = ScanTable(table, flags, /*print=*/!check,
                         check || flags.verify_checksum, &counts);
    if (s.ok() && check) {
      std::printf("The file is ok (%" PRIu64 " entries, %" PRIu64
                  " range deletions)\n",
                  counts.entries, counts.range_deletions);
    }
    return s;
  }
  if (c == "verify") {
    Status s = VerifyTable(table);
    if (s.ok()) std::printf("The file is ok\n");
    return s;
  }
  if (c == "raw") {
    std::string dump;
    Status s = RawDump(env, table, &dump);
    if (s.ok()) std::printf("raw dump written to file %s\n", dump.c_str());
    return s;
  }
  if (c == "recompress") return Recompress(env, table, flags);
  if (c == "identify") {
    std::printf("%s is a valid SST file\n", table.path().c_str());
  }
  return Status::OK();
}

}  // namespace

int Run(const Flags& flags, Env* env) {
  bool is_dir = false;
  std::vector<std::string> files;
  Status s = ListFiles(env, flags.file, &is_dir, &files);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    if (flags.command == "identify") {
      std::fprintf(stderr, "%s is not a valid SST file\n", flags.file.c_str());
    }
    return 1;
  }
  const bool identify = flags.command == "identify";
  bool failed = false;
  Totals totals;
  std::vector<std::string> valid;
  for (const std::string& file : files) {
    std::printf("Process %s\n", file.c_str());
    std::fflush(stdout);
    std::unique_ptr<TableFile> table;
    s = TableFile::Open(env, file, &table);
    if (s.ok()) {
      std::printf("Sst file format: block-based\n");
      s = RunCommand(env, flags, *table);
    }
    std::fflush(stdout);
    if (!s.ok()) {
      std::fprintf(stderr, "%s: %s\n", file.c_str(), s.ToString().c_str());
      if (identify && table == nullptr) {
        std::fprintf(stderr, "%s is not a valid SST file\n", file.c_str());
      }
      std::fflush(stderr);
      failed = true;
      continue;
    }
    valid.push_back(file);
    const TableProperties& p = table->properties();
    if (flags.show_properties) {
      std::fputs(FormatProperties(p, 30).c_str(), stdout);
    }
    totals.files++;
    totals.data_blocks += p.num_data_blocks;
    totals.data_size += p.data_size;
    totals.index_size += p.index_size;
    totals.filter_size += p.filter_size;
  }
  if (identify && is_dir) {
    std::printf("------------------------------\n");
    std::printf("List of valid SST files found in %s:\n", flags.file.c_str());
    for (const std::string& f : valid) std::printf("%s\n", f.c_str());
    std::printf("Number of valid SST files: %" PRIu64 "\n",
                static_cast<uint64_t>(valid.size()));
  }
  if (flags.show_summary) {
    std::printf("total number of files: %" PRIu64 "\n", totals.files);
    std::printf("total number of data blocks: %" PRIu64 "\n",
                totals.data_blocks);
    std::printf("total data block size: %" PRIu64 "\n", totals.data_size);
    std::printf("total index block size: %" PRIu64 "\n", totals.index_size);
    std::printf("total filter block size: %" PRIu64 "\n", totals.filter_size);
  }
  return failed ? 1 : 0;
}

}  // namespace sst_dump
}  // namespace strata
