// DBWithTTLImpl: DBWithTTL over any DB (include/strata/utilities/db_ttl.h).
// Writes stamp values and merge operands with the write time (a batch is
// rewritten before it reaches the inner DB); reads check and strip the
// stamps and hide expired values; each family's options carry a
// TtlCompactionFilterFactory and (with a merge operator) a
// TtlMergeOperator that share the family's TtlState.
//
// Thread safety: as DB's. families_ (id -> expiry settings) is guarded
// by mu_; a TtlState's ttl is atomic.

#ifndef STRATA_DB_UTILITIES_TTL_DB_TTL_IMPL_H_
#define STRATA_DB_UTILITIES_TTL_DB_TTL_IMPL_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/utilities/ttl/ttl_filter.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/utilities/db_ttl.h"

namespace strata {

// The options a family of a DBWithTTL runs with: options with the TTL
// filter factory and merge operator around the family's own, all sharing
// *state (set to a new TtlState of ttl on env).
ColumnFamilyOptions TtlFamilyOptions(const ColumnFamilyOptions& options,
                                     int32_t ttl, Env* env,
                                     std::shared_ptr<TtlState>* state);

// An iterator over a DBWithTTL family: it skips values expired at now
// and strips the stamps. Owns base.
Iterator* NewTtlIterator(Iterator* base, int32_t ttl, int32_t now);

class DBWithTTLImpl : public DBWithTTL {
 public:
  // Takes db; env is its clock.
  DBWithTTLImpl(DB* db, Env* env);
  ~DBWithTTLImpl() override;

  // Records family id's settings (Open's families).
  void AddFamily(uint32_t id, std::shared_ptr<TtlState> state);

  Status CreateColumnFamilyWithTtl(const ColumnFamilyOptions& options,
                                   const std::string& column_family_name,
                                   ColumnFamilyHandle** handle,
                                   int ttl) override;
  using StackableDB::CreateColumnFamily;
  Status CreateColumnFamily(const ColumnFamilyOptions& options,
                            const std::string& column_family_name,
                            ColumnFamilyHandle** handle) override;
  // Each family as CreateColumnFamily makes it (ttl 0: no expiry), so its
  // values are stamped and read back through the TTL layer; on an error
  // the families made before it stay, their handles in *handles.
  using StackableDB::CreateColumnFamilies;
  Status CreateColumnFamilies(
      const ColumnFamilyOptions& options,
      const std::vector<std::string>& column_family_names,
      std::vector<ColumnFamilyHandle*>* handles) override;
  Status CreateColumnFamilies(
      const std::vector<ColumnFamilyDescriptor>& column_families,
      std::vector<ColumnFamilyHandle*>* handles) override;

  using StackableDB::Put;
  Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, const Slice& value) override;
  using StackableDB::Merge;
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* column_family,
               const Slice& key, const Slice& value) override;
  Status Write(const WriteOptions& options, WriteBatch* updates) override;

  using StackableDB::Get;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, PinnableSlice* value) override;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, std::string* value) override;
  using StackableDB::MultiGet;
  std::vector<Status> MultiGet(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys,
      std::vector<std::string>* values) override;
  void MultiGet(const ReadOptions& options, ColumnFamilyHandle* column_family,
                const size_t num_keys, const Slice* keys, PinnableSlice* values,
                Status* statuses, const bool sorted_input = false) override;
  using StackableDB::NewIterator;
  Iterator* NewIterator(const ReadOptions& options,
                        ColumnFamilyHandle* column_family) override;
  Status NewIterators(const ReadOptions& options,
                      const std::vector<ColumnFamilyHandle*>& column_families,
                      std::vector<Iterator*>* iterators) override;

  void SetTtl(int32_t ttl) override { SetTtl(DefaultColumnFamily(), ttl); }
  void SetTtl(ColumnFamilyHandle* h, int32_t ttl) override;

 private:
  // The ttl of the family with handle h (0 if unknown: never expires).
  int32_t TtlOf(ColumnFamilyHandle* h);
  // Checks, strips and expires one value read from a family with ttl:
  // NotFound if expired.
  Status FinishRead(int32_t ttl, int32_t now, PinnableSlice* value) const;

  Env* const env_;
  port::Mutex mu_;
  std::map<uint32_t, std::shared_ptr<TtlState>> families_ GUARDED_BY(mu_);
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TTL_DB_TTL_IMPL_H_
