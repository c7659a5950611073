// Writing the OPTIONS file. The layout, drawn (docs/formats/
// options_file.md has the rules):
//
//   # comment lines
//   [Version]
//     rocksdb_version=7.8.3
//     options_file_version=1.1
//   [DBOptions]
//     name=value                 one line per DB option
//   [CFOptions "default"]        one per family, the default first
//     name=value
//   [TableOptions/BlockBasedTable "default"]   the family's table options
//     name=value

#include <algorithm>

#include "db/filename.h"
#include "db/options_fields.h"
#include "db/options_file.h"
#include "strata/env.h"
#include "strata/table.h"

namespace strata {

std::string SerializeOptionsFile(
    const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& families) {
  std::string text =
      "# The options of a strata DB, in RocksDB 7.8's OPTIONS file layout\n"
      "# (strata's docs/formats/options_file.md).\n"
      "#\n\n"
      "[Version]\n"
      "  rocksdb_version=7.8.3\n"
      "  options_file_version=1.1\n\n"
      "[DBOptions]\n";
  text += PrintOptionFields(DBOptionFields(), db_options);
  for (const ColumnFamilyDescriptor& family : families) {
    text += "\n[CFOptions \"" + family.name + "\"]\n";
    text += PrintOptionFields(ColumnFamilyOptionFields(), family.options);
    const BlockBasedTableOptions* table =
        family.options.table_factory->GetOptions<BlockBasedTableOptions>();
    if (table != nullptr) {
      text += "\n[TableOptions/BlockBasedTable \"" + family.name + "\"]\n";
      text += PrintOptionFields(BlockBasedTableOptionFields(), *table);
    }
  }
  return text;
}

Status FindNewestOptionsFile(Env* env, const std::string& dbname,
                             uint64_t* number, bool* found) {
  std::vector<std::string> children;
  Status s = env->GetChildren(dbname, &children);
  if (!s.ok()) return s;
  *number = 0;
  *found = false;
  for (const std::string& child : children) {
    uint64_t n;
    FileType type;
    if (ParseFileName(child, &n, &type) && type == kOptionsFile &&
        (!*found || n > *number)) {
      *number = n;
      *found = true;
    }
  }
  return Status::OK();
}

Status WriteOptionsFile(Env* env, const std::string& dbname, uint64_t number,
                        uint64_t temp_number, const std::string& contents,
                        bool remove_older) {
  Status s = WriteFileAtomically(env, dbname, temp_number,
                                 OptionsFileName(dbname, number), contents);
  if (!s.ok() || !remove_older) return s;
  // RocksDB keeps the newest two: the previous one still describes the DB
  // should the new one be lost with the directory entry.
  std::vector<std::string> children;
  s = env->GetChildren(dbname, &children);
  if (!s.ok()) return s;
  std::vector<uint64_t> older;
  for (const std::string& child : children) {
    uint64_t n;
    FileType type;
    if (ParseFileName(child, &n, &type) && type == kOptionsFile && n < number) {
      older.push_back(n);
    }
  }
  std::sort(older.begin(), older.end());
  if (!older.empty()) older.pop_back();
  for (uint64_t n : older) {
    // A file left behind is harmless: the newest is what is read.
    env->RemoveFile(OptionsFileName(dbname, n));
  }
  return Status::OK();
}

}  // namespace strata
