// Column families (docs/column_families.md): the DB's key spaces, each with
// its own comparator, options, memtables and tree of tables, sharing one
// WAL, one MANIFEST, the sequence numbers and the DB mutex.
//
//   ColumnFamilyData    one family's state
//   ColumnFamilySet     the live families by id and by name (the
//                       VersionSet owns it: families are added and
//                       dropped by MANIFEST edits)
//   ColumnFamilyHandleImpl  what the public API hands out
//
// Lifetime: a ColumnFamilyData is reference counted. The set holds one ref
// while the family is live (not dropped); handles and read views hold one
// each. The last Unref deletes it, which drops its memtables and its
// current version, so the tables only a dropped family held become
// obsolete.
//
// Thread safety: everything here is guarded by the DB mutex except what is
// marked otherwise (write_mem, read by memtable inserts without it). The
// fields are not annotated GUARDED_BY: clang cannot tie this class to the
// DBImpl's mutex, which DBImpl's own annotations check instead.

#ifndef STRATA_DB_COLUMN_FAMILY_H_
#define STRATA_DB_COLUMN_FAMILY_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/compaction_picker.h"
#include "db/dbformat.h"
#include "db/internal_stats.h"
#include "db/memtable_charges.h"
#include "db/table_cache.h"
#include "db/version.h"
#include "memtable/memtable_list.h"
#include "strata/db.h"
#include "strata/options.h"

namespace strata {

class ColumnFamilySet;
class DBImpl;
class MemTable;

class ColumnFamilyData {
 public:
  // options: the DB's options with this family's ColumnFamilyOptions,
  // already sanitized.
  ColumnFamilyData(uint32_t id, const std::string& name, const Options& options,
                   const std::string& dbname);
  ColumnFamilyData(const ColumnFamilyData&) = delete;
  ColumnFamilyData& operator=(const ColumnFamilyData&) = delete;

  void Ref() { refs_++; }
  // Deletes the family with the last ref.
  void Unref();

  uint32_t id() const { return id_; }
  const std::string& name() const { return name_; }
  const Options& options() const { return options_; }
  const InternalKeyComparator& icmp() const { return icmp_; }
  const Comparator* user_comparator() const { return icmp_.user_comparator(); }
  TableCache* table_cache() const { return table_cache_.get(); }
  const CompactionPicker& picker() const { return picker_; }
  int num_levels() const { return options_.num_levels; }

  // Replaces the options SetOptions may change (memtable size, stall
  // triggers, compaction shape: what only code under the DB mutex reads)
  // with options's, and the picker built from them.
  void SetMutableOptions(const Options& options);

  // Dropped: no longer in the set, refuses writes; its data stays readable
  // to the handles and iterators that still hold it.
  bool dropped() const { return dropped_; }

  // ---- versions (VersionSet) ----
  Version* current() const { return current_; }
  // WALs numbered below this hold nothing of this family that is not in
  // its tables.
  uint64_t log_number() const { return log_number_; }
  // The key where the next compaction of level starts ("" for none).
  const std::string& CompactPointer(int level) const {
    return compact_pointers_[level];
  }
  // Appends the files of every version of this family still referenced.
  void AddLiveFiles(std::vector<uint64_t>* live) const;
  // "files[ 2 0 3 ]": files per level of the current version.
  std::string LevelSummary() const;

  // ---- memtables (DBImpl) ----
  MemTable* mem = nullptr;
  MemTableList imm;
  // Per immutable memtable, oldest first: the WAL started when it was
  // retired. Once it is flushed, older WALs hold nothing of this family.
  std::deque<uint64_t> imm_next_logs;
  // Memtables retired and flushed since open (Flush waits on these).
  uint64_t memtables_retired = 0;
  uint64_t memtables_flushed = 0;
  // A Flush() wants the active memtable retired by the next group.
  bool flush_requested = false;
  // What the memtables have reported to the DB's WriteBufferManager.
  MemTableCharges charges;
  // Flushes, compactions and stalls of this family (strata.stats).
  InternalStats internal_stats;
  // The memtable write groups insert into, set by the leader in
  // PrepareGroup; read by inserts without the mutex.
  std::atomic<MemTable*> write_mem{nullptr};

 private:
  friend class ColumnFamilySet;
  friend class VersionSet;

  ~ColumnFamilyData();

  // Makes v (refs 0) current, in the list of live versions.
  void AppendVersion(Version* v);

  const uint32_t id_;
  const std::string name_;
  Options options_;
  const InternalKeyComparator icmp_;
  const std::unique_ptr<TableCache> table_cache_;
  CompactionPicker picker_;
  int refs_ = 0;
  bool dropped_ = false;
  // While dropped and still referenced: the set that lists it as such.
  ColumnFamilySet* dropped_from_ = nullptr;

  uint64_t log_number_ = 0;
  std::vector<std::string> compact_pointers_;
  // The ring of live versions: dummy_versions_ is its head, never used.
  Version dummy_versions_;
  Version* current_ = nullptr;
};

// The live families. Owned by the VersionSet.
class ColumnFamilySet {
 public:
  ColumnFamilySet() = default;
  ColumnFamilySet(const ColumnFamilySet&) = delete;
  ColumnFamilySet& operator=(const ColumnFamilySet&) = delete;
  // Drops the set's refs.
  ~ColumnFamilySet();

  ColumnFamilyData* Find(uint32_t id) const;
  ColumnFamilyData* FindByName(const std::string& name) const;
  ColumnFamilyData* Default() const { return Find(0); }
  // The live families in id order.
  std::vector<ColumnFamilyData*> All() const;
  size_t size() const { return by_id_.size(); }
  // The largest id ever used; new families get the next.
  uint32_t max_id() const { return max_id_; }
  void UpdateMaxId(uint32_t id) {
    if (id > max_id_) max_id_ = id;
  }

  // Takes a ref on cfd (an id and name not in the set).
  void Add(ColumnFamilyData* cfd);
  // Marks cfd dropped and drops the set's ref. Until its last ref goes it
  // stays in Dropped(): its versions still hold files.
  void Remove(ColumnFamilyData* cfd);
  // Dropped families something still references.
  const std::vector<ColumnFamilyData*>& Dropped() const { return dropped_; }

 private:
  friend class ColumnFamilyData;

  std::vector<ColumnFamilyData*> dropped_;
  std::map<uint32_t, ColumnFamilyData*> by_id_;
  std::unordered_map<std::string, uint32_t> by_name_;
  uint32_t max_id_ = 0;
};

// The families write groups insert into, by id: an immutable table the
// write path reads without the mutex. DBImpl replaces it (under the mutex,
// with no insert running) when a family is created or dropped. It holds a
// ref on each family (taken by the caller), so a family dropped while a
// group inserts into it lives until the table is replaced.
class ColumnFamilyRoutes {
 public:
  // REQUIRES: each of families referenced for the table.
  explicit ColumnFamilyRoutes(const std::vector<ColumnFamilyData*>& families);
  // Drops the refs. REQUIRES: the DB mutex held.
  void UnrefAll() {
    for (ColumnFamilyData* cfd : all_) cfd->Unref();
    all_.clear();
  }
  // Every family of the table, in id order.
  const std::vector<ColumnFamilyData*>& all() const { return all_; }
  // The family with id, or null (dropped, or never created).
  ColumnFamilyData* Find(uint32_t id) const {
    if (id < dense_.size()) return dense_[id];
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : it->second;
  }

 private:
  std::vector<ColumnFamilyData*> all_;
  std::vector<ColumnFamilyData*> dense_;  // ids below 64
  std::unordered_map<uint32_t, ColumnFamilyData*> sparse_;
};

// The public handle. It holds a ref on its family until it is destroyed
// (DB::DestroyColumnFamilyHandle or delete) or its DB closes.
class ColumnFamilyHandleImpl final : public ColumnFamilyHandle {
 public:
  // REQUIRES: the DB mutex held (takes a ref on cfd).
  ColumnFamilyHandleImpl(ColumnFamilyData* cfd, DBImpl* db);
  // Releases the ref under the DB mutex, unless the DB released it.
  ~ColumnFamilyHandleImpl() override;

  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return id_; }
  Status GetDescriptor(ColumnFamilyDescriptor* desc) override;
  const Comparator* GetComparator() const override { return comparator_; }

  DBImpl* db() const { return db_; }
  // Null once the handle is released (destroyed, or its DB closed).
  ColumnFamilyData* cfd() const { return cfd_; }
  // Drops the ref on the family. REQUIRES: the DB mutex held.
  void Release();

 private:
  ColumnFamilyData* cfd_;
  DBImpl* const db_;
  const std::string name_;
  const uint32_t id_;
  const Comparator* const comparator_;
};

}  // namespace strata

#endif  // STRATA_DB_COLUMN_FAMILY_H_
