// The OPTIONS file (docs/formats/options_file.md): a DB's options as text
// in RocksDB 7.8's INI layout, written at every open and every change of
// options, read by LoadLatestOptions and by DB::Open's check of the
// recorded comparators and merge operators.
//
// Thread safety: plain functions.

#ifndef STRATA_DB_OPTIONS_FILE_H_
#define STRATA_DB_OPTIONS_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/convenience.h"
#include "strata/db.h"
#include "strata/options.h"
#include "strata/status.h"

namespace strata {

class Cache;
class Env;

// What an OPTIONS file holds: the families in file order, the default
// first, with the comparator and merge operator names recorded for each
// ("" where "nullptr" is recorded).
struct OptionsFileContents {
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> families;
  std::vector<std::string> comparator_names;
  std::vector<std::string> merge_operator_names;
};

// The text of an OPTIONS file for these options. families[i].options must
// have a comparator, a memtable factory and a table factory.
std::string SerializeOptionsFile(
    const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& families);

// Parses text (file_name names it in errors). cache, when not null, is
// every block-based table's block cache.
Status ParseOptionsFile(const ConfigOptions& config,
                        const std::string& file_name, const std::string& text,
                        const std::shared_ptr<Cache>* cache,
                        OptionsFileContents* result);

// InvalidArgument naming family (after where: "" or "file: ") when
// options could not open it as the OPTIONS file records it
// (config.sanity_level above none): a different comparator name, or a
// merge operator recorded (not "nullptr") and one of another name or none
// given.
Status CheckRecordedFamily(const ConfigOptions& config,
                           const std::string& where, const std::string& family,
                           const std::string& comparator_name,
                           const std::string& merge_operator_name,
                           const ColumnFamilyOptions& options);

// The number of the newest OPTIONS-<n> in dbname; *found false if none.
Status FindNewestOptionsFile(Env* env, const std::string& dbname,
                             uint64_t* number, bool* found);

// Writes OPTIONS-<number> atomically (through temp file temp_number), then,
// with remove_older, removes every older OPTIONS file but the newest one
// before it. (Without: file deletions are disabled, and a checkpoint or a
// backup may be copying the one it listed.)
Status WriteOptionsFile(Env* env, const std::string& dbname, uint64_t number,
                        uint64_t temp_number, const std::string& contents,
                        bool remove_older);

}  // namespace strata

#endif  // STRATA_DB_OPTIONS_FILE_H_
