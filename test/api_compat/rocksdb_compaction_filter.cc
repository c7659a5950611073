// A program written against RocksDB's C++ API that cleans data up as it is
// compacted: a CompactionFilter drops temporary keys, rewrites some
// values, drops a range of keys (kRemoveAndSkipUntil) and drops merge
// operands; a CompactionFilterFactory on a second column family reports
// what it is told about each compaction; and a DBWithTTL with a long ttl
// is written and read. It prints what is left after CompactRange.
//
// Built and compared as rocksdb_column_families.cc is (README.md): every
// line printed is a fact both engines must agree on — keys, values,
// counts, status codes — never a file name, a size or a message. No
// snapshot is taken: RocksDB 7.8 filters what a snapshot sees, strata
// does not.

#include <cctype>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/compaction_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/db_ttl.h"

namespace {

const char* Code(const rocksdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsNotSupported()) return "NotSupported";
  return "other error";
}

bool HasPrefix(const rocksdb::Slice& s, const char* prefix) {
  return s.starts_with(rocksdb::Slice(prefix));
}

class CleanupFilter : public rocksdb::CompactionFilter {
 public:
  Decision FilterV2(int /*level*/, const rocksdb::Slice& key,
                    ValueType value_type, const rocksdb::Slice& existing_value,
                    std::string* new_value,
                    std::string* skip_until) const override {
    if (value_type == kMergeOperand) {
      return existing_value == rocksdb::Slice("drop") ? Decision::kRemove
                                                      : Decision::kKeep;
    }
    if (HasPrefix(key, "tmp_")) return Decision::kRemove;
    if (HasPrefix(key, "upper_")) {
      *new_value = existing_value.ToString();
      for (char& c : *new_value) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      return Decision::kChangeValue;
    }
    if (key == rocksdb::Slice("range_a")) {
      *skip_until = "range_m";
      return Decision::kRemoveAndSkipUntil;
    }
    return Decision::kKeep;
  }
  const char* Name() const override { return "CleanupFilter"; }
};

// Filter() and FilterMergeOperand(), the older forms.
class OldStyleFilter : public rocksdb::CompactionFilter {
 public:
  bool Filter(int /*level*/, const rocksdb::Slice& key,
              const rocksdb::Slice& existing_value, std::string* new_value,
              bool* value_changed) const override {
    if (HasPrefix(key, "tmp_")) return true;
    if (existing_value == rocksdb::Slice("old")) {
      *new_value = "renewed";
      *value_changed = true;
    }
    return false;
  }
  const char* Name() const override { return "OldStyleFilter"; }
};

class ReportingFactory : public rocksdb::CompactionFilterFactory {
 public:
  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override {
    if (calls_++ == 0) {
      std::printf(
          "factory: full %d manual %d family %u compaction %d\n",
          context.is_full_compaction ? 1 : 0,
          context.is_manual_compaction ? 1 : 0, context.column_family_id,
          context.reason == rocksdb::TableFileCreationReason::kCompaction ? 1
                                                                          : 0);
    }
    return std::make_unique<OldStyleFilter>();
  }
  const char* Name() const override { return "ReportingFactory"; }

  int calls_ = 0;
};

class AppendOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice& /*key*/,
             const rocksdb::Slice* existing_value, const rocksdb::Slice& value,
             std::string* new_value,
             rocksdb::Logger* /*logger*/) const override {
    *new_value = existing_value != nullptr ? existing_value->ToString() + "+"
                                           : std::string();
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "AppendOperator"; }
};

void Dump(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const char* what) {
  std::unique_ptr<rocksdb::Iterator> it(
      db->NewIterator(rocksdb::ReadOptions(), cf));
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::printf("%s: %s = %s\n", what, it->key().ToString().c_str(),
                it->value().ToString().c_str());
    n++;
  }
  std::printf("%s: %d keys, status %s\n", what, n, Code(it->status()));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path =
      argc > 1 ? argv[1] : std::string("/tmp/api_compat_compaction_filter");
  CleanupFilter filter;
  auto factory = std::make_shared<ReportingFactory>();
  rocksdb::Options options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.compaction_filter = &filter;
  options.merge_operator = std::make_shared<AppendOperator>();
  rocksdb::ColumnFamilyOptions second(options);
  second.compaction_filter = nullptr;
  second.compaction_filter_factory = factory;
  rocksdb::DestroyDB(path, options);

  std::vector<rocksdb::ColumnFamilyDescriptor> families = {
      {rocksdb::kDefaultColumnFamilyName,
       rocksdb::ColumnFamilyOptions(options)},
      {"second", second}};
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(rocksdb::DBOptions(options), path,
                                        families, &handles, &db);
  std::printf("open: %s\n", Code(s));
  if (!s.ok()) return 1;

  const rocksdb::WriteOptions wo;
  for (const char* k : {"keep_1", "keep_2", "range_a", "range_b", "range_l",
                        "range_m", "range_z", "tmp_1", "tmp_2", "upper_x"}) {
    db->Put(wo, k, std::string("value of ") + k);
  }
  // One table per operand: a flush may combine operands (RocksDB's does),
  // and the filter is to see each.
  for (const char* operand : {"one", "drop", "two"}) {
    db->Merge(wo, "merged", operand);
    db->Flush(rocksdb::FlushOptions());
  }
  db->Put(wo, handles[1], "tmp_gone", "x");
  db->Put(wo, handles[1], "aged", "old");
  db->Put(wo, handles[1], "fresh", "new");

  s = db->Flush(rocksdb::FlushOptions(), handles);
  std::printf("flush: %s\n", Code(s));
  std::string v;
  s = db->Get(rocksdb::ReadOptions(), "tmp_1", &v);
  std::printf("tmp_1 before compaction: %s %s\n", Code(s), v.c_str());
  std::printf("factory calls after flush: %d\n", factory->calls_);

  for (rocksdb::ColumnFamilyHandle* h : handles) {
    s = db->CompactRange(rocksdb::CompactRangeOptions(), h, nullptr, nullptr);
    std::printf("compact %s: %s\n", h->GetName().c_str(), Code(s));
  }
  Dump(db, handles[0], "default");
  Dump(db, handles[1], "second");
  s = db->Get(rocksdb::ReadOptions(), "tmp_1", &v);
  std::printf("tmp_1 after compaction: %s\n", Code(s));
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    db->DestroyColumnFamilyHandle(h);
  }
  delete db;

  // DBWithTTL with a ttl nothing outlives here: written values read back
  // without their timestamps, through Get, iterators and a family of its
  // own ttl.
  rocksdb::DestroyDB(path, options);
  rocksdb::Options ttl_options;
  ttl_options.create_if_missing = true;
  rocksdb::DBWithTTL* ttl_db = nullptr;
  s = rocksdb::DBWithTTL::Open(ttl_options, path, &ttl_db, 100000);
  std::printf("ttl open: %s\n", Code(s));
  if (!s.ok()) return 1;
  ttl_db->Put(wo, "a", "1");
  ttl_db->Put(wo, "b", "2");
  rocksdb::ColumnFamilyHandle* ttl_cf = nullptr;
  s = ttl_db->CreateColumnFamilyWithTtl(rocksdb::ColumnFamilyOptions(), "ttl2",
                                        &ttl_cf, 50000);
  std::printf("ttl family: %s\n", Code(s));
  ttl_db->Put(wo, ttl_cf, "c", "3");
  ttl_db->SetTtl(200000);
  ttl_db->SetTtl(ttl_cf, 60000);
  s = ttl_db->Get(rocksdb::ReadOptions(), "a", &v);
  std::printf("ttl get a: %s %s\n", Code(s), v.c_str());
  s = ttl_db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
  std::printf("ttl compact: %s\n", Code(s));
  Dump(ttl_db, ttl_db->DefaultColumnFamily(), "ttl");
  Dump(ttl_db, ttl_cf, "ttl2");
  std::string raw;
  s = ttl_db->GetBaseDB()->Get(rocksdb::ReadOptions(), "b", &raw);
  std::printf("stored b: %s, %d bytes\n", Code(s),
              static_cast<int>(raw.size()));
  ttl_db->DestroyColumnFamilyHandle(ttl_cf);
  delete ttl_db;
  rocksdb::DestroyDB(path, ttl_options);
  return 0;
}
