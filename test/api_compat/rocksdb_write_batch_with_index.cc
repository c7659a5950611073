// A program written against RocksDB's C++ API that reads its own writes
// through a WriteBatchWithIndex: the batch's iterator in two families (one
// in reverse order), GetFromBatch, GetFromBatchAndDB (into a string and a
// PinnableSlice, at a snapshot), MultiGetFromBatchAndDB, iterators over the
// DB with the batch applied (both ways, seeks, an upper bound), merges
// across the batch and the DB, save points, overwrite_key, a batch filled
// through WriteBatchBase, and the batch written with DB::Write.
//
// Built and compared as rocksdb_column_families.cc is (README.md): it
// prints keys, values and status codes, never a message.

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/write_batch_with_index.h"
#include "rocksdb/write_batch_base.h"

namespace {

const char* Code(const rocksdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsNotSupported()) return "NotSupported";
  if (s.IsMergeInProgress()) return "MergeInProgress";
  return "other error";
}

void Check(const char* what, const rocksdb::Status& s) {
  if (!s.ok()) {
    std::printf("%s failed: %s\n", what, Code(s));
    std::exit(1);
  }
}

// Joins values with '+'.
class Joiner : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing,
             const rocksdb::Slice& value, std::string* new_value,
             rocksdb::Logger*) const override {
    *new_value = existing == nullptr ? "" : existing->ToString() + "+";
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "Joiner"; }
};

const char* TypeName(rocksdb::WriteType t) {
  switch (t) {
    case rocksdb::kPutRecord:
      return "Put";
    case rocksdb::kMergeRecord:
      return "Merge";
    case rocksdb::kDeleteRecord:
      return "Delete";
    case rocksdb::kSingleDeleteRecord:
      return "SingleDelete";
    default:
      return "other";
  }
}

void PrintEntry(rocksdb::WBWIIterator* it) {
  if (!it->Valid()) {
    std::printf(" (end)");
    return;
  }
  rocksdb::WriteEntry e = it->Entry();
  std::printf(" %s(%s", TypeName(e.type), e.key.ToString().c_str());
  if (e.type == rocksdb::kPutRecord || e.type == rocksdb::kMergeRecord) {
    std::printf("=%s", e.value.ToString().c_str());
  }
  std::printf(")");
}

void PrintBatch(const char* what, rocksdb::WriteBatchWithIndex* wb,
                rocksdb::ColumnFamilyHandle* cf) {
  std::unique_ptr<rocksdb::WBWIIterator> it(wb->NewIterator(cf));
  std::printf("%s forward:", what);
  for (it->SeekToFirst(); it->Valid(); it->Next()) PrintEntry(it.get());
  std::printf("\n%s backward:", what);
  for (it->SeekToLast(); it->Valid(); it->Prev()) PrintEntry(it.get());
  std::printf("\n%s seeks:", what);
  for (const char* t : {"b", "c", "e", "z"}) {
    it->Seek(t);
    std::printf(" Seek(%s)", t);
    PrintEntry(it.get());
    it->SeekForPrev(t);
    std::printf(" SeekForPrev(%s)", t);
    PrintEntry(it.get());
  }
  std::printf("\n");
}

void PrintPosition(rocksdb::Iterator* it) {
  if (it->Valid()) {
    std::printf(" %s=%s", it->key().ToString().c_str(),
                it->value().ToString().c_str());
  } else {
    std::printf(" (end:%s)", Code(it->status()));
  }
}

void PrintWithBase(const char* what, rocksdb::Iterator* it) {
  std::printf("%s forward:", what);
  for (it->SeekToFirst(); it->Valid(); it->Next()) PrintPosition(it);
  std::printf("\n%s backward:", what);
  for (it->SeekToLast(); it->Valid(); it->Prev()) PrintPosition(it);
  std::printf("\n%s moves:", what);
  it->Seek("c");
  PrintPosition(it);
  it->Prev();
  PrintPosition(it);
  it->Next();
  PrintPosition(it);
  it->Next();
  PrintPosition(it);
  it->SeekForPrev("d");
  PrintPosition(it);
  it->Next();
  PrintPosition(it);
  it->Prev();
  PrintPosition(it);
  it->Prev();
  PrintPosition(it);
  std::printf("\n");
}

void FillThroughBase(rocksdb::WriteBatchBase* batch) {
  Check("base put", batch->Put("x", "1"));
  Check("base merge", batch->Merge("x", "2"));
  Check("base delete", batch->Delete("y"));
  batch->SetSavePoint();
  Check("base put", batch->Put("z", "3"));
  Check("base rollback", batch->RollbackToSavePoint());
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
  options.create_missing_column_families = true;
  options.merge_operator = std::make_shared<Joiner>();
  rocksdb::DestroyDB(dbname, options);
  rocksdb::ColumnFamilyOptions reversed(options);
  reversed.comparator = rocksdb::ReverseBytewiseComparator();
  std::vector<rocksdb::ColumnFamilyDescriptor> families = {
      {rocksdb::kDefaultColumnFamilyName,
       rocksdb::ColumnFamilyOptions(options)},
      {"reversed", reversed}};
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  Check("open", rocksdb::DB::Open(rocksdb::DBOptions(options), dbname, families,
                                  &handles, &db));
  rocksdb::ColumnFamilyHandle* rev = handles[1];
  rocksdb::WriteOptions wo;
  for (const char* k : {"a", "b", "c", "d", "e"}) {
    Check("put", db->Put(wo, k, std::string("db-") + k));
    Check("put", db->Put(wo, rev, k, std::string("db-") + k));
  }
  Check("merge", db->Merge(wo, "d", "dm"));
  Check("flush", db->Flush(rocksdb::FlushOptions()));
  const rocksdb::Snapshot* snapshot = db->GetSnapshot();
  Check("put", db->Put(wo, "b", "db-b-after-snapshot"));

  rocksdb::WriteBatchWithIndex wb;
  Check("batch put", wb.Put("a", "batch-a"));
  Check("batch delete", wb.Delete("b"));
  Check("batch merge", wb.Merge("c", "m1"));
  Check("batch merge", wb.Merge("c", "m2"));
  Check("batch single delete", wb.SingleDelete("e"));
  Check("batch merge", wb.Merge("e", "after-delete"));
  Check("batch merge", wb.Merge("f", "new"));
  Check("batch put", wb.Put("c", "batch-c"));
  Check("batch merge", wb.Merge("c", "m3"));
  Check("batch put", wb.Put(rev, "b", "rev-b"));
  Check("batch delete", wb.Delete(rev, "d"));
  Check("batch merge", wb.Merge(rev, "a", "rev-m"));
  Check("log data", wb.PutLogData("blob"));
  std::printf("DeleteRange: %s\n", Code(wb.DeleteRange("a", "b")));
  std::printf("count: %u\n", wb.GetWriteBatch()->Count());
  PrintBatch("default", &wb, nullptr);
  PrintBatch("reversed", &wb, rev);

  rocksdb::DBOptions dbo(options);
  for (const char* k : {"a", "b", "c", "d", "e", "f", "g"}) {
    std::string plain, with_cf, from_db, at_snapshot;
    rocksdb::Status s1 = wb.GetFromBatch(dbo, k, &plain);
    rocksdb::Status s2 =
        wb.GetFromBatch(db->DefaultColumnFamily(), dbo, k, &with_cf);
    rocksdb::Status s3 =
        wb.GetFromBatchAndDB(db, rocksdb::ReadOptions(), k, &from_db);
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshot;
    rocksdb::PinnableSlice pinned;
    rocksdb::Status s4 = wb.GetFromBatchAndDB(db, ro, k, &pinned);
    std::printf("%s: batch %s[%s] batch+cf %s[%s] db %s[%s] snapshot %s[%s]\n",
                k, Code(s1), plain.c_str(), Code(s2), with_cf.c_str(), Code(s3),
                from_db.c_str(), Code(s4), pinned.ToString().c_str());
  }
  {
    std::vector<rocksdb::Slice> keys = {"a", "b", "c", "d"};
    std::vector<rocksdb::PinnableSlice> values(keys.size());
    std::vector<rocksdb::Status> statuses(keys.size());
    wb.MultiGetFromBatchAndDB(db, rocksdb::ReadOptions(), rev, keys.size(),
                              keys.data(), values.data(), statuses.data(),
                              false);
    std::printf("reversed multiget:");
    for (size_t i = 0; i < keys.size(); i++) {
      std::printf(" %s=%s[%s]", keys[i].ToString().c_str(), Code(statuses[i]),
                  values[i].ToString().c_str());
    }
    std::printf("\n");
  }

  {
    std::unique_ptr<rocksdb::Iterator> it(wb.NewIteratorWithBase(
        db->DefaultColumnFamily(), db->NewIterator(rocksdb::ReadOptions())));
    PrintWithBase("with base", it.get());
    std::unique_ptr<rocksdb::Iterator> rit(wb.NewIteratorWithBase(
        rev, db->NewIterator(rocksdb::ReadOptions(), rev)));
    PrintWithBase("reversed with base", rit.get());
    rocksdb::ReadOptions bounded;
    rocksdb::Slice upper("e");
    bounded.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> bit(wb.NewIteratorWithBase(
        db->DefaultColumnFamily(), db->NewIterator(bounded), &bounded));
    std::printf("upper bound e:");
    for (bit->SeekToFirst(); bit->Valid(); bit->Next())
      PrintPosition(bit.get());
    std::printf("\n");
  }

  wb.SetSavePoint();
  Check("put", wb.Put("g", "1"));
  wb.SetSavePoint();
  Check("delete", wb.Delete("a"));
  std::printf("pop: %s\n", Code(wb.PopSavePoint()));
  std::printf("rollback: %s\n", Code(wb.RollbackToSavePoint()));
  std::printf("rollback again: %s\n", Code(wb.RollbackToSavePoint()));
  std::printf("pop again: %s\n", Code(wb.PopSavePoint()));
  std::printf("count after rollback: %u\n", wb.GetWriteBatch()->Count());
  PrintBatch("after rollback", &wb, nullptr);

  rocksdb::WriteBatchWithIndex overwriting(rocksdb::BytewiseComparator(), 0,
                                           true);
  Check("put", overwriting.Put("b", "1"));
  Check("merge", overwriting.Merge("b", "2"));
  Check("put", overwriting.Put("b", "3"));
  Check("merge", overwriting.Merge("b", "4"));
  Check("delete", overwriting.Delete("b"));
  Check("put", overwriting.Put("c", "5"));
  PrintBatch("overwrite_key", &overwriting, nullptr);

  rocksdb::WriteBatch plain;
  rocksdb::WriteBatchWithIndex indexed;
  FillThroughBase(&plain);
  FillThroughBase(&indexed);
  std::printf("through WriteBatchBase: counts %u %u, same data %s\n",
              plain.Count(), indexed.GetWriteBatch()->Count(),
              plain.Data() == indexed.GetWriteBatch()->Data() ? "yes" : "no");

  db->ReleaseSnapshot(snapshot);
  Check("write", db->Write(wo, wb.GetWriteBatch()));
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    std::unique_ptr<rocksdb::Iterator> it(
        db->NewIterator(rocksdb::ReadOptions(), h));
    std::printf("after write %s:", h->GetName().c_str());
    for (it->SeekToFirst(); it->Valid(); it->Next()) PrintPosition(it.get());
    std::printf("\n");
  }
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    Check("destroy handle", db->DestroyColumnFamilyHandle(h));
  }
  delete db;
  return 0;
}
