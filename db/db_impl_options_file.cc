// DBImpl and the OPTIONS file: written after every open and every change
// of options or families, and read at open to check that each family
// comes back with the comparator and merge operator it was written with.

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/options_file.h"
#include "util/logging.h"

namespace strata {

Status DBImpl::PersistOptions() {
  mutex_.AssertHeld();
  std::vector<ColumnFamilyDescriptor> families;
  const ColumnFamilyData* default_family =
      versions_->column_families()->FindByName(kDefaultColumnFamilyName);
  families.emplace_back(kDefaultColumnFamilyName, default_family->options());
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    if (cfd != default_family && !cfd->dropped()) {
      families.emplace_back(cfd->name(), cfd->options());
    }
  }
  const uint64_t number = NewFileNumber();
  Status s = WriteOptionsFile(env_, dbname_, number, NewFileNumber(),
                              SerializeOptionsFile(options_, families),
                              /*remove_older=*/file_deletions_disabled_ == 0);
  if (!s.ok()) {
    STRATA_LOG_ERROR(info_log_, "writing OPTIONS-%06llu: %s",
                     static_cast<unsigned long long>(number),
                     s.ToString().c_str());
    // RocksDB's default: the file is a record of the options, not needed
    // to open the DB.
    if (!options_.fail_if_options_file_error) return Status::OK();
  }
  return s;
}

Status DBImpl::CheckRecordedOptions(
    const std::vector<ColumnFamilyDescriptor>& column_families) {
  mutex_.AssertHeld();
  uint64_t number = 0;
  bool found = false;
  Status s = FindNewestOptionsFile(env_, dbname_, &number, &found);
  if (!s.ok() || !found) return s;
  const std::string path = OptionsFileName(dbname_, number);
  std::string text;
  OptionsFileContents recorded;
  ConfigOptions config;
  config.env = env_;
  config.ignore_unknown_options = true;  // a newer writer's options
  s = ReadFileToString(env_, path, &text);
  if (s.ok()) s = ParseOptionsFile(config, path, text, nullptr, &recorded);
  if (!s.ok()) {
    STRATA_LOG_WARN(info_log_, "not checking options against %s: %s",
                    path.c_str(), s.ToString().c_str());
    return Status::OK();
  }
  for (size_t i = 0; i < recorded.families.size(); i++) {
    for (const ColumnFamilyDescriptor& d : column_families) {
      if (d.name != recorded.families[i].name) continue;
      // A merge operator given: it must be the recorded one. None given
      // opens, as in RocksDB: reading a merge then fails.
      const std::string merge = d.options.merge_operator == nullptr
                                    ? ""
                                    : recorded.merge_operator_names[i];
      s = CheckRecordedFamily(config, path + ": ", d.name,
                              recorded.comparator_names[i], merge, d.options);
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

}  // namespace strata
