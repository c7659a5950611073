// Options from text: the "name=value;name=value" strings and the maps
// RocksDB's convenience.h reads, with the names and value spellings of
// RocksDB's OPTIONS file (docs/formats/options_file.md). ConfigOptions
// says how strictly text is read, here and by strata/utilities/
// options_util.h.
//
// Every function starts from a base and returns a copy with the named
// options changed; on an error *new_options is left as it was. An option
// RocksDB 7.8 knows but strata does not implement is read and ignored
// (docs/options.md); a name neither knows is InvalidArgument unless
// ignore_unknown_options.
//
// Thread safety: plain functions; ConfigOptions is a plain struct.

#ifndef STRATA_INCLUDE_CONVENIENCE_H_
#define STRATA_INCLUDE_CONVENIENCE_H_

#include <cstddef>
#include <string>
#include <unordered_map>

#include "strata/env.h"
#include "strata/export.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"

namespace strata {

struct STRATA_EXPORT ConfigOptions {
  // The defaults below, with Env::Default().
  ConfigOptions();
  // The defaults below, with db_options.env.
  explicit ConfigOptions(const DBOptions& db_options);

  // How closely CheckOptionsCompatibility compares a DB's recorded options
  // with the ones given.
  enum SanityLevel : unsigned char {
    kSanityLevelNone = 0x01,  // no check
    // What reading the data needs: the same comparator, and where a merge
    // operator is recorded one of the same name. strata compares nothing
    // more at the levels above none.
    kSanityLevelLooselyCompatible = 0x02,
    kSanityLevelExactMatch = 0xFF,
  };

  // How far into nested options a call goes; strata has no nested
  // options, so every depth reads the same.
  enum Depth {
    kDepthDefault,
    kDepthShallow,
    kDepthDetailed,
  };

  // Skip option names strata and RocksDB 7.8 both do not know, instead of
  // failing.
  bool ignore_unknown_options = false;
  // Options RocksDB 7.8 knows and strata does not implement are always
  // skipped (docs/options.md); kept for RocksDB's signature.
  bool ignore_unsupported_options = true;
  // Values carry backslash escapes (as the OPTIONS file writes them): "\x"
  // reads as "x".
  bool input_strings_escaped = true;
  // Accepted for RocksDB's signature; strata prepares nothing.
  bool invoke_prepare_options = true;
  // Only options SetOptions can change may be named.
  bool mutable_options_only = false;
  // What separates "name=value" pairs in option strings.
  std::string delimiter = ";";
  Depth depth = Depth::kDepthDefault;
  SanityLevel sanity_level = SanityLevel::kSanityLevelExactMatch;
  // How much of an OPTIONS file a read asks for at once.
  size_t file_readahead_size = 512 * 1024;
  // Where OPTIONS files are read; never null.
  Env* env = Env::Default();

  bool IsShallow() const { return depth == Depth::kDepthShallow; }
  bool IsDetailed() const { return depth == Depth::kDepthDetailed; }
  bool IsCheckDisabled() const {
    return sanity_level == SanityLevel::kSanityLevelNone;
  }
  bool IsCheckEnabled(SanityLevel level) const {
    return level > SanityLevel::kSanityLevelNone && level <= sanity_level;
  }
};

STRATA_EXPORT Status GetColumnFamilyOptionsFromMap(
    const ConfigOptions& config_options,
    const ColumnFamilyOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    ColumnFamilyOptions* new_options);
STRATA_EXPORT Status GetColumnFamilyOptionsFromMap(
    const ColumnFamilyOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    ColumnFamilyOptions* new_options, bool input_strings_escaped = false,
    bool ignore_unknown_options = false);

STRATA_EXPORT Status GetDBOptionsFromMap(
    const ConfigOptions& cfg_options, const DBOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    DBOptions* new_options);
STRATA_EXPORT Status GetDBOptionsFromMap(
    const DBOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    DBOptions* new_options, bool input_strings_escaped = false,
    bool ignore_unknown_options = false);

STRATA_EXPORT Status GetBlockBasedTableOptionsFromMap(
    const ConfigOptions& config_options,
    const BlockBasedTableOptions& table_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    BlockBasedTableOptions* new_table_options);
STRATA_EXPORT Status GetBlockBasedTableOptionsFromMap(
    const BlockBasedTableOptions& table_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    BlockBasedTableOptions* new_table_options,
    bool input_strings_escaped = false, bool ignore_unknown_options = false);

// opts_str: "name=value;name=value", a value in braces ("{...}") may hold
// the delimiter. Its names may be a family's options, and for
// GetOptionsFromString the DB's too.
STRATA_EXPORT Status GetColumnFamilyOptionsFromString(
    const ConfigOptions& config_options,
    const ColumnFamilyOptions& base_options, const std::string& opts_str,
    ColumnFamilyOptions* new_options);
STRATA_EXPORT Status GetColumnFamilyOptionsFromString(
    const ColumnFamilyOptions& base_options, const std::string& opts_str,
    ColumnFamilyOptions* new_options);

STRATA_EXPORT Status GetDBOptionsFromString(const ConfigOptions& config_options,
                                            const DBOptions& base_options,
                                            const std::string& opts_str,
                                            DBOptions* new_options);
STRATA_EXPORT Status GetDBOptionsFromString(const DBOptions& base_options,
                                            const std::string& opts_str,
                                            DBOptions* new_options);

STRATA_EXPORT Status GetBlockBasedTableOptionsFromString(
    const BlockBasedTableOptions& table_options, const std::string& opts_str,
    BlockBasedTableOptions* new_table_options);
STRATA_EXPORT Status GetBlockBasedTableOptionsFromString(
    const ConfigOptions& config_options,
    const BlockBasedTableOptions& table_options, const std::string& opts_str,
    BlockBasedTableOptions* new_table_options);

STRATA_EXPORT Status GetOptionsFromString(const Options& base_options,
                                          const std::string& opts_str,
                                          Options* new_options);
STRATA_EXPORT Status GetOptionsFromString(const ConfigOptions& config_options,
                                          const Options& base_options,
                                          const std::string& opts_str,
                                          Options* new_options);

// Splits opts_str ("name=value;...") into *opts_map; InvalidArgument for a
// pair without "=", an empty name or unbalanced braces.
STRATA_EXPORT Status
StringToMap(const std::string& opts_str,
            std::unordered_map<std::string, std::string>* opts_map);

}  // namespace strata

#endif  // STRATA_INCLUDE_CONVENIENCE_H_
