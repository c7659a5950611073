#include "tools/db_stress/stress_flags.h"

#include <charconv>
#include <cstring>
#include <utility>
#include <vector>

namespace strata {
namespace stress {

namespace {

// A flag: its name, where it goes (one of the three pointers), and help.
struct FlagDef {
  const char* name;
  bool* b;
  int64_t* i;
  std::string* s;
  const char* help;
};

FlagDef B(const char* name, bool* p, const char* help) {
  return {name, p, nullptr, nullptr, help};
}
FlagDef I(const char* name, int64_t* p, const char* help) {
  return {name, nullptr, p, nullptr, help};
}
FlagDef S(const char* name, std::string* p, const char* help) {
  return {name, nullptr, nullptr, p, help};
}

std::vector<FlagDef> Defs(StressFlags* f) {
  return {
      S("db", &f->db, "DB directory"),
      S("expected_values_dir", &f->expected_values_dir,
        "directory of the expected-state file (default: <db>_expected)"),
      I("threads", &f->threads, "threads doing operations"),
      I("ops_per_thread", &f->ops_per_thread, "operations per thread"),
      I("max_key", &f->max_key, "keys are 0..max_key-1 in every family"),
      I("column_families", &f->column_families, "column families used"),
      I("reopen", &f->reopen, "times the DB is closed, reopened, verified"),
      I("seed", &f->seed, "random seed (0: from the clock)"),
      B("destroy_db_initially", &f->destroy_db_initially,
        "destroy the DB and reset the expected state first"),
      B("verify_only", &f->verify_only,
        "open, verify every key, close; no operations"),
      I("log2_keys_per_lock", &f->log2_keys_per_lock,
        "keys per lock of the expected state, as a power of 2"),
      I("readpercent", &f->readpercent, "percent of ops that are Get"),
      I("prefixpercent", &f->prefixpercent,
        "percent of ops that scan one 8-key block (a prefix of the key "
        "with its 3 low bits dropped)"),
      I("writepercent", &f->writepercent, "percent of ops that write"),
      I("delpercent", &f->delpercent,
        "percent of ops that Delete (SingleDelete on no-overwrite keys)"),
      I("delrangepercent", &f->delrangepercent,
        "percent of ops that DeleteRange"),
      I("iterpercent", &f->iterpercent,
        "percent of ops that iterate both ways between bounds"),
      I("nooverwritepercent", &f->nooverwritepercent,
        "percent of the keys (the top ones) never overwritten: written only "
        "when absent, removed with SingleDelete, outside any DeleteRange"),
      I("range_deletion_width", &f->range_deletion_width,
        "keys a DeleteRange covers at most"),
      B("use_merge", &f->use_merge, "half of the writes are Merge"),
      B("use_multiget", &f->use_multiget, "half of the reads are MultiGet"),
      B("test_batches_snapshots", &f->test_batches_snapshots,
        "every write is one batch writing the key in every family; every "
        "read checks all families agree at one snapshot"),
      I("batch_one_in", &f->batch_one_in,
        "1 in N writes is a batch over every family (0: never)"),
      I("acquire_snapshot_one_in", &f->acquire_snapshot_one_in,
        "1 in N ops takes a snapshot, re-read after snapshot_hold_ops ops"),
      I("snapshot_hold_ops", &f->snapshot_hold_ops,
        "ops a snapshot is held for"),
      I("flush_one_in", &f->flush_one_in, "1 in N ops flushes (0: never)"),
      I("compact_range_one_in", &f->compact_range_one_in,
        "1 in N ops compacts a key range (0: never)"),
      I("sync_wal_one_in", &f->sync_wal_one_in,
        "1 in N ops of thread 0 is a sync point (SyncWAL, or Flush with "
        "disable_wal) when writes may be lost"),
      I("clear_column_family_one_in", &f->clear_column_family_one_in,
        "1 in N ops of thread 0 drops a family other than the default and "
        "creates it again, empty (0: never)"),
      B("sync", &f->sync, "WriteOptions::sync"),
      B("disable_wal", &f->disable_wal, "WriteOptions::disableWAL"),
      B("unordered_write", &f->unordered_write, "Options::unordered_write"),
      B("unordered_write_snapshot_safe", &f->unordered_write_snapshot_safe,
        "Options::unordered_write_snapshot_safe"),
      B("enable_pipelined_write", &f->enable_pipelined_write,
        "Options::enable_pipelined_write"),
      B("use_direct_reads", &f->use_direct_reads, "Options::use_direct_reads"),
      S("compression_type", &f->compression_type, "none, snappy or zlib"),
      I("write_buffer_size", &f->write_buffer_size, "bytes per memtable"),
      I("target_file_size_base", &f->target_file_size_base,
        "bytes per level-1 table"),
      I("max_bytes_for_level_base", &f->max_bytes_for_level_base,
        "bytes of level 1"),
      S("memtablerep", &f->memtablerep, "skip_list or vector"),
      I("kill_random_test", &f->kill_random_test,
        "at each kill point, end the process with odds 1/N (0: never)"),
      S("kill_exclude_prefixes", &f->kill_exclude_prefixes,
        "comma-separated prefixes of kill point names never to kill at "
        "(e.g. WAL:: to reach the rarer points)"),
      I("crash_after_ms", &f->crash_after_ms,
        "end the process as a crash after N ms (0: never)"),
      B("power_loss", &f->power_loss,
        "run on the fault-injection Env; a crash (kill point or "
        "crash_after_ms) drops unsynced data first"),
  };
}

std::string DefaultText(const FlagDef& d) {
  if (d.b != nullptr) return *d.b ? "true" : "false";
  if (d.i != nullptr) return std::to_string(*d.i);
  return "\"" + *d.s + "\"";
}

bool SetFlag(const FlagDef& d, const std::string& value) {
  if (d.s != nullptr) {
    *d.s = value;
    return true;
  }
  if (d.b != nullptr) {
    if (value == "true" || value == "1") {
      *d.b = true;
    } else if (value == "false" || value == "0") {
      *d.b = false;
    } else {
      return false;
    }
    return true;
  }
  const char* first = value.data();
  const char* last = first + value.size();
  const auto r = std::from_chars(first, last, *d.i);
  return r.ec == std::errc() && r.ptr == last && !value.empty();
}

Status Bad(const char* flag, const std::string& why) {
  return Status::InvalidArgument(std::string("--") + flag, why);
}

}  // namespace

Status ParseStressFlags(int argc, const char* const* argv, StressFlags* flags,
                        bool* help) {
  *help = false;
  const std::vector<FlagDef> defs = Defs(flags);
  for (int a = 1; a < argc; a++) {
    std::string arg = argv[a];
    size_t dashes = arg.compare(0, 2, "--") == 0 ? 2 : (arg[0] == '-' ? 1 : 0);
    if (dashes == 0) {
      return Status::InvalidArgument("not a flag", arg);
    }
    arg = arg.substr(dashes);
    if (arg == "help") {
      *help = true;
      return Status::OK();
    }
    const size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    const FlagDef* def = nullptr;
    for (const FlagDef& d : defs) {
      if (name == d.name) def = &d;
    }
    if (def == nullptr && eq == std::string::npos &&
        name.compare(0, 2, "no") == 0) {
      for (const FlagDef& d : defs) {
        if (d.b != nullptr && name.substr(2) == d.name) def = &d;
      }
      if (def != nullptr) value = "false";
    } else if (def != nullptr && def->b != nullptr && eq == std::string::npos) {
      value = "true";
    }
    if (def == nullptr) {
      return Status::InvalidArgument("unknown flag --" + name,
                                     "see db_stress --help");
    }
    if (!SetFlag(*def, value)) {
      return Status::InvalidArgument("bad value for --" + name, value);
    }
  }
  return Status::OK();
}

Status ValidateStressFlags(const StressFlags& f) {
  if (f.db.empty()) return Bad("db", "is required");
  if (f.threads < 1 || f.threads > 1024) return Bad("threads", "1..1024");
  if (f.ops_per_thread < 0) return Bad("ops_per_thread", "must be >= 0");
  if (f.max_key < 1 || f.max_key > (int64_t{1} << 30)) {
    return Bad("max_key", "1..2^30");
  }
  if (f.column_families < 1 || f.column_families > 64) {
    return Bad("column_families", "1..64");
  }
  if (f.reopen < 0) return Bad("reopen", "must be >= 0");
  if (f.log2_keys_per_lock < 0 || f.log2_keys_per_lock > 20) {
    return Bad("log2_keys_per_lock", "0..20");
  }
  const int64_t pcts[] = {
      f.readpercent,     f.prefixpercent, f.writepercent,      f.delpercent,
      f.delrangepercent, f.iterpercent,   f.nooverwritepercent};
  int64_t sum = 0;
  for (int64_t p : pcts) {
    if (p < 0 || p > 100) return Bad("readpercent", "percents are 0..100");
  }
  sum = f.readpercent + f.prefixpercent + f.writepercent + f.delpercent +
        f.delrangepercent + f.iterpercent;
  if (sum != 100) {
    return Bad("readpercent",
               "readpercent + prefixpercent + writepercent + delpercent + "
               "delrangepercent + iterpercent must be 100, not " +
                   std::to_string(sum));
  }
  if (f.range_deletion_width < 1) return Bad("range_deletion_width", ">= 1");
  if (f.sync && f.disable_wal) {
    return Bad("sync", "a synced write needs the WAL (--disable_wal=1)");
  }
  if (f.unordered_write && f.enable_pipelined_write) {
    return Bad("unordered_write",
               "strata (as RocksDB) does not combine it with "
               "--enable_pipelined_write");
  }
  if (f.test_batches_snapshots && f.unordered_write &&
      !f.unordered_write_snapshot_safe) {
    return Bad("test_batches_snapshots",
               "checks atomic reads, which --unordered_write gives up "
               "(unless --unordered_write_snapshot_safe)");
  }
  if (f.unordered_write_snapshot_safe && !f.unordered_write) {
    return Bad("unordered_write_snapshot_safe", "needs --unordered_write");
  }
  if (f.test_batches_snapshots && f.disable_wal) {
    // Without the WAL a batch over several families is atomic only until
    // one family's memtable is flushed and the other's is lost.
    return Bad("test_batches_snapshots",
               "checks that batches over families survive whole, which "
               "--disable_wal does not promise");
  }
  if (f.compression_type != "none" && f.compression_type != "snappy" &&
      f.compression_type != "zlib") {
    return Bad("compression_type",
               "none, snappy or zlib, not '" + f.compression_type + "'");
  }
  if (f.memtablerep == "vector" && f.unordered_write) {
    return Bad("memtablerep",
               "vector cannot take concurrent inserts, which "
               "--unordered_write needs");
  }
  if (f.memtablerep != "skip_list" && f.memtablerep != "vector") {
    return Bad("memtablerep", "skip_list or vector, not '" + f.memtablerep +
                                  "' (strata has no other)");
  }
  if (f.clear_column_family_one_in > 0 && f.test_batches_snapshots) {
    return Bad("clear_column_family_one_in",
               "empties one family, and --test_batches_snapshots checks that "
               "all families agree");
  }
  const std::pair<const char*, int64_t> counts[] = {
      {"kill_random_test", f.kill_random_test},
      {"crash_after_ms", f.crash_after_ms},
      {"batch_one_in", f.batch_one_in},
      {"acquire_snapshot_one_in", f.acquire_snapshot_one_in},
      {"snapshot_hold_ops", f.snapshot_hold_ops},
      {"flush_one_in", f.flush_one_in},
      {"compact_range_one_in", f.compact_range_one_in},
      {"sync_wal_one_in", f.sync_wal_one_in},
      {"clear_column_family_one_in", f.clear_column_family_one_in},
      {"write_buffer_size", f.write_buffer_size},
      {"target_file_size_base", f.target_file_size_base},
      {"max_bytes_for_level_base", f.max_bytes_for_level_base}};
  for (const auto& c : counts) {
    if (c.second < 0) return Bad(c.first, "must not be negative");
  }
  return Status::OK();
}

std::string StressFlagsHelp() {
  StressFlags defaults;
  std::string out =
      "db_stress: random operations on a strata DB from many threads, "
      "checked against an expected state that survives crashes.\n\n";
  for (const FlagDef& d : Defs(&defaults)) {
    out += "  --" + std::string(d.name) + " (default " + DefaultText(d) +
           ")\n      " + d.help + "\n";
  }
  return out;
}

}  // namespace stress
}  // namespace strata
