// A program written against RocksDB's C++ API in the shape of its
// optimistic transaction example: a transaction reading its own writes
// and committing; a conflict with a write made between a GetForUpdate and
// the commit; a snapshot making an earlier outside write a conflict; save
// points; column families; a transaction reused through BeginTransaction.
//
// Built and compared as rocksdb_column_families.cc is (README.md): it
// prints keys, values and status codes, never a message.

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/optimistic_transaction_db.h"
#include "rocksdb/utilities/transaction.h"

namespace {

const char* Code(const rocksdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsBusy()) return "Busy";
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

void Show(const char* what, const rocksdb::Status& s, const std::string& v) {
  std::printf("%s: %s", what, Code(s));
  if (s.ok()) std::printf(" %s", v.c_str());
  std::printf("\n");
}

void ShowDb(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const char* key) {
  std::string v;
  rocksdb::Status s = db->Get(rocksdb::ReadOptions(), cf, key, &v);
  std::printf("  db %s: %s", key, Code(s));
  if (s.ok()) std::printf(" %s", v.c_str());
  std::printf("\n");
}

void Scan(const char* what, rocksdb::Iterator* it, bool forward) {
  std::printf("%s:", what);
  for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
       forward ? it->Next() : it->Prev()) {
    std::printf(" %s=%s", it->key().ToString().c_str(),
                it->value().ToString().c_str());
  }
  std::printf(" (%s)\n", Code(it->status()));
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
  rocksdb::OptimisticTransactionDB* txn_db = nullptr;
  Check("Open",
        rocksdb::OptimisticTransactionDB::Open(options, dbname, &txn_db));
  rocksdb::DB* db = txn_db->GetBaseDB();
  rocksdb::ColumnFamilyHandle* dflt = db->DefaultColumnFamily();
  rocksdb::WriteOptions write_options;
  rocksdb::ReadOptions read_options;
  rocksdb::OptimisticTransactionOptions txn_options;
  std::string value;

  Check("Put", db->Put(write_options, "abc", "def"));
  Check("Put", db->Put(write_options, "m", "0"));

  // 1. Reading its own writes, then a successful commit.
  std::printf("== own writes\n");
  rocksdb::Transaction* txn = txn_db->BeginTransaction(write_options);
  Check("txn Put", txn->Put("abc", "xyz"));
  Check("txn Put", txn->Put("b", "1"));
  Check("txn Delete", txn->Delete("m"));
  Show("txn Get abc", txn->Get(read_options, "abc", &value), value);
  Show("txn Get m", txn->Get(read_options, "m", &value), value);
  Show("db Get abc", db->Get(read_options, "abc", &value), value);
  std::vector<std::string> values;
  std::vector<rocksdb::Status> statuses =
      txn->MultiGet(read_options, {"abc", "b", "m", "zz"}, &values);
  for (size_t i = 0; i < statuses.size(); i++) {
    Show("txn MultiGet", statuses[i], values[i]);
  }
  {
    std::unique_ptr<rocksdb::Iterator> it(txn->GetIterator(read_options));
    Scan("txn iterator", it.get(), true);
    Scan("txn iterator backwards", it.get(), false);
  }
  std::printf("keys %d puts %d deletes %d\n", int(txn->GetNumKeys()),
              int(txn->GetNumPuts()), int(txn->GetNumDeletes()));
  std::printf("Commit: %s\n", Code(txn->Commit()));
  ShowDb(db, dflt, "abc");
  ShowDb(db, dflt, "b");
  ShowDb(db, dflt, "m");

  // 2. A key read with GetForUpdate, written outside before the commit.
  std::printf("== conflict\n");
  txn = txn_db->BeginTransaction(write_options, txn_options, txn);
  Show("GetForUpdate abc", txn->GetForUpdate(read_options, "abc", &value),
       value);
  Check("txn Put", txn->Put("abc", "from txn"));
  Check("txn Put", txn->Put("c", "from txn"));
  Check("outside Put", db->Put(write_options, "abc", "from outside"));
  std::printf("Commit: %s\n", Code(txn->Commit()));
  ShowDb(db, dflt, "abc");
  ShowDb(db, dflt, "c");
  std::printf("Rollback: %s\n", Code(txn->Rollback()));

  // 3. A snapshot: an outside write after it conflicts with the
  // transaction's later write of the key.
  std::printf("== snapshot conflict\n");
  txn_options.set_snapshot = true;
  txn = txn_db->BeginTransaction(write_options, txn_options, txn);
  const rocksdb::Snapshot* snapshot = txn->GetSnapshot();
  Check("outside Put", db->Put(write_options, "xyz", "outside"));
  rocksdb::ReadOptions at_snapshot;
  at_snapshot.snapshot = snapshot;
  Show("GetForUpdate xyz at snapshot",
       txn->GetForUpdate(at_snapshot, "xyz", &value), value);
  Check("txn Put", txn->Put("xyz", "txn"));
  std::printf("Commit: %s\n", Code(txn->Commit()));
  ShowDb(db, dflt, "xyz");

  // The same without a snapshot: the outside write came before the read.
  txn_options.set_snapshot = false;
  txn = txn_db->BeginTransaction(write_options, txn_options, txn);
  std::printf("snapshot after reuse: %s\n",
              txn->GetSnapshot() == nullptr ? "none" : "set");
  Check("outside Put", db->Put(write_options, "xyz", "outside 2"));
  Show("GetForUpdate xyz", txn->GetForUpdate(read_options, "xyz", &value),
       value);
  Check("txn Put", txn->Put("xyz", "txn 2"));
  std::printf("Commit: %s\n", Code(txn->Commit()));
  ShowDb(db, dflt, "xyz");

  // 4. Save points: writes and tracked keys after one are undone.
  std::printf("== save points\n");
  txn = txn_db->BeginTransaction(write_options, txn_options, txn);
  std::printf("RollbackToSavePoint without one: %s\n",
              Code(txn->RollbackToSavePoint()));
  Check("txn Put", txn->Put("s1", "1"));
  txn->SetSavePoint();
  Check("txn Put", txn->Put("s2", "2"));
  Show("GetForUpdate s3", txn->GetForUpdate(read_options, "s3", &value), value);
  std::printf("keys before rollback %d\n", int(txn->GetNumKeys()));
  std::printf("RollbackToSavePoint: %s\n", Code(txn->RollbackToSavePoint()));
  std::printf("keys after rollback %d\n", int(txn->GetNumKeys()));
  Show("txn Get s2", txn->Get(read_options, "s2", &value), value);
  Check("outside Put", db->Put(write_options, "s3", "outside"));
  std::printf("Commit: %s\n", Code(txn->Commit()));
  ShowDb(db, dflt, "s1");
  ShowDb(db, dflt, "s2");

  // 5. A column family, and a transaction's misuse answers.
  std::printf("== column family\n");
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  Check("CreateColumnFamily",
        db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), "cf", &cf));
  txn = txn_db->BeginTransaction(write_options, txn_options, txn);
  Check("txn Put cf", txn->Put(cf, "k", "in cf"));
  Show("txn Get cf k", txn->Get(read_options, cf, "k", &value), value);
  Show("txn Get default k", txn->Get(read_options, "k", &value), value);
  std::printf("Commit: %s\n", Code(txn->Commit()));
  ShowDb(db, cf, "k");
  std::printf("Commit again: %s\n", Code(txn->Commit()));
  std::printf("Prepare: %s\n", Code(txn->Prepare()));
  std::printf("SetName: %s\n", Code(txn->SetName("t")));
  delete txn;

  Check("DestroyColumnFamilyHandle", db->DestroyColumnFamilyHandle(cf));
  delete txn_db;

  std::printf("done\n");
  return 0;
}
