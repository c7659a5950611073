// Reading a DB's OPTIONS file (docs/formats/options_file.md): the options
// the DB was last opened or changed with, to open it again with the same
// ones, or to check that options about to be used agree with them.
//
// A comparator or merge operator is recorded by name only. The builtin
// comparators (BytewiseComparator, ReverseBytewiseComparator) come back
// set; any other comparator, and every merge operator, is left as the
// default for the caller to set before DB::Open. Block-based tables get
// *cache as block cache when cache is given.
//
// Thread safety: plain functions.

#ifndef STRATA_INCLUDE_UTILITIES_OPTIONS_UTIL_H_
#define STRATA_INCLUDE_UTILITIES_OPTIONS_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "strata/convenience.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/export.h"
#include "strata/options.h"
#include "strata/status.h"

namespace strata {

class Cache;

// The options of the newest OPTIONS file in dbpath. NotFound when there
// is none; InvalidArgument or Corruption naming the file and line for a
// damaged one.
STRATA_EXPORT Status LoadLatestOptions(
    const std::string& dbpath, Env* env, DBOptions* db_options,
    std::vector<ColumnFamilyDescriptor>* cf_descs,
    bool ignore_unknown_options = false, std::shared_ptr<Cache>* cache = {});
STRATA_EXPORT Status LoadLatestOptions(
    const ConfigOptions& config_options, const std::string& dbpath,
    DBOptions* db_options, std::vector<ColumnFamilyDescriptor>* cf_descs,
    std::shared_ptr<Cache>* cache = {});

// The options of one OPTIONS file.
STRATA_EXPORT Status LoadOptionsFromFile(
    const std::string& options_file_name, Env* env, DBOptions* db_options,
    std::vector<ColumnFamilyDescriptor>* cf_descs,
    bool ignore_unknown_options = false, std::shared_ptr<Cache>* cache = {});
STRATA_EXPORT Status LoadOptionsFromFile(
    const ConfigOptions& config_options, const std::string& options_file_name,
    DBOptions* db_options, std::vector<ColumnFamilyDescriptor>* cf_descs,
    std::shared_ptr<Cache>* cache = {});

// *options_file_name: the newest OPTIONS file's name, without dbpath.
STRATA_EXPORT Status GetLatestOptionsFileName(const std::string& dbpath,
                                              Env* env,
                                              std::string* options_file_name);

// OK when db_options and cf_descs could open dbpath as its newest OPTIONS
// file records it: the recorded families given (no more), each with the
// same comparator and, where a merge operator is recorded, one of the
// same name. InvalidArgument naming the family otherwise; no check with
// config_options.sanity_level kSanityLevelNone.
STRATA_EXPORT Status CheckOptionsCompatibility(
    const std::string& dbpath, Env* env, const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& cf_descs,
    bool ignore_unknown_options = false);
STRATA_EXPORT Status CheckOptionsCompatibility(
    const ConfigOptions& config_options, const std::string& dbpath,
    const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& cf_descs);

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_OPTIONS_UTIL_H_
