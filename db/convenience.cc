// Options from strings and maps (strata/convenience.h), through the option
// tables of db/options_fields.h.

#include "strata/convenience.h"

#include "db/options_fields.h"

namespace strata {

ConfigOptions::ConfigOptions() = default;

ConfigOptions::ConfigOptions(const DBOptions& db_options)
    : env(db_options.env) {}

namespace {

ConfigOptions LegacyConfig(bool input_strings_escaped,
                           bool ignore_unknown_options) {
  ConfigOptions config;
  config.input_strings_escaped = input_strings_escaped;
  config.ignore_unknown_options = ignore_unknown_options;
  return config;
}

std::string TrimBlanks(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

// The map of opts_str split at config.delimiter.
Status SplitOptions(const ConfigOptions& config, const std::string& opts_str,
                    std::unordered_map<std::string, std::string>* map) {
  const std::string& delim = config.delimiter.empty() ? ";" : config.delimiter;
  std::unordered_map<std::string, std::string> result;
  size_t pos = 0;
  while (pos < opts_str.size()) {
    const size_t eq = opts_str.find('=', pos);
    const std::string name = TrimBlanks(opts_str.substr(
        pos, eq == std::string::npos ? std::string::npos : eq - pos));
    if (eq == std::string::npos) {
      if (name.empty()) break;  // trailing delimiters and blanks
      return Status::InvalidArgument("option without '='", name);
    }
    if (name.empty()) {
      return Status::InvalidArgument("option without a name in", opts_str);
    }
    // A value in braces runs to its matching brace, delimiters and all.
    size_t value_begin = opts_str.find_first_not_of(" \t", eq + 1);
    if (value_begin == std::string::npos) value_begin = opts_str.size();
    size_t end;
    if (value_begin < opts_str.size() && opts_str[value_begin] == '{') {
      int depth = 0;
      end = value_begin;
      for (; end < opts_str.size(); end++) {
        if (opts_str[end] == '{') depth++;
        if (opts_str[end] == '}' && --depth == 0) break;
      }
      if (depth != 0) {
        return Status::InvalidArgument("unbalanced braces in the value of ",
                                       name);
      }
      end++;
      const size_t next = opts_str.find(delim, end);
      if (!TrimBlanks(opts_str.substr(end, next == std::string::npos
                                               ? std::string::npos
                                               : next - end))
               .empty()) {
        return Status::InvalidArgument("text after the braced value of ", name);
      }
      result[name] = opts_str.substr(value_begin, end - value_begin);
      end = next;
    } else {
      end = opts_str.find(delim, eq + 1);
      result[name] = TrimBlanks(opts_str.substr(
          eq + 1, end == std::string::npos ? std::string::npos : end - eq - 1));
    }
    if (end == std::string::npos) break;
    pos = end + delim.size();
  }
  *map = std::move(result);
  return Status::OK();
}

// Options of both kinds: each name goes to the table that has it (a DB
// option, or one RocksDB has there, to the DB's; any other to the
// family's, which reports the unknown ones).
Status SetFlattened(const ConfigOptions& config,
                    const std::unordered_map<std::string, std::string>& map,
                    Options* options) {
  for (const auto& entry : map) {
    const std::string& name = entry.first;
    bool db_option = IsIgnoredOption(OptionSection::kDB, name);
    for (const OptionField<DBOptions>& field : DBOptionFields()) {
      db_option = db_option || field.name == name;
    }
    Status s = db_option
                   ? SetOptionField(DBOptionFields(), OptionSection::kDB,
                                    config, "", name, entry.second,
                                    static_cast<DBOptions*>(options))
                   : SetOptionField(ColumnFamilyOptionFields(),
                                    OptionSection::kColumnFamily, config, "",
                                    name, entry.second,
                                    static_cast<ColumnFamilyOptions*>(options));
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace

Status StringToMap(const std::string& opts_str,
                   std::unordered_map<std::string, std::string>* opts_map) {
  return SplitOptions(ConfigOptions(), opts_str, opts_map);
}

Status GetColumnFamilyOptionsFromMap(
    const ConfigOptions& config_options,
    const ColumnFamilyOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    ColumnFamilyOptions* new_options) {
  return SetOptionFields(ColumnFamilyOptionFields(),
                         OptionSection::kColumnFamily, config_options, opts_map,
                         base_options, new_options);
}

Status GetColumnFamilyOptionsFromMap(
    const ColumnFamilyOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    ColumnFamilyOptions* new_options, bool input_strings_escaped,
    bool ignore_unknown_options) {
  return GetColumnFamilyOptionsFromMap(
      LegacyConfig(input_strings_escaped, ignore_unknown_options), base_options,
      opts_map, new_options);
}

Status GetDBOptionsFromMap(
    const ConfigOptions& cfg_options, const DBOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    DBOptions* new_options) {
  return SetOptionFields(DBOptionFields(), OptionSection::kDB, cfg_options,
                         opts_map, base_options, new_options);
}

Status GetDBOptionsFromMap(
    const DBOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    DBOptions* new_options, bool input_strings_escaped,
    bool ignore_unknown_options) {
  return GetDBOptionsFromMap(
      LegacyConfig(input_strings_escaped, ignore_unknown_options), base_options,
      opts_map, new_options);
}

Status GetBlockBasedTableOptionsFromMap(
    const ConfigOptions& config_options,
    const BlockBasedTableOptions& table_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    BlockBasedTableOptions* new_table_options) {
  return SetOptionFields(BlockBasedTableOptionFields(),
                         OptionSection::kBlockBasedTable, config_options,
                         opts_map, table_options, new_table_options);
}

Status GetBlockBasedTableOptionsFromMap(
    const BlockBasedTableOptions& table_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    BlockBasedTableOptions* new_table_options, bool input_strings_escaped,
    bool ignore_unknown_options) {
  return GetBlockBasedTableOptionsFromMap(
      LegacyConfig(input_strings_escaped, ignore_unknown_options),
      table_options, opts_map, new_table_options);
}

Status GetColumnFamilyOptionsFromString(const ConfigOptions& config_options,
                                        const ColumnFamilyOptions& base_options,
                                        const std::string& opts_str,
                                        ColumnFamilyOptions* new_options) {
  std::unordered_map<std::string, std::string> map;
  Status s = SplitOptions(config_options, opts_str, &map);
  if (!s.ok()) return s;
  return GetColumnFamilyOptionsFromMap(config_options, base_options, map,
                                       new_options);
}

Status GetColumnFamilyOptionsFromString(const ColumnFamilyOptions& base_options,
                                        const std::string& opts_str,
                                        ColumnFamilyOptions* new_options) {
  return GetColumnFamilyOptionsFromString(LegacyConfig(false, false),
                                          base_options, opts_str, new_options);
}

Status GetDBOptionsFromString(const ConfigOptions& config_options,
                              const DBOptions& base_options,
                              const std::string& opts_str,
                              DBOptions* new_options) {
  std::unordered_map<std::string, std::string> map;
  Status s = SplitOptions(config_options, opts_str, &map);
  if (!s.ok()) return s;
  return GetDBOptionsFromMap(config_options, base_options, map, new_options);
}

Status GetDBOptionsFromString(const DBOptions& base_options,
                              const std::string& opts_str,
                              DBOptions* new_options) {
  return GetDBOptionsFromString(LegacyConfig(false, false), base_options,
                                opts_str, new_options);
}

Status GetBlockBasedTableOptionsFromString(
    const BlockBasedTableOptions& table_options, const std::string& opts_str,
    BlockBasedTableOptions* new_table_options) {
  return GetBlockBasedTableOptionsFromString(
      LegacyConfig(false, false), table_options, opts_str, new_table_options);
}

Status GetBlockBasedTableOptionsFromString(
    const ConfigOptions& config_options,
    const BlockBasedTableOptions& table_options, const std::string& opts_str,
    BlockBasedTableOptions* new_table_options) {
  std::unordered_map<std::string, std::string> map;
  Status s = SplitOptions(config_options, opts_str, &map);
  if (!s.ok()) return s;
  return GetBlockBasedTableOptionsFromMap(config_options, table_options, map,
                                          new_table_options);
}

Status GetOptionsFromString(const Options& base_options,
                            const std::string& opts_str, Options* new_options) {
  return GetOptionsFromString(LegacyConfig(false, false), base_options,
                              opts_str, new_options);
}

Status GetOptionsFromString(const ConfigOptions& config_options,
                            const Options& base_options,
                            const std::string& opts_str, Options* new_options) {
  std::unordered_map<std::string, std::string> map;
  Status s = SplitOptions(config_options, opts_str, &map);
  if (!s.ok()) return s;
  Options changed = base_options;
  s = SetFlattened(config_options, map, &changed);
  if (!s.ok()) return s;
  *new_options = changed;
  return Status::OK();
}

}  // namespace strata
