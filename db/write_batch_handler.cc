// WriteBatch::Handler's defaults (docs/formats/write_batch.md, "Handler
// defaults"): the column-family forms pass the default family's updates to
// the plain forms and refuse the others; the two-phase commit markers are
// refused, so that only a handler that knows them sees a batch holding
// them through.

#include <cstdint>
#include <string>

#include "strata/write_batch.h"
#include "util/logging.h"

namespace strata {

namespace {

Status UnsupportedColumnFamily(const char* operation,
                               uint32_t column_family_id) {
  return Status::InvalidArgument(
      std::string(operation) + " for column family " +
      NumberToString(column_family_id) +
      " not implemented by this WriteBatch::Handler");
}

Status UnsupportedMarker(const char* marker) {
  return Status::InvalidArgument(std::string(marker) +
                                 "() handler not defined.");
}

}  // namespace

WriteBatch::Handler::~Handler() = default;

Status WriteBatch::Handler::PutCF(uint32_t column_family_id, const Slice& key,
                                  const Slice& value) {
  if (column_family_id != 0) {
    return UnsupportedColumnFamily("PutCF", column_family_id);
  }
  Put(key, value);
  return Status::OK();
}
void WriteBatch::Handler::Put(const Slice&, const Slice&) {}

Status WriteBatch::Handler::DeleteCF(uint32_t column_family_id,
                                     const Slice& key) {
  if (column_family_id != 0) {
    return UnsupportedColumnFamily("DeleteCF", column_family_id);
  }
  Delete(key);
  return Status::OK();
}
void WriteBatch::Handler::Delete(const Slice&) {}

Status WriteBatch::Handler::SingleDeleteCF(uint32_t column_family_id,
                                           const Slice& key) {
  if (column_family_id != 0) {
    return UnsupportedColumnFamily("SingleDeleteCF", column_family_id);
  }
  SingleDelete(key);
  return Status::OK();
}
void WriteBatch::Handler::SingleDelete(const Slice&) {}

Status WriteBatch::Handler::DeleteRangeCF(uint32_t, const Slice&,
                                          const Slice&) {
  return Status::InvalidArgument("DeleteRange not implemented by this handler");
}

Status WriteBatch::Handler::MergeCF(uint32_t column_family_id, const Slice& key,
                                    const Slice& value) {
  if (column_family_id != 0) {
    return UnsupportedColumnFamily("MergeCF", column_family_id);
  }
  Merge(key, value);
  return Status::OK();
}
void WriteBatch::Handler::Merge(const Slice&, const Slice&) {}

void WriteBatch::Handler::LogData(const Slice&) {}

bool WriteBatch::Handler::Continue() { return true; }

// RocksDB's messages.
Status WriteBatch::Handler::MarkBeginPrepare(bool) {
  return UnsupportedMarker("MarkBeginPrepare");
}
Status WriteBatch::Handler::MarkEndPrepare(const Slice&) {
  return UnsupportedMarker("MarkEndPrepare");
}
Status WriteBatch::Handler::MarkNoop(bool) {
  return UnsupportedMarker("MarkNoop");
}
Status WriteBatch::Handler::MarkRollback(const Slice&) {
  return UnsupportedMarker("MarkRollbackPrepare");
}
Status WriteBatch::Handler::MarkCommit(const Slice&) {
  return UnsupportedMarker("MarkCommit");
}

}  // namespace strata
