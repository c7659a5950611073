// A program written against RocksDB's C++ API with column families: it
// opens a DB with three families besides the default one, writes across
// them (a batch, Put, Delete, Merge through its own merge operator), reads
// them every way (Get into a PinnableSlice, both MultiGet forms, iterators
// both ways, NewIterators), flushes and compacts one, drops one, closes,
// lists the families and reopens the DB with those left.
//
// The build compiles it as is against RocksDB (when installed) and with
// "rocksdb" replaced by "strata" everywhere against strata, runs both and
// compares their standard output byte for byte, and compares strata's with
// the recorded output of RocksDB 7.8.3 (rocksdb_column_families.expected).
// So every line printed is a fact both engines must agree on: keys,
// values, counts and status codes, never a Status message, a file name or
// a size. Nothing in it names either engine outside includes, namespaces
// and property names.

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/write_batch.h"

namespace {

// The application's counter: values and operands are decimal numbers, a
// merge adds them. (A RocksDB user writes their own: the library's
// uint64add lives outside its public headers.)
class AddOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice& /*key*/,
             const rocksdb::Slice* existing_value, const rocksdb::Slice& value,
             std::string* new_value,
             rocksdb::Logger* /*logger*/) const override {
    uint64_t base = 0;
    uint64_t operand = 0;
    if (existing_value != nullptr && !Parse(*existing_value, &base)) {
      return false;
    }
    if (!Parse(value, &operand)) return false;
    *new_value = std::to_string(base + operand);
    return true;
  }
  const char* Name() const override { return "AddOperator"; }

 private:
  static bool Parse(const rocksdb::Slice& text, uint64_t* out) {
    if (text.empty()) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < text.size(); i++) {
      if (text[i] < '0' || text[i] > '9') return false;
      v = v * 10 + static_cast<uint64_t>(text[i] - '0');
    }
    *out = v;
    return true;
  }
};

const char* Code(const rocksdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsNotSupported()) return "NotSupported";
  if (s.IsCorruption()) return "Corruption";
  if (s.IsIOError()) return "IOError";
  return "other error";
}

void Show(const char* what, const rocksdb::Status& s) {
  std::printf("%s: %s\n", what, Code(s));
}

void ShowValue(const std::string& what, const rocksdb::Status& s,
               const rocksdb::Slice& value) {
  if (s.ok()) {
    std::printf("%s: OK %s\n", what.c_str(), value.ToString().c_str());
  } else {
    std::printf("%s: %s\n", what.c_str(), Code(s));
  }
}

// Every entry of the family, in order or in reverse.
void Scan(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family, bool forward) {
  rocksdb::Iterator* it = db->NewIterator(rocksdb::ReadOptions(), family);
  std::string entries;
  int n = 0;
  if (forward) {
    for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
      entries += " " + it->key().ToString() + "=" + it->value().ToString();
    }
  } else {
    for (it->SeekToLast(); it->Valid(); it->Prev(), n++) {
      entries += " " + it->key().ToString() + "=" + it->value().ToString();
    }
  }
  std::printf("%s %s (%d):%s [%s]\n", family->GetName().c_str(),
              forward ? "forward" : "backward", n, entries.c_str(),
              Code(it->status()));
  delete it;
}

void ShowProperty(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family,
                  const std::string& property) {
  std::string value;
  const bool known = db->GetProperty(family, property, &value);
  std::printf("%s %s: %s\n", family->GetName().c_str(),
              property.substr(property.find('.') + 1).c_str(),
              known ? value.c_str() : "(unknown)");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "api_compat_cf_db";
  rocksdb::Options options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.IncreaseParallelism();
  options.OptimizeLevelStyleCompaction();
  rocksdb::DestroyDB(path, options);

  rocksdb::ColumnFamilyOptions counter_options(options);
  counter_options.merge_operator.reset(new AddOperator);
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  families.push_back(
      rocksdb::ColumnFamilyDescriptor(rocksdb::kDefaultColumnFamilyName,
                                      rocksdb::ColumnFamilyOptions(options)));
  families.push_back(rocksdb::ColumnFamilyDescriptor(
      "users", rocksdb::ColumnFamilyOptions(options)));
  families.push_back(
      rocksdb::ColumnFamilyDescriptor("counters", counter_options));
  families.push_back(rocksdb::ColumnFamilyDescriptor(
      "events", rocksdb::ColumnFamilyOptions(options)));

  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(rocksdb::DBOptions(options), path,
                                        families, &handles, &db);
  Show("open", s);
  if (!s.ok()) {
    std::fprintf(stderr, "open: %s\n", s.ToString().c_str());
    return 1;
  }
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    std::printf("handle %s id %u\n", h->GetName().c_str(), h->GetID());
  }
  rocksdb::ColumnFamilyHandle* fallback = handles[0];
  rocksdb::ColumnFamilyHandle* users = handles[1];
  rocksdb::ColumnFamilyHandle* counters = handles[2];
  rocksdb::ColumnFamilyHandle* events = handles[3];

  // ---- writes
  rocksdb::WriteBatch batch;
  batch.Put(users, "alice", "admin");
  batch.Put(users, "bob", "developer");
  batch.Put(users, "carol", "operator");
  batch.Merge(counters, "visits", "1");
  batch.Put(events, "0001", "start");
  batch.Put("schema", "v1");
  batch.Delete(users, "carol");
  std::printf("batch count: %d\n", batch.Count());
  Show("write batch", db->Write(rocksdb::WriteOptions(), &batch));

  rocksdb::WriteOptions write_options;
  Show("put events 0002", db->Put(write_options, events, "0002", "login"));
  Show("put events 0003", db->Put(write_options, events, "0003", "logout"));
  Show("delete events 0002", db->Delete(write_options, events, "0002"));
  Show("merge visits 2", db->Merge(write_options, counters, "visits", "2"));
  Show("merge visits 39", db->Merge(write_options, counters, "visits", "39"));
  Show("merge errors 3", db->Merge(write_options, counters, "errors", "3"));
  Show("put users dave", db->Put(write_options, users, "dave", "tester"));
  Show("put default schema", db->Put(write_options, fallback, "schema", "v2"));
  // A family without a merge operator refuses a Merge.
  Show("merge into users", db->Merge(write_options, users, "dave", "promoted"));

  rocksdb::ColumnFamilyHandle* archive = nullptr;
  Show("create archive",
       db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(options), "archive",
                              &archive));
  std::printf("handle %s id %u\n", archive->GetName().c_str(),
              archive->GetID());
  handles.push_back(archive);
  Show("put archive 2023", db->Put(write_options, archive, "2023", "closed"));
  rocksdb::ColumnFamilyHandle* duplicate = nullptr;
  Show("create users again",
       db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(options), "users",
                              &duplicate));

  // ---- point reads
  rocksdb::PinnableSlice pinned;
  const struct {
    rocksdb::ColumnFamilyHandle* family;
    const char* key;
  } lookups[] = {{users, "alice"},     {users, "carol"},   {counters, "visits"},
                 {counters, "errors"}, {events, "0002"},   {events, "0003"},
                 {fallback, "schema"}, {fallback, "alice"}};
  for (const auto& lookup : lookups) {
    pinned.Reset();
    s = db->Get(rocksdb::ReadOptions(), lookup.family, lookup.key, &pinned);
    ShowValue("get " + lookup.family->GetName() + " " + lookup.key, s, pinned);
  }
  std::string copied;
  s = db->Get(rocksdb::ReadOptions(), users, "bob", &copied);
  ShowValue("get users bob (string)", s, copied);

  std::vector<rocksdb::ColumnFamilyHandle*> multi_families = {
      users, users, counters, events, fallback};
  std::vector<rocksdb::Slice> multi_keys = {"alice", "carol", "visits", "0001",
                                            "schema"};
  std::vector<std::string> multi_values;
  std::vector<rocksdb::Status> multi_statuses = db->MultiGet(
      rocksdb::ReadOptions(), multi_families, multi_keys, &multi_values);
  std::printf("multiget: %zu statuses, %zu values\n", multi_statuses.size(),
              multi_values.size());
  for (size_t i = 0; i < multi_statuses.size(); i++) {
    ShowValue(
        "  " + multi_families[i]->GetName() + " " + multi_keys[i].ToString(),
        multi_statuses[i], multi_values[i]);
  }

  const size_t kBatched = 5;
  rocksdb::Slice batched_keys[kBatched] = {"alice", "bob", "carol", "dave",
                                           "erin"};
  rocksdb::PinnableSlice batched_values[kBatched];
  rocksdb::Status batched_statuses[kBatched];
  db->MultiGet(rocksdb::ReadOptions(), users, kBatched, batched_keys,
               batched_values, batched_statuses);
  std::printf("batched multiget on users:\n");
  for (size_t i = 0; i < kBatched; i++) {
    ShowValue("  " + batched_keys[i].ToString(), batched_statuses[i],
              batched_values[i]);
  }

  // ---- iteration
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    Scan(db, h, /*forward=*/true);
    Scan(db, h, /*forward=*/false);
  }
  std::vector<rocksdb::Iterator*> iterators;
  Show("new iterators",
       db->NewIterators(rocksdb::ReadOptions(), handles, &iterators));
  for (size_t i = 0; i < iterators.size(); i++) {
    iterators[i]->Seek("b");
    std::printf("  %s seek b: %s\n", handles[i]->GetName().c_str(),
                iterators[i]->Valid() ? iterators[i]->key().ToString().c_str()
                                      : "(end)");
    delete iterators[i];
  }

  // ---- maintenance of one family
  ShowProperty(db, events, "rocksdb.num-files-at-level0");
  Show("flush events", db->Flush(rocksdb::FlushOptions(), events));
  ShowProperty(db, events, "rocksdb.num-files-at-level0");
  ShowProperty(db, users, "rocksdb.num-files-at-level0");
  ShowProperty(db, users, "rocksdb.num-entries-active-mem-table");
  ShowProperty(db, users, "rocksdb.estimate-num-keys");
  Show("compact events", db->CompactRange(rocksdb::CompactRangeOptions(),
                                          events, nullptr, nullptr));
  ShowProperty(db, events, "rocksdb.num-files-at-level0");
  pinned.Reset();
  s = db->Get(rocksdb::ReadOptions(), events, "0003", &pinned);
  ShowValue("get events 0003 after compaction", s, pinned);

  // ---- drop a family; its handle still reads
  Show("drop events", db->DropColumnFamily(events));
  pinned.Reset();
  s = db->Get(rocksdb::ReadOptions(), events, "0001", &pinned);
  ShowValue("get dropped events 0001", s, pinned);
  Show("put to dropped events",
       db->Put(write_options, events, "0004", "after drop"));
  Show("drop default", db->DropColumnFamily(db->DefaultColumnFamily()));
  Show("destroy DefaultColumnFamily()",
       db->DestroyColumnFamilyHandle(db->DefaultColumnFamily()));
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    const std::string what = "destroy handle " + h->GetName();
    Show(what.c_str(), db->DestroyColumnFamilyHandle(h));
  }
  handles.clear();
  Show("close", db->Close());
  delete db;

  // ---- list and reopen with what is left
  std::vector<std::string> names;
  s = rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(options), path,
                                      &names);
  std::string listed;
  for (const std::string& name : names) listed += " " + name;
  std::printf("list column families: %s,%s\n", Code(s), listed.c_str());

  families.clear();
  for (const std::string& name : names) {
    families.push_back(rocksdb::ColumnFamilyDescriptor(
        name, name == "counters" ? counter_options
                                 : rocksdb::ColumnFamilyOptions(options)));
  }
  options.create_if_missing = false;
  options.create_missing_column_families = false;
  s = rocksdb::DB::Open(rocksdb::DBOptions(options), path, families, &handles,
                        &db);
  Show("reopen", s);
  if (!s.ok()) {
    std::fprintf(stderr, "reopen: %s\n", s.ToString().c_str());
    return 1;
  }
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    Scan(db, h, /*forward=*/true);
  }
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    db->DestroyColumnFamilyHandle(h);
  }
  Show("close", db->Close());
  delete db;
  Show("destroy", rocksdb::DestroyDB(path, options));
  return 0;
}
