// DBWithTTL: a DB whose entries expire. Each value is stored with the
// time it was written (docs/formats/ttl.md); once older than its column
// family's ttl (seconds) it reads as absent (Get, MultiGet, iterators),
// and a compaction filter removes it when its table is compacted.
// Shaped as RocksDB's, so programs written for it compile here.
//
// - A ttl of 0 or less never expires (values still carry a timestamp).
// - The time is the Env's clock (Env::NowMicros, in whole seconds), so a
//   test may advance it with an EnvWrapper.
// - An expired entry a live snapshot can see is kept by compactions (the
//   compaction filter rule, docs/compaction.md) but still reads as absent.
// - The family's own compaction_filter / compaction_filter_factory and
//   merge_operator keep working: they see values without timestamps.
// - Opening the same DB without DBWithTTL shows the timestamps as the
//   values' last 4 bytes; opening a DB written without it fails reads
//   with Corruption.
//
// Thread safety: as DB's; SetTtl may be called while others read and
// write (compactions starting after it use the new ttl).

#ifndef STRATA_INCLUDE_UTILITIES_DB_TTL_H_
#define STRATA_INCLUDE_UTILITIES_DB_TTL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"
#include "strata/utilities/stackable_db.h"

namespace strata {

class STRATA_EXPORT DBWithTTL : public StackableDB {
 public:
  // Creates a family whose entries expire after ttl seconds.
  virtual Status CreateColumnFamilyWithTtl(
      const ColumnFamilyOptions& options, const std::string& column_family_name,
      ColumnFamilyHandle** handle, int ttl) = 0;

  // Opens the DB at dbname (as DB::Open, or DB::OpenForReadOnly with
  // read_only) with ttl for the default family; *dbptr is the caller's.
  static Status Open(const Options& options, const std::string& dbname,
                     DBWithTTL** dbptr, int32_t ttl = 0,
                     bool read_only = false);

  // With column families: ttls[i] is column_families[i]'s ttl; the two
  // vectors must be as long (InvalidArgument otherwise).
  static Status Open(const DBOptions& db_options, const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles,
                     DBWithTTL** dbptr, const std::vector<int32_t>& ttls,
                     bool read_only = false);

  // Changes the ttl of the default family, or of h's.
  virtual void SetTtl(int32_t ttl) = 0;
  virtual void SetTtl(ColumnFamilyHandle* h, int32_t ttl) = 0;

 protected:
  explicit DBWithTTL(DB* db) : StackableDB(db) {}
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_DB_TTL_H_
