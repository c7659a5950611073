// The command table: one row per command, in the order of the help.

#include "tools/ldb/command.h"

namespace strata {
namespace ldb {

const std::vector<CommandSpec>& CommandTable() {
  using G = CommandGroup;
  static const std::vector<CommandSpec> kTable = {
      {"put",
       G::kDataAccess,
       "<key> <value> [--create_if_missing]",
       {},
       RunPut},
      {"get", G::kDataAccess, "<key>", {}, RunGet},
      {"batchput",
       G::kDataAccess,
       "<key> <value> [<key> <value>] [..] [--create_if_missing]",
       {},
       RunBatchPut},
      {"scan",
       G::kDataAccess,
       "[--from] [--to] [--max_keys=<N>] [--no_value]",
       {"from=", "to=", "max_keys=", "no_value"},
       RunScan},
      {"delete", G::kDataAccess, "<key>", {}, RunDelete},
      {"singledelete", G::kDataAccess, "<key>", {}, RunSingleDelete},
      {"deleterange",
       G::kDataAccess,
       "<begin key> <end key>",
       {},
       RunDeleteRange},
      {"approxsize",
       G::kDataAccess,
       "[--from] [--to]",
       {"from=", "to="},
       RunApproxSize},
      {"checkconsistency", G::kDataAccess, "", {}, RunCheckConsistency},
      {"compact", G::kAdmin, "[--from] [--to]", {"from=", "to="}, RunCompact},
      {"dump",
       G::kAdmin,
       "[--from] [--to] [--max_keys=<N>] [--count_only] "
       "[--count_delim=<char>] [--stats] [--path=<path_to_a_file>]",
       {"from=", "to=", "max_keys=", "count_only", "count_delim[=]", "stats",
        "path="},
       RunDump},
      {"idump",
       G::kAdmin,
       "[--from] [--to] [--max_keys=<N>] [--count_only]",
       {"from=", "to=", "max_keys=", "count_only"},
       RunInternalDump},
      {"manifest_dump",
       G::kAdmin,
       "[--verbose] [--path=<path_to_manifest_file>]",
       {"verbose", "path="},
       RunManifestDump},
      {"dump_wal",
       G::kAdmin,
       "--walfile=<write_ahead_log_file_path> [--header] [--print_value]",
       {"walfile=", "header", "print_header", "print_value", "print_values",
        "write_committed="},
       RunDumpWal},
      {"list_live_files_metadata",
       G::kAdmin,
       "[--sort_by_filename]",
       {"sort_by_filename"},
       RunListLiveFilesMetaData},
      {"load",
       G::kAdmin,
       "[--create_if_missing] [--disable_wal] [--bulk_load] [--compact]",
       {"disable_wal", "bulk_load", "compact"},
       RunLoad},
      {"get_property", G::kAdmin, "<property_name>", {}, RunGetProperty},
      {"repair", G::kAdmin, "[--verbose]", {"verbose"}, RunRepair},
      {"backup",
       G::kAdmin,
       "[--backup_dir] [--num_threads] "
       "[--stderr_log_level=<int (InfoLogLevel)>]",
       {"backup_dir=", "num_threads=", "stderr_log_level=", "backup_env_uri=",
        "backup_fs_uri="},
       RunBackup},
      {"restore",
       G::kAdmin,
       "[--backup_dir] [--num_threads] "
       "[--stderr_log_level=<int (InfoLogLevel)>]",
       {"backup_dir=", "num_threads=", "stderr_log_level=", "backup_env_uri=",
        "backup_fs_uri="},
       RunRestore},
      {"checkpoint",
       G::kAdmin,
       "[--checkpoint_dir]",
       {"checkpoint_dir="},
       RunCheckpoint},
      {"list_column_families", G::kAdmin, "", {}, RunListColumnFamilies},
      {"create_column_family",
       G::kAdmin,
       "--db=<db_path> <new_column_family_name>",
       {},
       RunCreateColumnFamily},
      {"drop_column_family",
       G::kAdmin,
       "--db=<db_path> <column_family_name_to_drop>",
       {},
       RunDropColumnFamily},
  };
  return kTable;
}

const CommandSpec* FindCommand(const std::string& name) {
  for (const CommandSpec& spec : CommandTable()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

namespace {

void AppendGroup(CommandGroup group, const char* title, std::string* text) {
  text->append(title);
  for (const CommandSpec& spec : CommandTable()) {
    if (spec.group != group) continue;
    text->append("  ").append(spec.name);
    if (spec.help[0] != '\0') text->append(" ").append(spec.help);
    text->append("\n");
  }
}

}  // namespace

std::string UsageText() {
  std::string text =
      "ldb - strata Tool\n"
      "\n"
      "commands MUST specify --db=<full_path_to_db_directory> when "
      "necessary\n"
      "\n"
      "The following optional parameters control if keys/values are "
      "input/output as hex or as plain strings:\n"
      "  --key_hex : Keys are input/output as hex\n"
      "  --value_hex : Values are input/output as hex\n"
      "  --hex : Both keys and values are input/output as hex\n"
      "\n"
      "The following optional parameters control the database internals:\n"
      "  --column_family=<string> : name of the column family to operate "
      "on. default: default column family\n"
      "  --create_if_missing : create the DB if it does not exist\n"
      "  --try_load_options : load the options from the DB's OPTIONS file "
      "(on unless =false); a DB without one opens with default options\n"
      "  --ignore_unknown_options : ignore unknown options when loading the "
      "OPTIONS file\n"
      "\n";
  AppendGroup(CommandGroup::kDataAccess, "Data Access Commands:\n", &text);
  text.append("\n");
  AppendGroup(CommandGroup::kAdmin, "Admin Commands:\n", &text);
  return text;
}

}  // namespace ldb
}  // namespace strata
