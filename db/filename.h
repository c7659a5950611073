// The names of a DB's files (docs/formats/files.md).
//
//   <dbname>/LOCK               held (Env::LockFile) while the DB is open
//   <dbname>/IDENTITY           the DB's unique id, written at creation
//   <dbname>/OPTIONS-<number>   the persisted options (comparator name, ...)
//   <dbname>/<number>.log       a write-ahead log
//   <dbname>/<number>.sst       a table file
//   <dbname>/MANIFEST-<number>  the version edit log; CURRENT names it
//   <dbname>/CURRENT            the name of the live MANIFEST
//   <dbname>/LOG, LOG.old.<t>   the informational log and its predecessors
//   <dbname>/<number>.dbtmp     a file being written before a rename
//
// Numbers come from one counter per DB, so no two files share a number.
// Numbers are printed with at least six digits.

#ifndef STRATA_DB_FILENAME_H_
#define STRATA_DB_FILENAME_H_

#include <cstdint>
#include <string>

#include "strata/slice.h"
#include "strata/status.h"
#include "strata/types.h"  // FileType

namespace strata {

class Env;

std::string LogFileName(const std::string& dbname, uint64_t number);
std::string TableFileName(const std::string& dbname, uint64_t number);
std::string DescriptorFileName(const std::string& dbname, uint64_t number);
std::string CurrentFileName(const std::string& dbname);
std::string LockFileName(const std::string& dbname);
std::string TempFileName(const std::string& dbname, uint64_t number);
std::string InfoLogFileName(const std::string& dbname);
std::string OldInfoLogFileName(const std::string& dbname, uint64_t micros);
std::string IdentityFileName(const std::string& dbname);
std::string OptionsFileName(const std::string& dbname, uint64_t number);

// Recognizes a file name (without directory) of the layout above; on
// success *number is its number (0 for files without one) and *type its
// type. Anything else — a user's file in the directory — is false.
bool ParseFileName(const std::string& filename, uint64_t* number,
                   FileType* type);

// Syncs the DB directory, so that the names created in it (and renames
// into it) survive a power loss.
Status SyncDBDirectory(Env* env, const std::string& dbname);

// Writes contents to fname atomically: a temp file, synced, renamed over
// fname, and the directory synced. *renamed, if given, tells whether fname
// now holds contents (the rename was done), whatever the result: a failed
// directory sync leaves the new contents in place.
Status WriteFileAtomically(Env* env, const std::string& dbname,
                           uint64_t temp_number, const std::string& fname,
                           const Slice& contents, bool* renamed = nullptr);

}  // namespace strata

#endif  // STRATA_DB_FILENAME_H_
