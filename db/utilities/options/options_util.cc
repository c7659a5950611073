// LoadLatestOptions and its kin (strata/utilities/options_util.h): the
// OPTIONS file read through db/options_file.h.

#include "strata/utilities/options_util.h"

#include <map>

#include "db/filename.h"
#include "db/options_file.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"

namespace strata {

namespace {

ConfigOptions ConfigFor(Env* env, bool ignore_unknown_options) {
  ConfigOptions config;
  config.env = env;
  config.ignore_unknown_options = ignore_unknown_options;
  return config;
}

Status ReadOptionsFile(const ConfigOptions& config, const std::string& path,
                       const std::shared_ptr<Cache>* cache,
                       OptionsFileContents* contents) {
  if (config.env == nullptr) {
    return Status::InvalidArgument("ConfigOptions::env is null");
  }
  std::string text;
  Status s = ReadFileToString(config.env, path, &text);
  if (!s.ok()) return s;
  return ParseOptionsFile(config, path, text, cache, contents);
}

Status ReadLatest(const ConfigOptions& config, const std::string& dbpath,
                  const std::shared_ptr<Cache>* cache,
                  OptionsFileContents* contents) {
  std::string name;
  Status s = GetLatestOptionsFileName(dbpath, config.env, &name);
  if (!s.ok()) return s;
  return ReadOptionsFile(config, dbpath + "/" + name, cache, contents);
}

void Deliver(OptionsFileContents* contents, DBOptions* db_options,
             std::vector<ColumnFamilyDescriptor>* cf_descs, Env* env) {
  Env* const keep = db_options->env;
  *db_options = contents->db_options;
  db_options->env = env != nullptr ? env : keep;
  *cf_descs = std::move(contents->families);
}

}  // namespace

Status LoadLatestOptions(const std::string& dbpath, Env* env,
                         DBOptions* db_options,
                         std::vector<ColumnFamilyDescriptor>* cf_descs,
                         bool ignore_unknown_options,
                         std::shared_ptr<Cache>* cache) {
  return LoadLatestOptions(ConfigFor(env, ignore_unknown_options), dbpath,
                           db_options, cf_descs, cache);
}

Status LoadLatestOptions(const ConfigOptions& config_options,
                         const std::string& dbpath, DBOptions* db_options,
                         std::vector<ColumnFamilyDescriptor>* cf_descs,
                         std::shared_ptr<Cache>* cache) {
  OptionsFileContents contents;
  Status s = ReadLatest(config_options, dbpath, cache, &contents);
  if (!s.ok()) return s;
  Deliver(&contents, db_options, cf_descs, config_options.env);
  return Status::OK();
}

Status LoadOptionsFromFile(const std::string& options_file_name, Env* env,
                           DBOptions* db_options,
                           std::vector<ColumnFamilyDescriptor>* cf_descs,
                           bool ignore_unknown_options,
                           std::shared_ptr<Cache>* cache) {
  return LoadOptionsFromFile(ConfigFor(env, ignore_unknown_options),
                             options_file_name, db_options, cf_descs, cache);
}

Status LoadOptionsFromFile(const ConfigOptions& config_options,
                           const std::string& options_file_name,
                           DBOptions* db_options,
                           std::vector<ColumnFamilyDescriptor>* cf_descs,
                           std::shared_ptr<Cache>* cache) {
  OptionsFileContents contents;
  Status s =
      ReadOptionsFile(config_options, options_file_name, cache, &contents);
  if (!s.ok()) return s;
  Deliver(&contents, db_options, cf_descs, config_options.env);
  return Status::OK();
}

Status GetLatestOptionsFileName(const std::string& dbpath, Env* env,
                                std::string* options_file_name) {
  if (env == nullptr) return Status::InvalidArgument("Env is null");
  uint64_t number = 0;
  bool found = false;
  Status s = FindNewestOptionsFile(env, dbpath, &number, &found);
  if (!s.ok()) return s;
  if (!found) return Status::NotFound(dbpath, ": no OPTIONS file");
  const std::string path = OptionsFileName(dbpath, number);
  *options_file_name = path.substr(path.rfind('/') + 1);
  return Status::OK();
}

Status CheckOptionsCompatibility(
    const std::string& dbpath, Env* env, const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& cf_descs,
    bool ignore_unknown_options) {
  return CheckOptionsCompatibility(ConfigFor(env, ignore_unknown_options),
                                   dbpath, db_options, cf_descs);
}

Status CheckOptionsCompatibility(
    const ConfigOptions& config_options, const std::string& dbpath,
    const DBOptions& /*db_options*/,
    const std::vector<ColumnFamilyDescriptor>& cf_descs) {
  if (config_options.IsCheckDisabled()) return Status::OK();
  OptionsFileContents recorded;
  Status s = ReadLatest(config_options, dbpath, nullptr, &recorded);
  if (!s.ok()) return s;
  std::map<std::string, const ColumnFamilyOptions*> given;
  for (const ColumnFamilyDescriptor& d : cf_descs) given[d.name] = &d.options;
  if (given.size() != recorded.families.size()) {
    return Status::InvalidArgument(
        dbpath, ": " + std::to_string(cf_descs.size()) +
                    " column families given, the OPTIONS file records " +
                    std::to_string(recorded.families.size()));
  }
  for (size_t i = 0; i < recorded.families.size(); i++) {
    const std::string& name = recorded.families[i].name;
    auto it = given.find(name);
    if (it == given.end()) {
      return Status::InvalidArgument(
          dbpath, ": column family " + name + " recorded but not given");
    }
    s = CheckRecordedFamily(config_options, "", name,
                            recorded.comparator_names[i],
                            recorded.merge_operator_names[i], *it->second);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace strata
