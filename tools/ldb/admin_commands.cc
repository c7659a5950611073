// Admin commands: manual compaction, checkpoints, backups and properties
// on an open DB, repair of one that does not open, and restoring one from
// a backup.

#include <cstdarg>
#include <map>

#include "strata/utilities/backup_engine.h"
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

// repair --verbose, backup/restore --stderr_log_level: an informational
// log on stderr.
class StderrLogger : public Logger {
 public:
  explicit StderrLogger(InfoLogLevel level = INFO_LEVEL) : Logger(level) {}
  using Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    std::vfprintf(stderr, format, ap);
    std::fputc('\n', stderr);
  }
};

// The engine options backup and restore take from the command line:
// --backup_dir (required), --num_threads, --stderr_log_level (a logger
// kept in *logger). strata has no Env registry: --backup_env_uri and
// --backup_fs_uri are refused.
ExecResult BackupOptions(Invocation* inv, std::unique_ptr<Logger>* logger,
                         BackupEngineOptions* options) {
  for (const char* uri : {"backup_env_uri", "backup_fs_uri"}) {
    if (inv->line().Has(uri)) {
      return ExecResult::Failed(std::string("--") + uri +
                                ": not supported by strata (no Env registry)");
    }
  }
  options->backup_dir = inv->line().Value("backup_dir");
  if (options->backup_dir.empty()) {
    return ExecResult::Failed("--backup_dir: missing backup directory");
  }
  int64_t threads, level;
  LDB_RETURN_IF_FAILED(inv->IntOption("num_threads", 1, &threads));
  LDB_RETURN_IF_FAILED(inv->IntOption("stderr_log_level", -1, &level));
  if (threads < 1 || threads > 1024) {
    return ExecResult::Failed("num_threads must be from 1 to 1024");
  }
  options->max_background_operations = static_cast<int>(threads);
  if (inv->line().Has("stderr_log_level")) {
    if (level < 0 || level >= NUM_INFO_LOG_LEVELS) {
      return ExecResult::Failed("stderr_log_level must be from 0 to " +
                                std::to_string(NUM_INFO_LOG_LEVELS - 1));
    }
    logger->reset(new StderrLogger(static_cast<InfoLogLevel>(level)));
    options->info_log = logger->get();
  }
  return ExecResult::Ok();
}

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

ExecResult RunBackup(Invocation* inv) {
  BackupEngineOptions options("");
  std::unique_ptr<Logger> logger;
  LDB_RETURN_IF_FAILED(BackupOptions(inv, &logger, &options));
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  std::fprintf(inv->out(), "open db OK\n");
  BackupEngine* raw = nullptr;
  Status s = BackupEngine::Open(options, inv->options()->env, &raw);
  std::unique_ptr<BackupEngine> engine(raw);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(inv->out(), "open backup engine OK\n");
  s = engine->CreateNewBackup(inv->db());
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(inv->out(), "create new backup OK\n");
  return ExecResult::Ok();
}

ExecResult RunRestore(Invocation* inv) {
  BackupEngineOptions options("");
  std::unique_ptr<Logger> logger;
  LDB_RETURN_IF_FAILED(BackupOptions(inv, &logger, &options));
  std::string path;
  LDB_RETURN_IF_FAILED(inv->DbPath(&path));
  BackupEngineReadOnly* raw = nullptr;
  Status s = BackupEngineReadOnly::Open(options, inv->options()->env, &raw);
  std::unique_ptr<BackupEngineReadOnly> engine(raw);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(inv->out(), "open restore engine OK\n");
  s = engine->RestoreDBFromLatestBackup(path, path);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(inv->out(), "restore from backup OK\n");
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
