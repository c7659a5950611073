// Reading the OPTIONS file: lines of "[Section]", "[Section \"arg\"]" or
// "name=value" (leading and trailing blanks dropped), "#" to the end of a
// line a comment unless escaped as "\#". [Version] comes first; then
// [DBOptions]; then each family's [CFOptions "name"], the default first,
// each optionally followed by its [TableOptions/BlockBasedTable "name"].

#include <set>

#include "db/option_values.h"
#include "db/options_fields.h"
#include "db/options_file.h"
#include "strata/cache.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/table.h"

namespace strata {

namespace {

std::string Trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const size_t end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

// The line without its comment.
std::string StripComment(const std::string& line) {
  for (size_t i = 0; i < line.size(); i++) {
    if (line[i] == '\\') {
      i++;
    } else if (line[i] == '#') {
      return line.substr(0, i);
    }
  }
  return line;
}

enum class Section { kNone, kVersion, kDB, kFamily, kTable };

class Parser {
 public:
  Parser(const ConfigOptions& config, const std::string& file_name,
         const std::shared_ptr<Cache>* cache, OptionsFileContents* result)
      : config_(config), file_(file_name), cache_(cache), result_(result) {}

  Status Parse(const std::string& text) {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      line_number_++;
      const std::string line =
          Trim(StripComment(text.substr(start, end - start)));
      start = end + 1;
      if (line.empty()) continue;
      Status s = line[0] == '[' ? StartSection(line) : Option(line);
      if (!s.ok()) return s;
    }
    Status s = EndSection();
    if (!s.ok()) return s;
    if (!seen_version_) return Error("no [Version] section");
    if (!seen_db_) return Error("no [DBOptions] section");
    if (result_->families.empty()) {
      return Error("no [CFOptions \"default\"] section");
    }
    return Status::OK();
  }

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidArgument(file_ + ":" + std::to_string(line_number_),
                                   what);
  }
  std::string Where() const {
    return file_ + ":" + std::to_string(line_number_) + ": ";
  }

  Status StartSection(const std::string& line) {
    Status s = EndSection();
    if (!s.ok()) return s;
    if (line.back() != ']') return Error("bad section header " + line);
    const std::string body = line.substr(1, line.size() - 2);
    std::string title = body;
    std::string arg;
    const size_t space = body.find(' ');
    if (space != std::string::npos) {
      title = body.substr(0, space);
      const std::string quoted = Trim(body.substr(space + 1));
      if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') {
        return Error("bad section header " + line);
      }
      arg = quoted.substr(1, quoted.size() - 2);
    }
    const bool has_arg = space != std::string::npos;
    if (title == "Version" && !has_arg) {
      if (seen_version_) return Error("a second [Version] section");
      section_ = Section::kVersion;
      seen_version_ = true;
      return Status::OK();
    }
    if (!seen_version_) return Error("[Version] must come first");
    if (title == "DBOptions" && !has_arg) {
      if (seen_db_) return Error("a second [DBOptions] section");
      section_ = Section::kDB;
      seen_db_ = true;
      return Status::OK();
    }
    if (title == "CFOptions" && has_arg) {
      if (!seen_db_) return Error("[CFOptions] before [DBOptions]");
      if (!names_.insert(arg).second) {
        return Error("column family " + arg + " has two [CFOptions]");
      }
      if (result_->families.empty() && arg != kDefaultColumnFamilyName) {
        return Error("the first [CFOptions] must be \"default\"");
      }
      section_ = Section::kFamily;
      result_->families.emplace_back(arg, ColumnFamilyOptions());
      result_->comparator_names.push_back(
          result_->families.back().options.comparator->Name());
      result_->merge_operator_names.push_back("");
      return Status::OK();
    }
    if (title.compare(0, 13, "TableOptions/") == 0 && has_arg) {
      if (result_->families.empty() || result_->families.back().name != arg ||
          table_done_) {
        return Error(line + " does not follow [CFOptions \"" + arg + "\"]");
      }
      if (title != "TableOptions/BlockBasedTable") {
        return Error("strata has no table format " + title.substr(13));
      }
      section_ = Section::kTable;
      table_ = BlockBasedTableOptions();
      return Status::OK();
    }
    return Error("unknown section " + line);
  }

  Status EndSection() {
    if (section_ == Section::kTable) {
      if (cache_ != nullptr) table_.block_cache = *cache_;
      result_->families.back().options.table_factory.reset(
          NewBlockBasedTableFactory(table_));
      table_done_ = true;
    } else if (section_ == Section::kFamily) {
      table_done_ = false;
    }
    section_ = Section::kNone;
    return Status::OK();
  }

  Status Option(const std::string& line) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Error("expected name=value, not " + line);
    }
    const std::string name = Trim(line.substr(0, eq));
    const std::string value = Trim(line.substr(eq + 1));
    switch (section_) {
      case Section::kNone:
        return Error("option " + name + " outside a section");
      case Section::kVersion:
        return VersionOption(name, value);
      case Section::kDB:
        return SetOptionField(DBOptionFields(), OptionSection::kDB, config_,
                              Where(), name, value, &result_->db_options);
      case Section::kFamily: {
        const std::string text =
            config_.input_strings_escaped ? UnescapeOptionValue(value) : value;
        if (name == "comparator") {
          result_->comparator_names.back() = OptionObjectId(text);
        } else if (name == "merge_operator") {
          result_->merge_operator_names.back() = OptionObjectId(text);
        }
        return SetOptionField(ColumnFamilyOptionFields(),
                              OptionSection::kColumnFamily, config_, Where(),
                              name, value, &result_->families.back().options);
      }
      case Section::kTable:
        return SetOptionField(BlockBasedTableOptionFields(),
                              OptionSection::kBlockBasedTable, config_, Where(),
                              name, value, &table_);
    }
    return Status::OK();
  }

  // options_file_version: a major version above 1 is a layout this
  // reader does not know.
  Status VersionOption(const std::string& name, const std::string& value) {
    if (name == "options_file_version") {
      int major = 0;
      const size_t dot = value.find('.');
      if (!ParseOptionValue(value.substr(0, dot), &major) || major < 1) {
        return Error("bad options_file_version " + value);
      }
      if (major > 1) {
        return Error("options_file_version " + value +
                     " is newer than this reader (1.x)");
      }
      return Status::OK();
    }
    if (name == "rocksdb_version") return Status::OK();
    if (config_.ignore_unknown_options) return Status::OK();
    return Error("unknown option in [Version]: " + name);
  }

  const ConfigOptions& config_;
  const std::string file_;
  const std::shared_ptr<Cache>* const cache_;
  OptionsFileContents* const result_;
  Section section_ = Section::kNone;
  bool seen_version_ = false;
  bool seen_db_ = false;
  bool table_done_ = false;  // the current family's table section is read
  std::set<std::string> names_;
  BlockBasedTableOptions table_;
  int line_number_ = 0;
};

}  // namespace

Status CheckRecordedFamily(const ConfigOptions& config,
                           const std::string& where, const std::string& family,
                           const std::string& comparator_name,
                           const std::string& merge_operator_name,
                           const ColumnFamilyOptions& options) {
  if (config.IsCheckDisabled()) return Status::OK();
  const std::string given = options.comparator->Name();
  if (given != comparator_name) {
    return Status::InvalidArgument(where + "column family " + family +
                                       ": comparator " + given +
                                       " given, the OPTIONS file records",
                                   comparator_name);
  }
  if (merge_operator_name.empty()) return Status::OK();
  const std::string merge = options.merge_operator == nullptr
                                ? std::string("nullptr")
                                : std::string(options.merge_operator->Name());
  if (merge != merge_operator_name) {
    return Status::InvalidArgument(where + "column family " + family +
                                       ": merge operator " + merge +
                                       " given, the OPTIONS file records",
                                   merge_operator_name);
  }
  return Status::OK();
}

Status ParseOptionsFile(const ConfigOptions& config,
                        const std::string& file_name, const std::string& text,
                        const std::shared_ptr<Cache>* cache,
                        OptionsFileContents* result) {
  OptionsFileContents parsed;
  Parser parser(config, file_name, cache, &parsed);
  Status s = parser.Parse(text);
  if (!s.ok()) return s;
  *result = std::move(parsed);
  return Status::OK();
}

}  // namespace strata
