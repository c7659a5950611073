// Invocation: decoding keys and values from the command line, and opening
// the DB with every column family it has.

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "strata/utilities/options_util.h"
#include "tools/ldb/command.h"
#include "tools/ldb/format.h"

namespace strata {
namespace ldb {

namespace {

bool IsTrue(const std::string& flag_or_value) {
  return flag_or_value == "true" || flag_or_value == "1";
}

}  // namespace

Invocation::Invocation(const CommandLine& line, std::FILE* in, std::FILE* out)
    : line_(line),
      in_(in),
      out_(out),
      key_hex_(line.Has("hex") || line.Has("key_hex")),
      value_hex_(line.Has("hex") || line.Has("value_hex")) {
  options_.create_if_missing = line.Has("create_if_missing");
}

Invocation::~Invocation() { CloseDb(); }

ExecResult Invocation::DecodeKey(const std::string& text,
                                 std::string* key) const {
  std::string error;
  if (!key_hex_) {
    *key = text;
  } else if (!FromHex(text, key, &error)) {
    return ExecResult::Failed(error);
  }
  return ExecResult::Ok();
}

ExecResult Invocation::DecodeValue(const std::string& text,
                                   std::string* value) const {
  std::string error;
  if (!value_hex_) {
    *value = text;
  } else if (!FromHex(text, value, &error)) {
    return ExecResult::Failed(error);
  }
  return ExecResult::Ok();
}

std::string Invocation::EncodeKey(const Slice& key) const {
  return key_hex_ ? ToHex(key) : key.ToString();
}

std::string Invocation::EncodeValue(const Slice& value) const {
  return value_hex_ ? ToHex(value) : value.ToString();
}

ExecResult Invocation::ReadKeyRange(KeyRange* range) const {
  range->has_from = line_.options.count("from") != 0;
  range->has_to = line_.options.count("to") != 0;
  if (range->has_from) {
    LDB_RETURN_IF_FAILED(DecodeKey(line_.Value("from"), &range->from));
  }
  if (range->has_to) {
    LDB_RETURN_IF_FAILED(DecodeKey(line_.Value("to"), &range->to));
  }
  return ExecResult::Ok();
}

std::unique_ptr<Iterator> Invocation::IterateFrom(const KeyRange& range) const {
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), family_));
  if (range.has_from) {
    it->Seek(range.from);
  } else {
    it->SeekToFirst();
  }
  return it;
}

ExecResult Invocation::IntOption(const std::string& name, int64_t fallback,
                                 int64_t* value) const {
  auto it = line_.options.find(name);
  if (it == line_.options.end()) {
    *value = fallback;
    return ExecResult::Ok();
  }
  const std::string& text = it->second;
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE) {
    return ExecResult::Failed(name + " has an invalid value");
  }
  *value = parsed;
  return ExecResult::Ok();
}

ExecResult Invocation::DbPath(std::string* path) const {
  *path = line_.Value("db");
  if (path->empty()) {
    return ExecResult::Failed("--db=<path_to_db_directory> must be specified");
  }
  return ExecResult::Ok();
}

ExecResult ListFamilies(Invocation* inv, std::vector<std::string>* names) {
  std::string path;
  LDB_RETURN_IF_FAILED(inv->DbPath(&path));
  Status s = DB::ListColumnFamilies(*inv->options(), path, names);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  return ExecResult::Ok();
}

ExecResult Invocation::OpenDb() {
  std::string path;
  LDB_RETURN_IF_FAILED(DbPath(&path));
  // The DB's own options from its OPTIONS file, as RocksDB's ldb loads
  // them; without one (a new DB, a directory that is no DB) the defaults.
  const std::string try_load = line_.Value("try_load_options", "true");
  if (!IsTrue(try_load) && try_load != "false" && try_load != "0") {
    return ExecResult::Failed("try_load_options has an invalid value");
  }
  std::vector<ColumnFamilyDescriptor> loaded;
  if (IsTrue(try_load) && options_.env->FileExists(path).ok()) {
    DBOptions db_options;
    Status s = LoadLatestOptions(path, options_.env, &db_options, &loaded,
                                 line_.Has("ignore_unknown_options"));
    if (s.ok()) {
      const bool create_if_missing = options_.create_if_missing;
      *static_cast<DBOptions*>(&options_) = db_options;
      options_.create_if_missing = create_if_missing;
    } else if (!s.IsNotFound()) {
      return ExecResult::Failed("loading the OPTIONS file: " + s.ToString());
    }
  }

  std::vector<std::string> names;
  Status s = DB::ListColumnFamilies(options_, path, &names);
  if (!s.ok()) {
    if (!options_.create_if_missing) {
      return ExecResult::Failed(s.ToString() +
                                (s.IsNotFound() ? " (no DB in " + path +
                                                      "; --create_if_missing "
                                                      "creates one)"
                                                : ""));
    }
    names = {kDefaultColumnFamilyName};  // a new DB
  }
  std::string wanted = line_.Value("column_family");
  if (wanted.empty()) wanted = kDefaultColumnFamilyName;
  const auto selected = std::find(names.begin(), names.end(), wanted);
  if (selected == names.end()) {
    return ExecResult::Failed("Non-existing column family " + wanted);
  }

  std::vector<ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    auto it = std::find_if(
        loaded.begin(), loaded.end(),
        [&name](const ColumnFamilyDescriptor& d) { return d.name == name; });
    descriptors.emplace_back(
        name, it != loaded.end() ? it->options : ColumnFamilyOptions(options_));
  }
  s = DB::Open(DBOptions(options_), path, descriptors, &handles_, &db_);
  if (!s.ok()) {
    db_ = nullptr;
    handles_.clear();
    return ExecResult::Failed(s.ToString());
  }
  family_ = handles_[static_cast<size_t>(selected - names.begin())];
  return ExecResult::Ok();
}

Status Invocation::CloseDb() {
  if (db_ == nullptr) return Status::OK();
  Status result;
  for (ColumnFamilyHandle* handle : handles_) {
    Status s = db_->DestroyColumnFamilyHandle(handle);
    if (result.ok()) result = s;
  }
  handles_.clear();
  family_ = nullptr;
  Status s = db_->Close();
  if (result.ok()) result = s;
  delete db_;
  db_ = nullptr;
  return result;
}

}  // namespace ldb
}  // namespace strata
