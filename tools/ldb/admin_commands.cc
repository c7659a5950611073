// Admin commands: manual compaction, checkpoints and properties on an open
// DB, and repair of one that does not open.

#include <cstdarg>
#include <map>

#include "strata/utilities/checkpoint.h"
#include "tools/ldb/command.h"

namespace strata {
namespace ldb {

ExecResult RunCompact(Invocation* inv) {
  KeyRange range;
  LDB_RETURN_IF_FAILED(inv->ReadKeyRange(&range));
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  const Slice begin(range.from), end(range.to);
  Status s = inv->db()->CompactRange(CompactRangeOptions(), inv->family(),
                                     range.has_from ? &begin : nullptr,
                                     range.has_to ? &end : nullptr);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  return ExecResult::Ok();
}

namespace {

// repair --verbose: the repair's informational log on stderr.
class StderrLogger : public Logger {
 public:
  using Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    std::vfprintf(stderr, format, ap);
    std::fputc('\n', stderr);
  }
};

}  // namespace

ExecResult RunRepair(Invocation* inv) {
  std::string path;
  LDB_RETURN_IF_FAILED(inv->DbPath(&path));
  Options options = *inv->options();
  if (inv->line().Has("verbose")) {
    options.info_log = std::make_shared<StderrLogger>();
  }
  Status s = RepairDB(path, options);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(inv->out(), "OK\n");
  return ExecResult::Ok();
}

ExecResult RunCheckpoint(Invocation* inv) {
  const std::string dir = inv->line().Value("checkpoint_dir");
  if (dir.empty()) {
    return ExecResult::Failed(
        Status::InvalidArgument("invalid checkpoint directory name")
            .ToString());
  }
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  Checkpoint* raw = nullptr;
  Status s = Checkpoint::Create(inv->db(), &raw);
  std::unique_ptr<Checkpoint> checkpoint(raw);
  if (s.ok()) s = checkpoint->CreateCheckpoint(dir);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  return ExecResult::Ok();
}

ExecResult RunGetProperty(Invocation* inv) {
  if (inv->params().size() != 1) {
    return ExecResult::Failed("property name must be specified");
  }
  const std::string& name = inv->params()[0];
  // strata's properties are RocksDB's under the prefix "strata.": a
  // script's "rocksdb.<name>" asks for the same one. The output names the
  // property as it was asked for.
  const std::string kRocksPrefix = "rocksdb.";
  std::string property = name;
  if (property.compare(0, kRocksPrefix.size(), kRocksPrefix) == 0) {
    property = "strata." + property.substr(kRocksPrefix.size());
  }
  LDB_RETURN_IF_FAILED(inv->OpenDb());

  std::FILE* out = inv->out();
  std::map<std::string, std::string> entries;
  std::string value;
  if (inv->db()->GetMapProperty(inv->family(), property, &entries)) {
    if (entries.empty()) std::fprintf(out, "%s: <empty map>\n", name.c_str());
    for (const auto& entry : entries) {
      std::fprintf(out, "%s.%s: %s\n", name.c_str(), entry.first.c_str(),
                   entry.second.c_str());
    }
  } else if (inv->db()->GetProperty(inv->family(), property, &value)) {
    std::fprintf(out, "%s: %s\n", name.c_str(), value.c_str());
  } else {
    return ExecResult::Failed("failed to get property: " + name);
  }
  return ExecResult::Ok();
}

}  // namespace ldb
}  // namespace strata
