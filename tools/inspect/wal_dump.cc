// ldb dump_wal (inspect.h): one line per write batch of a WAL, as
// RocksDB's dump_wal prints it.

#include <memory>
#include <ostream>
#include <string>

#include "db/write_batch_internal.h"
#include "strata/write_batch.h"
#include "tools/inspect/inspect.h"
#include "tools/inspect/log_file.h"
#include "util/logging.h"

namespace strata {
namespace inspect {

namespace {

// Appends "<OP>(<cf>) : <key> [: <value>] " per update to row.
class RowPrinter final : public WriteBatch::Handler {
 public:
  RowPrinter(bool print_values, const PrintOptions& print, std::string* row)
      : print_values_(print_values), print_(print), row_(row) {}

  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    KeyValue("PUT", cf, key, value);
    return Status::OK();
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    KeyValue("MERGE", cf, key, value);
    return Status::OK();
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    Op("DELETE", cf);
    *row_ += Key(key) + " ";
    return Status::OK();
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    Op("SINGLE_DELETE", cf);
    *row_ += Key(key) + " ";
    return Status::OK();
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin,
                       const Slice& end) override {
    Op("DELETE_RANGE", cf);
    *row_ += Key(begin) + " " + Key(end) + " ";
    return Status::OK();
  }
  // LogData blobs (the clean-close marker among them) print nothing, as
  // in RocksDB.
  void LogData(const Slice&) override {}
  // The two-phase commit markers, the transaction's name in hex.
  Status MarkBeginPrepare(bool unprepared) override {
    *row_ +=
        std::string("BEGIN_PREPARE(") + (unprepared ? "true" : "false") + ") ";
    return Status::OK();
  }
  Status MarkEndPrepare(const Slice& xid) override {
    return Marker("END_PREPARE", xid);
  }
  Status MarkCommit(const Slice& xid) override { return Marker("COMMIT", xid); }
  Status MarkRollback(const Slice& xid) override {
    return Marker("ROLLBACK", xid);
  }
  Status MarkNoop(bool) override {
    *row_ += "NOOP ";
    return Status::OK();
  }

 private:
  void Op(const char* name, uint32_t cf) {
    *row_ += std::string(name) + "(" + NumberToString(cf) + ") : ";
  }
  Status Marker(const char* name, const Slice& xid) {
    *row_ += std::string(name) + "(0x" + xid.ToString(true) + ") ";
    return Status::OK();
  }
  std::string Key(const Slice& key) const {
    return print_.key_hex ? "0x" + key.ToString(true) : key.ToString();
  }
  void KeyValue(const char* name, uint32_t cf, const Slice& key,
                const Slice& value) {
    Op(name, cf);
    *row_ += Key(key) + " ";
    if (print_values_) {
      *row_ += ": ";
      *row_ +=
          print_.value_hex ? "0x" + value.ToString(true) : value.ToString();
      *row_ += " ";
    }
  }

  const bool print_values_;
  const PrintOptions print_;
  std::string* const row_;
};

}  // namespace

Status DumpWal(Env* env, const std::string& wal_path, bool print_header,
               bool print_values, const PrintOptions& print,
               std::ostream* out) {
  // A torn tail is reported: the dump says where the file stops making
  // sense, whatever recovery would do with it.
  std::unique_ptr<LogFile> log;
  Status s = LogFile::Open(env, wal_path, WALRecoveryMode::kAbsoluteConsistency,
                           /*check_torn_tails=*/true, &log);
  if (!s.ok()) return s;
  if (print_header) {
    *out << "Sequence,Count,ByteSize,Physical Offset,Key(s)"
         << (print_values ? " : value " : "") << "\n";
  }
  WriteBatch batch;
  Slice record;
  std::string row;
  while (log->Next(&record)) {
    const std::string where =
        wal_path + " offset " + NumberToString(log->offset());
    s = BatchFromRecord(record, &batch);
    if (!s.ok()) return Status::Corruption(where, s.ToString());
    row = NumberToString(WriteBatchInternal::Sequence(&batch)) + "," +
          NumberToString(WriteBatchInternal::Count(&batch)) + "," +
          NumberToString(record.size()) + "," + NumberToString(log->offset()) +
          ",";
    RowPrinter printer(print_values, print, &row);
    s = batch.Iterate(&printer);
    if (!s.ok()) return Status::Corruption(where, s.ToString());
    *out << row << "\n";
  }
  return log->status();
}

}  // namespace inspect
}  // namespace strata
