// inspect: reading a DB's files directly, for ldb's file-level commands
// (manifest_dump, dump_wal, idump). Nothing here opens the DB or writes
// to it: the MANIFEST, the WALs and the tables are read through the Env
// given, so a DB in use by another process, or a damaged one, can be
// looked at.
//
// The output of each function matches RocksDB 7.8's ldb line for line
// where strata keeps the same thing (the formats are in the comments
// below); what RocksDB prints of things strata does not have (file
// checksums, unique ids, creation times, prev_log_number) is left out or
// printed as 0 as noted.
//
// Damaged input never crashes or hangs: the functions print what they
// could read and return a non-OK Status naming the file and the offset
// (or record) where reading failed.
//
// Thread safety: each call is independent; out belongs to the caller.

#ifndef STRATA_TOOLS_INSPECT_INSPECT_H_
#define STRATA_TOOLS_INSPECT_INSPECT_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/options.h"
#include "strata/status.h"

namespace strata {
namespace inspect {

// How user keys and values are printed: the bytes as they are (hex =
// false), or upper-case hex digits.
struct PrintOptions {
  bool key_hex = false;
  bool value_hex = false;
};

// ldb manifest_dump. Reads the MANIFEST at manifest_path, or if it is
// empty the one CURRENT names in db_path, and replays its edits as
// recovery does (the same checks). Output:
//
//   verbose only:  "Processing Manifest file <path>"
//   verbose only, per edit (RocksDB's VersionEdit::DebugString):
//     VersionEdit {
//       Comparator: <name>                  if set
//       LogNumber: <n>                      if set
//       NextFileNumber: <n>                 if set
//       MaxColumnFamily: <n>                if set
//       LastSeq: <n>                        if set
//       CompactCursor: <level> <ikey>       per compaction pointer
//       DeleteFile: <level> <number>        per file removed
//       AddFile: <level> <number> <size> <smallest ikey> .. <largest ikey>
//       ColumnFamily: <id>                  always
//       ColumnFamilyAdd: <name>             if the edit adds the family
//       ColumnFamilyDrop                    if it drops it
//       AtomicGroup: <k> entries remains    in a record of several edits
//     }
//   per live family, by id:
//     --------------- Column family "<name>"  (ID <id>) --------------
//     log number: <n>
//     comparator: <name>
//     --- level <L> --- version# <v> ---      for L in 0..63
//      <number>:<size>[<smallest seq> .. <largest seq>][<ikey> .. <ikey>]
//   next_file_number <n> last_sequence <s>  prev_log_number 0
//       max_column_family <id> min_log_number_to_keep <n>   (one line)
//   verbose only:  "Processing Manifest file <path> done"
//
// An <ikey> is 'user key' seq:<n>, type:<t> (the key upper-case hex when
// hex). Level 0 lists the newest file first, other levels by smallest
// key. version# numbers versions as RocksDB's recovery does (one per
// family created, then one per live family). next_file_number is the
// counter strata's recovery would start from; min_log_number_to_keep the
// smallest log number of the live families (the oldest WAL still
// needed). A family's keys are ordered by the comparator its edits name:
// RocksDB's two built-in ones, or user_comparator if it has that name
// (otherwise NotSupported naming the comparator).
//
// Errors: a missing file (IOError / NotFound naming it); a damaged or
// truncated record, a bad edit, or edits that do not apply (Corruption
// naming the MANIFEST and the offset of the record). The edits before
// the damage are printed (verbose), the summary is not.
Status DumpManifest(Env* env, const std::string& db_path,
                    const std::string& manifest_path, bool verbose, bool hex,
                    std::ostream* out,
                    const Comparator* user_comparator = nullptr);

// ldb dump_wal --walfile=F [--header] [--print_value]. Output:
//
//   print_header only:
//     "Sequence,Count,ByteSize,Physical Offset,Key(s)" and, with
//     print_values, " : value " after it
//   per write batch (WAL record), one line:
//     <sequence>,<count>,<byte size>,<offset of its first fragment>,
//   followed, per update of the batch, by
//     PUT(<cf>) : <key> : <value>␠     (without print_values: no value)
//     MERGE(<cf>) : <key> : <value>␠
//     DELETE(<cf>) : <key>␠
//     SINGLE_DELETE(<cf>) : <key>␠
//     DELETE_RANGE(<cf>) : <begin> <end>␠
// (LogData blobs, such as strata's clean-close marker, print nothing.)
// Keys and values are "0x" and upper-case hex when print says so, else
// their bytes; RocksDB's dump_wal always prints them in hex, so pass
// {true, true} to match it.
//
// Errors: the file missing or unreadable; a damaged record (checksum,
// bad fragment, a record that is no write batch), or a torn tail (a
// record cut short by the end of the file): the batches before it are
// printed, and the Status (Corruption) names the file and the offset
// where reading stopped.
Status DumpWal(Env* env, const std::string& wal_path, bool print_header,
               bool print_values, const PrintOptions& print, std::ostream* out);

struct InternalDumpOptions {
  // User keys in [from, to) (each bound only if has_*).
  std::string from, to;
  bool has_from = false, has_to = false;
  // At most this many entries (-1: no limit).
  int64_t max_keys = -1;
  // Print only the count line.
  bool count_only = false;
  std::string column_family = "default";
  PrintOptions print;
};

// ldb idump: every internal key of one column family, in internal-key
// order (user key ascending, then sequence descending), from the live
// tables of the current version and from the WALs not yet flushed into
// them (numbered at or above the family's log number), as recovery would
// see them — without opening the DB or writing anything. Output:
//
//   '<user key>' seq:<n>, type:<t> => <value>     per entry, up to
//                                                 max_keys; none when
//                                                 count_only
//   Internal keys in range: <entries printed/counted>
//
// type is the ValueType number (0 deletion, 1 value, 2 merge, 7 single
// deletion, 15 range deletion). Unlike RocksDB 7.8's idump, which hides
// range tombstones and the keys they cover, every entry is listed: a
// range tombstone is the entry of its begin key, type 15, whose value is
// its (exclusive) end key.
//
// options are the DB's (comparator, table factory, merge operator...);
// every family is recovered with them. Errors: an unknown family
// (InvalidArgument "Non-existing column family"), the MANIFEST's (as
// DumpManifest), a table missing or damaged (naming the table file), or a
// damaged WAL record (Corruption naming the WAL and offset; a torn tail
// is dropped, as recovery does).
Status DumpInternalKeys(Env* env, const std::string& db_path,
                        const Options& options, const InternalDumpOptions& dump,
                        std::ostream* out);

}  // namespace inspect
}  // namespace strata

#endif  // STRATA_TOOLS_INSPECT_INSPECT_H_
