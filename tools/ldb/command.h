// An ldb command: its row in the command table and the Invocation it runs
// with (the parsed command line, the streams, and the DB it opens).
//
// Each command is one CommandSpec row in CommandTable() (command_table.cc):
// its name, its group in the help, its help line, the options and flags
// it accepts beyond the global ones, and the function that runs it. The
// functions live in files by kind (data_commands.cc, dump_load.cc,
// family_commands.cc, admin_commands.cc); adding a command is writing its
// function and adding its row.
//
// A command's function validates its parameters and decodes hex before it
// opens the DB, so a bad command line never touches the DB. Its outcome is
// an ExecResult: success, or a message that ldb prints on stderr after
// "Failed: " before exiting with status 1.
//
// Thread safety: single-threaded, as the tool is.

#ifndef STRATA_TOOLS_LDB_COMMAND_H_
#define STRATA_TOOLS_LDB_COMMAND_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "tools/ldb/command_line.h"

namespace strata {
namespace ldb {

class ExecResult {
 public:
  static ExecResult Ok() { return ExecResult(true, ""); }
  static ExecResult Failed(const std::string& message) {
    return ExecResult(false, message);
  }

  bool ok() const { return ok_; }
  const std::string& message() const { return message_; }

 private:
  ExecResult(bool ok, const std::string& message)
      : ok_(ok), message_(message) {}

  bool ok_;
  std::string message_;
};

// Returns from the enclosing function if expr is a failed ExecResult.
#define LDB_RETURN_IF_FAILED(expr)         \
  do {                                     \
    ::strata::ldb::ExecResult _r = (expr); \
    if (!_r.ok()) return _r;               \
  } while (0)

// The keys --from and --to give (decoded): [from, to), open where absent.
struct KeyRange {
  std::string from;
  std::string to;
  bool has_from = false;
  bool has_to = false;

  // True if key is at or past --to.
  bool Past(const Slice& key) const { return has_to && key.compare(to) >= 0; }
};

class Invocation {
 public:
  Invocation(const CommandLine& line, std::FILE* in, std::FILE* out);
  ~Invocation();

  Invocation(const Invocation&) = delete;
  Invocation& operator=(const Invocation&) = delete;

  const CommandLine& line() const { return line_; }
  const std::vector<std::string>& params() const { return line_.params; }
  std::FILE* in() const { return in_; }
  std::FILE* out() const { return out_; }
  bool key_hex() const { return key_hex_; }
  bool value_hex() const { return value_hex_; }

  // Key and value text from the command line (hex if --key_hex or
  // --value_hex) to bytes, and bytes to the text ldb prints.
  ExecResult DecodeKey(const std::string& text, std::string* key) const;
  ExecResult DecodeValue(const std::string& text, std::string* value) const;
  std::string EncodeKey(const Slice& key) const;
  std::string EncodeValue(const Slice& value) const;

  // --from and --to, decoded.
  ExecResult ReadKeyRange(KeyRange* range) const;
  // The integer given as option name, or fallback if it is absent.
  ExecResult IntOption(const std::string& name, int64_t fallback,
                       int64_t* value) const;

  // Options the DB opens with: defaults, create_if_missing as given.
  // Commands adjust them before OpenDb.
  Options* options() { return &options_; }

  // *path = --db; fails if it was not given.
  ExecResult DbPath(std::string* path) const;

  // Opens --db with every column family it has and selects
  // --column_family (the default family if not given). Fails if --db is
  // missing, the DB cannot be opened, or the family does not exist.
  ExecResult OpenDb();
  // Closes the DB if open; the first error closing it, if any.
  Status CloseDb();

  // An iterator over the selected family, at range.from (or the first
  // key). REQUIRES: the DB is open.
  std::unique_ptr<Iterator> IterateFrom(const KeyRange& range) const;

  DB* db() const { return db_; }
  ColumnFamilyHandle* family() const { return family_; }
  const std::vector<ColumnFamilyHandle*>& families() const { return handles_; }

 private:
  const CommandLine& line_;
  std::FILE* const in_;
  std::FILE* const out_;
  const bool key_hex_;
  const bool value_hex_;
  Options options_;
  DB* db_ = nullptr;
  std::vector<ColumnFamilyHandle*> handles_;
  ColumnFamilyHandle* family_ = nullptr;
};

// The names of the column families of --db, the default one first,
// without opening it. Fails naming the DB if it has none (it is missing).
ExecResult ListFamilies(Invocation* inv, std::vector<std::string>* names);

enum class CommandGroup { kDataAccess, kAdmin };

using CommandFunction = ExecResult (*)(Invocation* inv);

struct CommandSpec {
  const char* name;
  CommandGroup group;
  // The help line after the name (parameters, then options and flags).
  const char* help;
  // Options and flags it accepts beyond kGlobalOptions (command_line.h).
  std::vector<std::string> accepted;
  CommandFunction run;
};

// Every command, in the order of the help.
const std::vector<CommandSpec>& CommandTable();
// The command called name, or null.
const CommandSpec* FindCommand(const std::string& name);
// The help: the global flags, then each group's commands.
std::string UsageText();

// The command functions, by file.
// data_commands.cc
ExecResult RunGet(Invocation* inv);
ExecResult RunPut(Invocation* inv);
ExecResult RunBatchPut(Invocation* inv);
ExecResult RunScan(Invocation* inv);
ExecResult RunDelete(Invocation* inv);
ExecResult RunSingleDelete(Invocation* inv);
ExecResult RunDeleteRange(Invocation* inv);
ExecResult RunApproxSize(Invocation* inv);
ExecResult RunCheckConsistency(Invocation* inv);
// dump_load.cc
ExecResult RunDump(Invocation* inv);
ExecResult RunLoad(Invocation* inv);
// family_commands.cc
ExecResult RunListColumnFamilies(Invocation* inv);
ExecResult RunCreateColumnFamily(Invocation* inv);
ExecResult RunDropColumnFamily(Invocation* inv);
// admin_commands.cc
ExecResult RunCompact(Invocation* inv);
ExecResult RunGetProperty(Invocation* inv);
ExecResult RunRepair(Invocation* inv);
ExecResult RunCheckpoint(Invocation* inv);
ExecResult RunBackup(Invocation* inv);
ExecResult RunRestore(Invocation* inv);
// file_commands.cc
ExecResult RunInternalDump(Invocation* inv);
ExecResult RunManifestDump(Invocation* inv);
ExecResult RunDumpWal(Invocation* inv);
ExecResult RunListLiveFilesMetaData(Invocation* inv);
// dump --path=<file>: a WAL, a MANIFEST or a table, by its name.
ExecResult DumpFile(Invocation* inv, const std::string& path);

}  // namespace ldb
}  // namespace strata

#endif  // STRATA_TOOLS_LDB_COMMAND_H_
