// Data access commands: reading and writing single keys, scanning a
// range, the approximate size of a range, and a consistency check.

#include <cinttypes>
#include <memory>

#include "tools/ldb/command.h"
#include "tools/ldb/format.h"

namespace strata {
namespace ldb {

namespace {

// Prints "OK" for a write that succeeded, else fails with its status.
ExecResult ReportWrite(Invocation* inv, const Status& s) {
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(inv->out(), "OK\n");
  return ExecResult::Ok();
}

// A command taking exactly one key, written with write(db, family, key).
template <typename Write>
ExecResult RunOneKeyWrite(Invocation* inv, const char* missing_message,
                          Write write) {
  if (inv->params().size() != 1) return ExecResult::Failed(missing_message);
  std::string key;
  LDB_RETURN_IF_FAILED(inv->DecodeKey(inv->params()[0], &key));
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  return ReportWrite(inv, write(inv->db(), inv->family(), key));
}

}  // namespace

ExecResult RunGet(Invocation* inv) {
  if (inv->params().size() != 1) {
    return ExecResult::Failed("<key> must be specified for the get command");
  }
  std::string key;
  LDB_RETURN_IF_FAILED(inv->DecodeKey(inv->params()[0], &key));
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  std::string value;
  Status s = inv->db()->Get(ReadOptions(), inv->family(), key, &value);
  if (!s.ok()) return ExecResult::Failed("Get failed: " + s.ToString());
  PrintCString(inv->out(), inv->EncodeValue(value));
  std::fputc('\n', inv->out());
  return ExecResult::Ok();
}

ExecResult RunPut(Invocation* inv) {
  if (inv->params().size() != 2) {
    return ExecResult::Failed(
        "<key> and <value> must be specified for the put command");
  }
  std::string key, value;
  LDB_RETURN_IF_FAILED(inv->DecodeKey(inv->params()[0], &key));
  LDB_RETURN_IF_FAILED(inv->DecodeValue(inv->params()[1], &value));
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  return ReportWrite(inv,
                     inv->db()->Put(WriteOptions(), inv->family(), key, value));
}

ExecResult RunBatchPut(Invocation* inv) {
  const std::vector<std::string>& params = inv->params();
  if (params.empty() || params.size() % 2 != 0) {
    return ExecResult::Failed(
        "At least one <key> <value> pair must be specified batchput.");
  }
  std::vector<std::pair<std::string, std::string>> pairs(params.size() / 2);
  for (size_t i = 0; i < pairs.size(); i++) {
    LDB_RETURN_IF_FAILED(inv->DecodeKey(params[2 * i], &pairs[i].first));
    LDB_RETURN_IF_FAILED(inv->DecodeValue(params[2 * i + 1], &pairs[i].second));
  }
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  WriteBatch batch;
  for (const auto& pair : pairs) {
    Status s = batch.Put(inv->family(), pair.first, pair.second);
    if (!s.ok()) return ExecResult::Failed(s.ToString());
  }
  return ReportWrite(inv, inv->db()->Write(WriteOptions(), &batch));
}

ExecResult RunDelete(Invocation* inv) {
  return RunOneKeyWrite(
      inv, "KEY must be specified for the delete command",
      [](DB* db, ColumnFamilyHandle* family, const std::string& key) {
        return db->Delete(WriteOptions(), family, key);
      });
}

ExecResult RunSingleDelete(Invocation* inv) {
  return RunOneKeyWrite(
      inv, "KEY must be specified for the single delete command",
      [](DB* db, ColumnFamilyHandle* family, const std::string& key) {
        return db->SingleDelete(WriteOptions(), family, key);
      });
}

ExecResult RunDeleteRange(Invocation* inv) {
  if (inv->params().size() != 2) {
    return ExecResult::Failed(
        "begin and end keys must be specified for the delete command");
  }
  std::string begin, end;
  LDB_RETURN_IF_FAILED(inv->DecodeKey(inv->params()[0], &begin));
  LDB_RETURN_IF_FAILED(inv->DecodeKey(inv->params()[1], &end));
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  return ReportWrite(
      inv, inv->db()->DeleteRange(WriteOptions(), inv->family(), begin, end));
}

ExecResult RunScan(Invocation* inv) {
  KeyRange range;
  int64_t max_keys;
  LDB_RETURN_IF_FAILED(inv->ReadKeyRange(&range));
  LDB_RETURN_IF_FAILED(inv->IntOption("max_keys", -1, &max_keys));
  const bool no_value = inv->line().Has("no_value");
  LDB_RETURN_IF_FAILED(inv->OpenDb());

  std::unique_ptr<Iterator> it = inv->IterateFrom(range);
  int64_t printed = 0;
  for (; it->Valid() && !range.Past(it->key()); it->Next()) {
    PrintCString(inv->out(), inv->EncodeKey(it->key()));
    if (!no_value) {
      std::fputs(" : ", inv->out());
      PrintCString(inv->out(), inv->EncodeValue(it->value()));
    }
    std::fputc('\n', inv->out());
    // Counted after printing, as RocksDB's ldb does: --max_keys=0 still
    // prints one key, and a negative value means no limit.
    printed++;
    if (max_keys >= 0 && printed >= max_keys) break;
  }
  if (!it->status().ok()) return ExecResult::Failed(it->status().ToString());
  return ExecResult::Ok();
}

ExecResult RunApproxSize(Invocation* inv) {
  KeyRange range;
  LDB_RETURN_IF_FAILED(inv->ReadKeyRange(&range));
  if (!range.has_from) {
    return ExecResult::Failed("from must be specified for approxsize command");
  }
  if (!range.has_to) {
    return ExecResult::Failed("to must be specified for approxsize command");
  }
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  const Range sized(range.from, range.to);
  uint64_t size = 0;
  Status s = inv->db()->GetApproximateSizes(inv->family(), &sized, 1, &size);
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  std::fprintf(inv->out(), "%" PRIu64 "\n", size);
  return ExecResult::Ok();
}

ExecResult RunCheckConsistency(Invocation* inv) {
  // Open with paranoid checks, then read every family through with
  // checksums verified: each table's blocks and the WAL are checked.
  inv->options()->paranoid_checks = true;
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  ReadOptions read_options;
  read_options.verify_checksums = true;
  read_options.fill_cache = false;
  for (ColumnFamilyHandle* family : inv->families()) {
    std::unique_ptr<Iterator> it(inv->db()->NewIterator(read_options, family));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
    if (!it->status().ok()) {
      return ExecResult::Failed(it->status().ToString());
    }
  }
  std::fprintf(inv->out(), "OK\n");
  return ExecResult::Ok();
}

}  // namespace ldb
}  // namespace strata
