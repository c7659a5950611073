// DB::OpenForReadOnly: a read-only instance reads the tables and the WALs
// (replayed into memory) as they were at its open, takes no lock, writes
// and deletes nothing, refuses every call that would change the DB, may
// open a subset of the families, and can run beside a writer and beside
// other readers.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// Every file in dir with its size.
std::map<std::string, uint64_t> DirectoryListing(Env* env,
                                                 const std::string& dir) {
  std::vector<std::string> children;
  EXPECT_TRUE(env->GetChildren(dir, &children).ok());
  std::map<std::string, uint64_t> files;
  for (const std::string& child : children) {
    uint64_t size = 0;
    EXPECT_TRUE(env->GetFileSize(dir + "/" + child, &size).ok()) << child;
    files[child] = size;
  }
  return files;
}

class ReadOnlyTest : public ::testing::Test {
 protected:
  ReadOnlyTest() : dir_(Env::Default(), "readonly"), name_(dir_.File("db")) {
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
  }

  std::vector<ColumnFamilyDescriptor> Families(
      const std::vector<std::string>& names) {
    std::vector<ColumnFamilyDescriptor> families;
    for (const std::string& n : names) {
      families.emplace_back(n, ColumnFamilyOptions(options_));
    }
    return families;
  }

  // A DB with families default, a and b: "flushed" in tables, "logged"
  // only in the WAL, in every family.
  void MakeDB() {
    std::vector<ColumnFamilyHandle*> handles;
    DB* db = nullptr;
    ASSERT_TRUE(DB::Open(options_, name_, Families({"default", "a", "b"}),
                         &handles, &db)
                    .ok());
    for (ColumnFamilyHandle* h : handles) {
      ASSERT_TRUE(db->Put(WriteOptions(), h, "flushed", h->GetName()).ok());
      ASSERT_TRUE(db->Flush(FlushOptions(), h).ok());
      ASSERT_TRUE(db->Put(WriteOptions(), h, "logged", h->GetName()).ok());
    }
    for (ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h);
    delete db;
  }

  static std::string Get(DB* db, ColumnFamilyHandle* h, const std::string& k) {
    std::string value;
    Status s = db->Get(ReadOptions(), h, k, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    return s.ok() ? value : s.ToString();
  }

  test::TempDir dir_;
  const std::string name_;
  Options options_;
};

TEST_F(ReadOnlyTest, ReadsTablesAndWalsAndWritesNothing) {
  MakeDB();
  Env* env = Env::Default();
  const std::map<std::string, uint64_t> before = DirectoryListing(env, name_);

  std::vector<ColumnFamilyHandle*> handles;
  DB* raw = nullptr;
  Status s = DB::OpenForReadOnly(
      options_, name_, Families({"default", "a", "b"}), &handles, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<DB> db(raw);
  for (ColumnFamilyHandle* h : handles) {
    EXPECT_EQ(h->GetName(), Get(db.get(), h, "flushed"));
    EXPECT_EQ(h->GetName(), Get(db.get(), h, "logged"));
  }
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions(), handles[1]));
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  EXPECT_EQ(2, n);
  it.reset();

  ColumnFamilyHandle* a = handles[1];
  WriteBatch batch;
  batch.Put("k", "v");
  FlushOptions flush;
  std::vector<ColumnFamilyHandle*> created;
  ColumnFamilyHandle* made = nullptr;
  const std::vector<std::pair<const char*, Status>> refused = {
      {"Put", db->Put(WriteOptions(), a, "k", "v")},
      {"Delete", db->Delete(WriteOptions(), a, "flushed")},
      {"SingleDelete", db->SingleDelete(WriteOptions(), a, "flushed")},
      {"DeleteRange", db->DeleteRange(WriteOptions(), a, "a", "z")},
      {"Merge", db->Merge(WriteOptions(), a, "k", "v")},
      {"Write", db->Write(WriteOptions(), &batch)},
      {"Flush", db->Flush(flush, a)},
      {"Flush families", db->Flush(flush, handles)},
      {"CompactRange",
       db->CompactRange(CompactRangeOptions(), a, nullptr, nullptr)},
      {"CreateColumnFamily",
       db->CreateColumnFamily(ColumnFamilyOptions(), "c", &made)},
      {"CreateColumnFamilies",
       db->CreateColumnFamilies(ColumnFamilyOptions(), {"c"}, &created)},
      {"DropColumnFamily", db->DropColumnFamily(a)},
      {"SetOptions", db->SetOptions(a, {{"write_buffer_size", "1048576"}})},
      {"SyncWAL", db->SyncWAL()},
      {"DisableFileDeletions", db->DisableFileDeletions()},
  };
  for (const auto& r : refused) {
    EXPECT_TRUE(r.second.IsNotSupported())
        << r.first << ": " << r.second.ToString();
  }
  EXPECT_EQ(nullptr, made);
  EXPECT_TRUE(created.empty());
  EXPECT_EQ("NOT_FOUND", Get(db.get(), a, "k"));

  // The listing of a read-only DB flushes nothing: the WALs holding the
  // "logged" writes are listed, with their records.
  std::vector<LiveFileStorageInfo> files;
  ASSERT_TRUE(
      db->GetLiveFilesStorageInfo(LiveFilesStorageInfoOptions(), &files).ok());
  uint64_t wal_bytes = 0;
  for (const LiveFileStorageInfo& f : files) {
    if (f.file_type == kWalFile) wal_bytes += f.size;
  }
  EXPECT_GT(wal_bytes, 0u);

  for (ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h);
  EXPECT_TRUE(db->Close().ok());
  db.reset();
  // Not a file created, removed or changed: no LOCK, no LOG, no WAL.
  EXPECT_EQ(before, DirectoryListing(env, name_));
}

TEST_F(ReadOnlyTest, ReadersBesideAWriterSeeTheDBAsOfTheirOpen) {
  std::unique_ptr<DB> writer;
  ASSERT_TRUE(DB::Open(options_, name_, &writer).ok());
  ASSERT_TRUE(writer->Put(WriteOptions(), "k1", "v1").ok());
  ASSERT_TRUE(writer->Flush(FlushOptions()).ok());
  ASSERT_TRUE(writer->Put(WriteOptions(), "k2", "v2").ok());

  DB* r1 = nullptr;
  DB* r2 = nullptr;
  ASSERT_TRUE(DB::OpenForReadOnly(options_, name_, &r1).ok());
  ASSERT_TRUE(DB::OpenForReadOnly(options_, name_, &r2).ok());
  std::unique_ptr<DB> reader1(r1), reader2(r2);
  ASSERT_TRUE(writer->Put(WriteOptions(), "k3", "v3").ok());
  for (DB* reader : {r1, r2}) {
    ColumnFamilyHandle* d = reader->DefaultColumnFamily();
    EXPECT_EQ("v1", Get(reader, d, "k1"));
    EXPECT_EQ("v2", Get(reader, d, "k2"));
    EXPECT_EQ("NOT_FOUND", Get(reader, d, "k3"));
  }
  // The writer runs on, unhindered.
  ASSERT_TRUE(writer->Flush(FlushOptions()).ok());
  EXPECT_EQ("v3", Get(writer.get(), writer->DefaultColumnFamily(), "k3"));
  reader1.reset();
  // A new reader sees the new writes.
  DB* r3 = nullptr;
  ASSERT_TRUE(DB::OpenForReadOnly(options_, name_, &r3).ok());
  std::unique_ptr<DB> reader3(r3);
  EXPECT_EQ("v3", Get(r3, r3->DefaultColumnFamily(), "k3"));
}

TEST_F(ReadOnlyTest, OpensASubsetOfTheFamilies) {
  MakeDB();
  std::vector<ColumnFamilyHandle*> handles;
  DB* raw = nullptr;
  ASSERT_TRUE(DB::OpenForReadOnly(options_, name_, Families({"default", "b"}),
                                  &handles, &raw)
                  .ok());
  std::unique_ptr<DB> db(raw);
  ASSERT_EQ(2u, handles.size());
  EXPECT_EQ("b", Get(db.get(), handles[1], "logged"));
  for (ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h);
  db.reset();

  // A family the DB lacks, and a list without the default family.
  Status s = DB::OpenForReadOnly(options_, name_, Families({"default", "zz"}),
                                 &handles, &raw);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("zz")) << s.ToString();
  EXPECT_EQ(nullptr, raw);
  s = DB::OpenForReadOnly(options_, name_, Families({"a"}), &handles, &raw);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

TEST_F(ReadOnlyTest, AMissingDBIsNotCreated) {
  DB* raw = nullptr;
  Status s = DB::OpenForReadOnly(options_, name_, &raw);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("CURRENT")) << s.ToString();
  EXPECT_EQ(nullptr, raw);
  EXPECT_TRUE(Env::Default()->FileExists(name_).IsNotFound());
}

TEST_F(ReadOnlyTest, ErrorIfWalFileExistsRefusesUnflushedWrites) {
  MakeDB();
  DB* raw = nullptr;
  std::vector<ColumnFamilyHandle*> handles;
  Status s =
      DB::OpenForReadOnly(options_, name_, Families({"default", "a", "b"}),
                          &handles, &raw, /*error_if_wal_file_exists=*/true);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(nullptr, raw);

  // Flushed everywhere and closed: the WAL holds no writes.
  ASSERT_TRUE(
      DB::Open(options_, name_, Families({"default", "a", "b"}), &handles, &raw)
          .ok());
  ASSERT_TRUE(raw->Flush(FlushOptions(), handles).ok());
  for (ColumnFamilyHandle* h : handles) raw->DestroyColumnFamilyHandle(h);
  delete raw;
  s = DB::OpenForReadOnly(options_, name_, Families({"default", "a", "b"}),
                          &handles, &raw, /*error_if_wal_file_exists=*/true);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ("a", Get(raw, handles[1], "logged"));
  for (ColumnFamilyHandle* h : handles) raw->DestroyColumnFamilyHandle(h);
  delete raw;
}

}  // namespace
}  // namespace strata
