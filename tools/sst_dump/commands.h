// sst_dump's commands over one opened table, with RocksDB sst_dump's
// output lines (docs/tools.md, "sst_dump"):
//
//   scan        the entries, "'key' seq:N, type:T => value", then the
//               range tombstones, bounded by --from (inclusive), --to
//               (exclusive) and --read_num;
//   check       every entry read with checksums verified; the count must
//               match the table's properties;
//   verify      every block's checksum and structure;
//   raw         every block written to <file>_dump.txt (raw_dump.cc);
//   recompress  the table rebuilt with each codec (recompress.cc);
//   identify    whether the file is a table (commands_run.cc).
//
// Each returns the first error, naming the block; output goes to stdout.
//
// Thread safety: one thread at a time.

#ifndef STRATA_TOOLS_SST_DUMP_COMMANDS_H_
#define STRATA_TOOLS_SST_DUMP_COMMANDS_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "strata/env.h"
#include "strata/status.h"
#include "tools/sst_dump/sst_flags.h"
#include "tools/sst_dump/table_file.h"

namespace strata {
namespace sst_dump {

// Runs flags.command over flags.file (a table, or a directory of *.sst
// files in name order) and returns the process's exit status: 0 if every
// file was processed without error, else 1 (errors on stderr).
int Run(const Flags& flags, Env* env);

// What scan and check count.
struct ScanCounts {
  uint64_t entries = 0;          // point entries
  uint64_t range_deletions = 0;  // range tombstones
};

// scan (print true) and check (print false).
Status ScanTable(const TableFile& table, const Flags& flags, bool print,
                 bool verify_checksum, ScanCounts* counts);
Status VerifyTable(const TableFile& table);
// Writes the dump to *dump_name (derived from the table's path).
Status RawDump(Env* env, const TableFile& table, std::string* dump_name);
Status Recompress(Env* env, const TableFile& table, const Flags& flags);

// The properties in RocksDB's words, under a "Table Properties:" heading
// and a rule of rule_width dashes (none if 0): each line "  name: value"
// as sst_dump prints them, or "name=value" as ldb's dump --path does.
std::string FormatProperties(const TableProperties& props, int rule_width,
                             bool name_equals_value = false);

// Bytes as upper-case hex.
std::string ToHex(const Slice& bytes);

}  // namespace sst_dump
}  // namespace strata

#endif  // STRATA_TOOLS_SST_DUMP_COMMANDS_H_
