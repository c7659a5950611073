// The options strata records in an OPTIONS file and reads from text, one
// table per section of RocksDB's OPTIONS file ([DBOptions], [CFOptions],
// [TableOptions/BlockBasedTable]): each entry's name as RocksDB spells it,
// how its value prints and how text sets it. The OPTIONS file writer and
// parser, SetOptions and the Get*FromString functions all go through
// these tables, so a name or a value spelling is defined once.
//
// Names RocksDB 7.8 writes that strata does not implement are listed apart
// (IsIgnoredOption): text naming them is read and ignored.
//
// Thread safety: the tables are built once and read-only after.

#ifndef STRATA_DB_OPTIONS_FIELDS_H_
#define STRATA_DB_OPTIONS_FIELDS_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "strata/convenience.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"

namespace strata {

template <typename Struct>
struct OptionField {
  std::string name;
  // SetOptions may change it on an open DB.
  bool is_mutable = false;
  // Plain function pointers, not std::function: a std::function's
  // typeinfo for these signatures would be exported from the shared
  // library beside the public types they name.
  std::string (*print)(const Struct&) = nullptr;
  // Sets the field from value; false when value is not one it takes.
  bool (*parse)(const std::string& value, Struct*) = nullptr;
};

template <typename Struct>
using OptionTable = std::vector<OptionField<Struct>>;

// Which section of the OPTIONS file a table is.
enum class OptionSection { kDB, kColumnFamily, kBlockBasedTable };

const OptionTable<DBOptions>& DBOptionFields();
const OptionTable<ColumnFamilyOptions>& ColumnFamilyOptionFields();
const OptionTable<BlockBasedTableOptions>& BlockBasedTableOptionFields();

// True for an option RocksDB 7.8 has in section that strata does not
// implement.
bool IsIgnoredOption(OptionSection section, const std::string& name);

// "\x" -> "x", for config.input_strings_escaped text.
std::string UnescapeOptionValue(const std::string& value);

// Sets one option of *target. InvalidArgument naming the option for a bad
// value or an unknown name (unless config.ignore_unknown_options), or a
// name that is not mutable with config.mutable_options_only; where says
// where the text came from ("" or "file:line: ").
template <typename Struct>
Status SetOptionField(const OptionTable<Struct>& table, OptionSection section,
                      const ConfigOptions& config, const std::string& where,
                      const std::string& name, const std::string& value,
                      Struct* target);

// Applies every option of map to a copy of base; *result unchanged on
// error.
template <typename Struct>
Status SetOptionFields(const OptionTable<Struct>& table, OptionSection section,
                       const ConfigOptions& config,
                       const std::unordered_map<std::string, std::string>& map,
                       const Struct& base, Struct* result);

// The "  name=value\n" lines of s, in table order.
template <typename Struct>
std::string PrintOptionFields(const OptionTable<Struct>& table,
                              const Struct& s);

}  // namespace strata

#endif  // STRATA_DB_OPTIONS_FIELDS_H_
