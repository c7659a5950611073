// Repairer: what RepairDB (strata/db.h) runs — a new MANIFEST rebuilt from
// the table files and WALs of a DB whose MANIFEST or CURRENT is lost or
// damaged (docs/reliability.md, "Repair").
//
// Run, in order (db/repair.cc):
//   1. takes the DB's LOCK: a DB open elsewhere fails the repair;
//   2. lists the files, and reads the old MANIFESTs as far as they are
//      intact, for the names of the column families (WAL records carry
//      only a family's id) and the counters they recorded;
//   3. opens every table and reads it whole, checksums verified, for its
//      key range, sequence range and column family (its properties); a
//      table that fails goes to <db>/lost/ (db/repair_tables.cc);
//   4. replays every WAL into one memtable per family, skipping damaged
//      records and the records of unknown families (both reported to the
//      info log), and writes the memtables as tables (db/repair_wal.cc);
//   5. makes the tables whose key ranges overlap have disjoint sequence
//      ranges, merging those that do not (a read of level 0 stops at the
//      newest table holding the key: db/repair_tables.cc);
//   6. writes a new MANIFEST listing every table at level 0 of its family,
//      with the last sequence past every entry found and the next file
//      number past every file, and points CURRENT at it;
//   7. moves the old MANIFESTs and the replayed WALs to lost/.
// Until CURRENT is replaced (6) the DB is as it was, apart from new tables
// that nothing names yet (an open deletes them, a repair reads them again);
// after, it is the repaired DB. Repairing twice is harmless.
//
// A table belongs to the family its properties name
// (strata.column.family.id and .name); a table without them, written
// before they were recorded, to the default family. A family's options
// come from the descriptors by name; a family not among them gets
// unknown_options, or without those its tables go to lost/ and its WAL
// records are dropped (RocksDB's RepairDB).
//
// Thread safety: one thread.

#ifndef STRATA_DB_REPAIR_H_
#define STRATA_DB_REPAIR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "db/log_reader.h"
#include "db/version_set.h"
#include "port/port.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/options.h"
#include "strata/status.h"

namespace strata {

class ColumnFamilyData;
class MemTable;

class Repairer {
 public:
  // unknown_options: null, or the options of families not in families.
  // REQUIRES: families names the default family (RepairDB checks).
  Repairer(const std::string& dbname, const DBOptions& db_options,
           const std::vector<ColumnFamilyDescriptor>& families,
           const ColumnFamilyOptions* unknown_options);
  Repairer(const Repairer&) = delete;
  Repairer& operator=(const Repairer&) = delete;
  ~Repairer();

  Status Run();

 private:
  // A table read whole: its metadata and the family its properties name.
  struct ScannedTable {
    FileMetaData meta;
    uint32_t family_id = 0;
    std::string family_name;
    std::string comparator;
  };
  // Reports the bytes a log reader drops (WAL or MANIFEST) to the info
  // log and keeps the first damage; keeps a read error, which ends the
  // reading.
  class RepairReporter final : public log::Reader::Reporter {
   public:
    explicit RepairReporter(Logger* info_log) : info_log_(info_log) {}
    void Corruption(size_t bytes, const Status& status) override;
    const Status& first() const { return first_; }
    const Status& read_error() const { return read_error_; }

   private:
    Logger* const info_log_;
    Status first_;
    Status read_error_;
  };
  // A table cache for each comparator the options name: a table opens
  // only with the one it was sorted by.
  struct ScanCache;

  // Step 2.
  Status FindFiles();
  void ReadOldManifests();
  // Step 3.
  void ScanTables(std::vector<ScannedTable>* scanned);
  Status ScanTable(const std::vector<std::unique_ptr<ScanCache>>& caches,
                   uint64_t number, ScannedTable* table);
  // Files each scanned table under its family, creating the families
  // (with their ids); a table no family takes goes to lost/. Then
  // creates the families the old MANIFEST names that have options.
  void AssignTables(const std::vector<ScannedTable>& scanned);
  // The family id is (named name), created if need be; null, with why,
  // when no family can take it.
  ColumnFamilyData* FamilyFor(uint32_t id, const std::string& name,
                              std::string* why);
  // Step 4.
  Status ConvertLogs();
  Status ConvertLog(uint64_t number);
  // Writes mem, of family cfd, as a new table of that family.
  Status WriteTable(ColumnFamilyData* cfd, MemTable* mem);
  // Step 5.
  Status SeparateOverlaps();
  Status MergeTables(ColumnFamilyData* cfd,
                     const std::vector<FileMetaData>& inputs,
                     FileMetaData* output);
  // Step 6.
  Status WriteManifest();
  // Moves fname (in the DB directory) to lost/; errors are logged only.
  void Archive(const std::string& fname, const std::string& why);

  const std::string dbname_;
  Env* const env_;
  DBOptions db_options_;
  // Sanitized options by family name (the default family's included).
  std::map<std::string, Options> family_options_;
  std::unique_ptr<Options> unknown_options_;
  std::shared_ptr<Logger> info_log_;

  port::Mutex mu_;
  std::unique_ptr<VersionSet> versions_;
  // The families found, by id, each referenced here.
  std::map<uint32_t, ColumnFamilyData*> families_;

  std::vector<uint64_t> tables_;
  std::vector<uint64_t> logs_;
  std::vector<uint64_t> manifests_;
  // What the old MANIFESTs name: the live families, the dropped ones.
  std::map<uint32_t, std::string> manifest_families_;
  std::set<uint32_t> dropped_families_;
  SequenceNumber max_sequence_ = 0;

  // The tables of each family the new MANIFEST lists, by family id.
  std::map<uint32_t, std::vector<FileMetaData>> good_;
  // Tables written by this repair: deleted if it fails.
  std::vector<uint64_t> written_;
  // Tables replaced by merged ones (step 5): deleted once the MANIFEST is
  // written.
  std::vector<uint64_t> replaced_;
};

}  // namespace strata

#endif  // STRATA_DB_REPAIR_H_
