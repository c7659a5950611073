// PessimisticTransactionDB's writes outside transactions (each locks its
// keys for its length, as RocksDB's through a transaction of its own),
// the dropping of families, and the recovery of prepared transactions.

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/utilities/transactions/pessimistic_transaction.h"
#include "db/utilities/transactions/pessimistic_transaction_db.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// The keys a batch updates, by family id.
class KeyCollector : public WriteBatch::Handler {
 public:
  explicit KeyCollector(LockedKeys* keys) : keys_(keys) {}

  Status PutCF(uint32_t id, const Slice& key, const Slice&) override {
    return Add(id, key);
  }
  Status DeleteCF(uint32_t id, const Slice& key) override {
    return Add(id, key);
  }
  Status SingleDeleteCF(uint32_t id, const Slice& key) override {
    return Add(id, key);
  }
  Status MergeCF(uint32_t id, const Slice& key, const Slice&) override {
    return Add(id, key);
  }
  Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override {
    return Status::NotSupported(
        "TransactionDB::Write: a range deletion cannot be locked (write it "
        "with TransactionDBWriteOptimizations::skip_concurrency_control)");
  }
  void LogData(const Slice&) override {}

 private:
  Status Add(uint32_t id, const Slice& key) {
    (*keys_)[id].push_back(key.ToString());
    return Status::OK();
  }

  LockedKeys* const keys_;
};

}  // namespace

Status PessimisticTransactionDB::WriteLocked(const WriteOptions& options,
                                             WriteBatch* updates) {
  LockedKeys keys;
  KeyCollector collector(&keys);
  Status s = updates->Iterate(&collector);
  if (!s.ok()) return s;
  LockRequest request;
  request.id = NextTransactionID();
  request.timeout_us = options_.default_lock_timeout < 0
                           ? -1
                           : options_.default_lock_timeout * 1000;
  // Each family's keys once, in order, the families by id: two writes
  // outside transactions then never wait for each other in a cycle.
  std::vector<uint32_t> ids;
  for (auto& family : keys) {
    std::vector<std::string>& list = family.second;
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    ids.push_back(family.first);
  }
  std::sort(ids.begin(), ids.end());
  LockedKeys taken;
  for (uint32_t id : ids) {
    s = CheckFamilyNotDropped(id);
    if (!s.ok()) break;
    const auto& family = *keys.find(id);
    for (const std::string& key : family.second) {
      s = lock_manager_.TryLock(request, family.first, key, true);
      if (!s.ok()) break;
      taken[family.first].push_back(key);
    }
    if (!s.ok()) break;
  }
  if (s.ok()) s = db_impl_->Write(options, updates);
  lock_manager_.UnLock(request.id, taken);
  return s;
}

Status PessimisticTransactionDB::Write(const WriteOptions& options,
                                       WriteBatch* updates) {
  if (options_.skip_concurrency_control)
    return db_impl_->Write(options, updates);
  return WriteLocked(options, updates);
}

Status PessimisticTransactionDB::Write(
    const WriteOptions& options,
    const TransactionDBWriteOptimizations& optimizations, WriteBatch* updates) {
  if (optimizations.skip_concurrency_control) {
    return db_impl_->Write(options, updates);
  }
  return Write(options, updates);
}

Status PessimisticTransactionDB::WriteOne(
    const WriteOptions& options,
    const std::function<Status(WriteBatch*)>& add) {
  WriteBatch batch;
  Status s = add(&batch);
  return s.ok() ? Write(options, &batch) : s;
}

Status PessimisticTransactionDB::Put(const WriteOptions& options,
                                     ColumnFamilyHandle* column_family,
                                     const Slice& key, const Slice& value) {
  return WriteOne(options, [&](WriteBatch* b) {
    return b->Put(column_family, key, value);
  });
}

Status PessimisticTransactionDB::Delete(const WriteOptions& options,
                                        ColumnFamilyHandle* column_family,
                                        const Slice& key) {
  return WriteOne(options,
                  [&](WriteBatch* b) { return b->Delete(column_family, key); });
}

Status PessimisticTransactionDB::SingleDelete(const WriteOptions& options,
                                              ColumnFamilyHandle* column_family,
                                              const Slice& key) {
  return WriteOne(options, [&](WriteBatch* b) {
    return b->SingleDelete(column_family, key);
  });
}

Status PessimisticTransactionDB::Merge(const WriteOptions& options,
                                       ColumnFamilyHandle* column_family,
                                       const Slice& key, const Slice& value) {
  return WriteOne(options, [&](WriteBatch* b) {
    return b->Merge(column_family, key, value);
  });
}

Status PessimisticTransactionDB::DropColumnFamily(
    ColumnFamilyHandle* column_family) {
  const uint32_t id = column_family->GetID();
  Status s = TransactionDB::DropColumnFamily(column_family);
  if (!s.ok()) return s;
  {
    // Marked before the locks are forgotten, so no new lock lands in the
    // family after RemoveColumnFamily.
    MutexLock l(&registry_mutex_);
    dropped_.insert(id);
    any_dropped_.store(true, std::memory_order_release);
  }
  lock_manager_.RemoveColumnFamily(id);
  return s;
}

Status PessimisticTransactionDB::DropColumnFamilies(
    const std::vector<ColumnFamilyHandle*>& column_families) {
  for (ColumnFamilyHandle* family : column_families) {
    Status s = DropColumnFamily(family);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status PessimisticTransactionDB::RecoverPreparedTransactions(
    const std::vector<ColumnFamilyHandle*>& handles) {
  std::map<std::string, RecoveredTransaction> recovered =
      db_impl_->TakeRecoveredTransactions();
  std::map<uint32_t, ColumnFamilyHandle*> families;
  families[0] = DefaultColumnFamily();
  for (ColumnFamilyHandle* handle : handles) families[handle->GetID()] = handle;
  std::string name;
  auto resolve = [&](uint32_t id, ColumnFamilyHandle** family) {
    auto it = families.find(id);
    if (it == families.end()) {
      return Status::InvalidArgument(
          "TransactionDB::Open: prepared transaction " + name +
          " updates column family " + std::to_string(id) +
          ", which is not among the families opened");
    }
    *family = it->second;
    return Status::OK();
  };
  for (auto& entry : recovered) {
    // Nothing else runs yet: the locks are free; and the transaction
    // never expires, nor takes a snapshot to validate against.
    auto* txn =
        new PessimisticTransaction(this, WriteOptions(), TransactionOptions());
    name = entry.first;
    Status s = txn->SetName(name);
    if (s.ok()) {
      txn->SetLogNumber(entry.second.log_number);
      s = txn->ReplayBatch(entry.second.updates, resolve);
    }
    if (!s.ok()) {
      delete txn;
      return s;
    }
    // Registered under its name, the DB deletes it at close if the
    // application does not.
    txn->MarkRecoveredPrepared();
  }
  return Status::OK();
}

}  // namespace strata
