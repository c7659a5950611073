// Column family commands: listing a DB's families, creating and dropping
// one.

#include "tools/ldb/command.h"

namespace strata {
namespace ldb {

ExecResult RunListColumnFamilies(Invocation* inv) {
  std::vector<std::string> names;
  LDB_RETURN_IF_FAILED(ListFamilies(inv, &names));
  std::string path;
  LDB_RETURN_IF_FAILED(inv->DbPath(&path));
  std::string list;
  for (const std::string& name : names) {
    if (!list.empty()) list.append(", ");
    list.append(name);
  }
  std::fprintf(inv->out(), "Column families in %s: \n{%s}\n", path.c_str(),
               list.c_str());
  return ExecResult::Ok();
}

ExecResult RunCreateColumnFamily(Invocation* inv) {
  if (inv->params().size() != 1) {
    return ExecResult::Failed("new column family name must be specified");
  }
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  ColumnFamilyHandle* handle = nullptr;
  Status s = inv->db()->CreateColumnFamily(ColumnFamilyOptions(*inv->options()),
                                           inv->params()[0], &handle);
  if (handle != nullptr) inv->db()->DestroyColumnFamilyHandle(handle);
  if (!s.ok()) {
    return ExecResult::Failed("Fail to create new column family: " +
                              s.ToString());
  }
  std::fprintf(inv->out(), "OK\n");
  return ExecResult::Ok();
}

ExecResult RunDropColumnFamily(Invocation* inv) {
  if (inv->params().size() != 1) {
    return ExecResult::Failed(
        "The name of column family to drop must be specified");
  }
  const std::string& name = inv->params()[0];
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  for (ColumnFamilyHandle* family : inv->families()) {
    if (family->GetName() != name) continue;
    Status s = inv->db()->DropColumnFamily(family);
    if (!s.ok()) {
      return ExecResult::Failed("Fail to drop column family: " + s.ToString());
    }
    std::fprintf(inv->out(), "OK\n");
    return ExecResult::Ok();
  }
  return ExecResult::Failed("Column family: " + name + " doesn't exist in db.");
}

}  // namespace ldb
}  // namespace strata
