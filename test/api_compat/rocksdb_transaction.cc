// A program written against RocksDB's C++ API in the shape of its
// (pessimistic) transaction example: a transaction's lock keeping a
// write outside it waiting and timing out; read committed (no snapshot)
// against repeatable read (a snapshot, so a write made after it is a
// conflict caught when the key is locked); save points; a lock held
// between two transactions; a named transaction prepared, then
// committed.
//
// Built and compared as rocksdb_column_families.cc is (README.md): it
// prints keys, values and status codes, never a message.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"

namespace {

const char* Code(const rocksdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsBusy()) return "Busy";
  if (s.IsTimedOut()) {
    return s.subcode() == rocksdb::Status::kLockTimeout ? "TimedOut(lock)"
                                                        : "TimedOut";
  }
  if (s.IsExpired()) return "Expired";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsNotSupported()) return "NotSupported";
  return "other error";
}

void Check(const char* what, const rocksdb::Status& s) {
  if (!s.ok()) {
    std::printf("%s failed: %s\n", what, Code(s));
    std::exit(1);
  }
}

void Show(const char* what, const rocksdb::Status& s) {
  std::printf("%s: %s\n", what, Code(s));
}

void Show(const char* what, const rocksdb::Status& s, const std::string& v) {
  std::printf("%s: %s", what, Code(s));
  if (s.ok()) std::printf(" %s", v.c_str());
  std::printf("\n");
}

void ShowDb(rocksdb::DB* db, const char* key) {
  std::string v;
  rocksdb::Status s = db->Get(rocksdb::ReadOptions(), key, &v);
  std::printf("  db %s: %s", key, Code(s));
  if (s.ok()) std::printf(" %s", v.c_str());
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <db directory>\n", argv[0]);
    return 2;
  }
  const std::string dbname = argv[1];
  rocksdb::Options options;
  options.create_if_missing = true;
  options.allow_2pc = true;
  rocksdb::TransactionDBOptions txn_db_options;
  txn_db_options.transaction_lock_timeout = 20;
  txn_db_options.default_lock_timeout = 20;
  rocksdb::TransactionDB* txn_db = nullptr;
  Check("Open",
        rocksdb::TransactionDB::Open(options, txn_db_options, dbname, &txn_db));
  rocksdb::WriteOptions write_options;
  rocksdb::ReadOptions read_options;
  rocksdb::TransactionOptions txn_options;
  std::string value;

  // 1. A transaction's lock: a write outside it times out until it
  // commits.
  std::printf("== lock\n");
  rocksdb::Transaction* txn = txn_db->BeginTransaction(write_options);
  Show("txn Get abc", txn->Get(read_options, "abc", &value), value);
  Check("txn Put", txn->Put("abc", "def"));
  Show("txn Get abc", txn->Get(read_options, "abc", &value), value);
  Show("outside Put abc", txn_db->Put(write_options, "abc", "xyz"));
  Show("outside Put zzz", txn_db->Put(write_options, "zzz", "1"));
  Show("Commit", txn->Commit());
  std::printf("  txn state %d\n", static_cast<int>(txn->GetState()));
  Show("Commit again", txn->Commit());
  ShowDb(txn_db, "abc");
  ShowDb(txn_db, "zzz");
  delete txn;

  // 2. Read committed: without a snapshot a transaction reads the latest
  // committed value each time.
  std::printf("== read committed\n");
  txn = txn_db->BeginTransaction(write_options);
  Show("txn Get abc", txn->Get(read_options, "abc", &value), value);
  Check("outside Put", txn_db->Put(write_options, "abc", "xyz"));
  Show("txn Get abc", txn->Get(read_options, "abc", &value), value);
  Show("txn GetForUpdate abc", txn->GetForUpdate(read_options, "abc", &value),
       value);
  Show("outside Put abc", txn_db->Put(write_options, "abc", "again"));
  Check("txn Put", txn->Put("abc", "rc"));
  Show("Commit", txn->Commit());
  ShowDb(txn_db, "abc");
  delete txn;

  // 3. Repeatable read: with a snapshot, a key written by another after
  // the snapshot cannot be locked (Busy); reads at the snapshot see the
  // value as it was.
  std::printf("== repeatable read\n");
  txn_options.set_snapshot = true;
  txn = txn_db->BeginTransaction(write_options, txn_options);
  const rocksdb::Snapshot* snapshot = txn->GetSnapshot();
  Check("outside Put", txn_db->Put(write_options, "abc", "later"));
  rocksdb::ReadOptions at_snapshot;
  at_snapshot.snapshot = snapshot;
  Show("txn Get abc at snapshot", txn->Get(at_snapshot, "abc", &value), value);
  Show("txn GetForUpdate abc", txn->GetForUpdate(at_snapshot, "abc", &value),
       value);
  Show("txn Put abc", txn->Put("abc", "rr"));
  Show("txn Put new", txn->Put("new", "rr"));
  Show("Commit", txn->Commit());
  ShowDb(txn_db, "abc");
  ShowDb(txn_db, "new");
  delete txn;
  txn_options.set_snapshot = false;

  // 4. Save points.
  std::printf("== save points\n");
  txn = txn_db->BeginTransaction(write_options);
  Check("txn Put", txn->Put("s1", "1"));
  txn->SetSavePoint();
  Check("txn Put", txn->Put("s2", "2"));
  Check("txn Put", txn->Put("s1", "changed"));
  Show("txn Get s1", txn->Get(read_options, "s1", &value), value);
  Show("RollbackToSavePoint", txn->RollbackToSavePoint());
  Show("txn Get s1", txn->Get(read_options, "s1", &value), value);
  Show("txn Get s2", txn->Get(read_options, "s2", &value), value);
  Show("outside Put s2", txn_db->Put(write_options, "s2", "outside"));
  Show("outside Put s1", txn_db->Put(write_options, "s1", "outside"));
  Show("RollbackToSavePoint", txn->RollbackToSavePoint());
  Show("Commit", txn->Commit());
  ShowDb(txn_db, "s1");
  ShowDb(txn_db, "s2");
  delete txn;

  // 5. Two transactions: the second waits for the first's lock and
  // times out; after the first rolls back it gets it.
  std::printf("== two transactions\n");
  rocksdb::Transaction* t1 = txn_db->BeginTransaction(write_options);
  txn_options.lock_timeout = 10;
  rocksdb::Transaction* t2 =
      txn_db->BeginTransaction(write_options, txn_options);
  Check("t1 GetForUpdate", t1->GetForUpdate(read_options, "abc", &value));
  Show("t2 GetForUpdate abc", t2->GetForUpdate(read_options, "abc", &value),
       value);
  Show("t2 Put abc", t2->Put("abc", "t2"));
  Show("t1 Rollback", t1->Rollback());
  Show("t2 Put abc", t2->Put("abc", "t2"));
  Show("t2 Commit", t2->Commit());
  ShowDb(txn_db, "abc");
  delete t1;
  delete t2;

  // 6. Two-phase commit: named, prepared (listed, not visible), then
  // committed.
  std::printf("== two-phase commit\n");
  txn = txn_db->BeginTransaction(write_options);
  Show("Prepare unnamed", txn->Prepare());
  Check("SetName", txn->SetName("xid1"));
  Check("txn Put", txn->Put("p", "prepared"));
  Show("Prepare", txn->Prepare());
  std::vector<rocksdb::Transaction*> prepared;
  txn_db->GetAllPreparedTransactions(&prepared);
  std::printf("  prepared: %zu, by name: %s\n", prepared.size(),
              txn_db->GetTransactionByName("xid1") == txn ? "same" : "other");
  ShowDb(txn_db, "p");
  Show("Commit", txn->Commit());
  ShowDb(txn_db, "p");
  std::printf(
      "  by name after commit: %s\n",
      txn_db->GetTransactionByName("xid1") == nullptr ? "none" : "some");
  delete txn;

  delete txn_db;
  std::printf("done\n");
  return 0;
}
