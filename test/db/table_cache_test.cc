#include "db/table_cache.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "db/filename.h"
#include "env/file_reader.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "strata/table.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// A table format of the test's own, so the cache is tested without the
// block-based table: "FAKETABLE\n" then sorted "key=value\n" lines. Keys
// are compared bytewise, as plain strings.
constexpr char kMagic[] = "FAKETABLE\n";

// What the fake factory has done; shared by its readers.
class OpenLog {
 public:
  void Opened(const std::string& fname) {
    std::lock_guard<std::mutex> l(mu_);
    opens_++;
    open_[fname]++;
  }
  void Closed(const std::string& fname) {
    std::lock_guard<std::mutex> l(mu_);
    if (--open_[fname] == 0) open_.erase(fname);
  }
  void Attempted() {
    std::lock_guard<std::mutex> l(mu_);
    attempts_++;
  }
  int opens() {
    std::lock_guard<std::mutex> l(mu_);
    return opens_;
  }
  int attempts() {
    std::lock_guard<std::mutex> l(mu_);
    return attempts_;
  }
  // Readers alive (not deleted), over all files / of one file.
  size_t live() {
    std::lock_guard<std::mutex> l(mu_);
    size_t n = 0;
    for (const auto& f : open_) n += static_cast<size_t>(f.second);
    return n;
  }
  bool IsOpen(const std::string& fname) {
    std::lock_guard<std::mutex> l(mu_);
    return open_.count(fname) != 0;
  }

 private:
  std::mutex mu_;
  int opens_ = 0;
  int attempts_ = 0;
  std::map<std::string, int> open_;
};

using Entries = std::vector<std::pair<std::string, std::string>>;

class FakeTableReader : public TableReader {
 public:
  FakeTableReader(std::unique_ptr<RandomAccessFileReader> file, Entries entries,
                  OpenLog* log)
      : file_(std::move(file)), entries_(std::move(entries)), log_(log) {
    log_->Opened(file_->file_name());
  }
  ~FakeTableReader() override { log_->Closed(file_->file_name()); }

  InternalIterator* NewIterator(const ReadOptions&) override;

  Status Get(const ReadOptions&, const Slice& key, void* arg,
             GetEntryFunction handle_entry) override {
    auto it = LowerBound(key);
    if (it != entries_.end() && it->first == key.ToString()) {
      (*handle_entry)(arg, it->first, it->second, nullptr);
    }
    return Status::OK();
  }
  bool PrefixMayMatch(const Slice&) override { return true; }
  uint64_t ApproximateOffsetOf(const Slice&) override { return 0; }
  std::shared_ptr<const TableProperties> GetTableProperties() const override {
    return nullptr;
  }
  size_t ApproximateMemoryUsage() const override { return 0; }

  const std::string& file_name() const { return file_->file_name(); }
  const Entries& entries() const { return entries_; }
  Entries::const_iterator LowerBound(const Slice& key) const {
    return std::lower_bound(
        entries_.begin(), entries_.end(), key.ToString(),
        [](const auto& e, const std::string& k) { return e.first < k; });
  }

 private:
  std::unique_ptr<RandomAccessFileReader> file_;  // held open, as a real one
  const Entries entries_;
  OpenLog* const log_;
};

// Reads the entries through the reader, so a reader closed under it is a
// use-after-free (ASan) and shows in the OpenLog.
class FakeTableIterator : public InternalIterator {
 public:
  explicit FakeTableIterator(const FakeTableReader* table)
      : table_(table), pos_(table->entries().size()) {}
  bool Valid() const override { return pos_ < table_->entries().size(); }
  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override {
    pos_ = table_->entries().empty() ? 0 : table_->entries().size() - 1;
  }
  void Seek(const Slice& target) override {
    pos_ = static_cast<size_t>(table_->LowerBound(target) -
                               table_->entries().begin());
  }
  void SeekForPrev(const Slice&) override { pos_ = table_->entries().size(); }
  void Next() override { pos_++; }
  void Prev() override {
    pos_ = pos_ == 0 ? table_->entries().size() : pos_ - 1;
  }
  Slice key() const override { return table_->entries()[pos_].first; }
  Slice value() const override { return table_->entries()[pos_].second; }
  Status status() const override { return Status::OK(); }

 private:
  const FakeTableReader* const table_;
  size_t pos_;
};

InternalIterator* FakeTableReader::NewIterator(const ReadOptions&) {
  return new FakeTableIterator(this);
}

class FakeTableFactory : public TableFactory {
 public:
  explicit FakeTableFactory(OpenLog* log) : log_(log) {}
  const char* Name() const override { return "FakeTable"; }

  Status NewTableReader(const TableReaderOptions&,
                        std::unique_ptr<RandomAccessFileReader> file,
                        uint64_t file_size,
                        std::unique_ptr<TableReader>* table) const override {
    log_->Attempted();
    std::string scratch(static_cast<size_t>(file_size), '\0');
    Slice contents;
    Status s = file->Read(0, scratch.size(), &contents, &scratch[0]);
    if (!s.ok()) return s;
    if (!contents.starts_with(kMagic)) {
      return Status::Corruption(file->file_name(), "not a fake table");
    }
    contents.remove_prefix(sizeof(kMagic) - 1);
    Entries entries;
    while (!contents.empty()) {
      const std::string line(
          contents.data(),
          std::find(contents.data(), contents.data() + contents.size(), '\n') -
              contents.data());
      contents.remove_prefix(std::min(contents.size(), line.size() + 1));
      const size_t eq = line.find('=');
      if (eq == std::string::npos) {
        return Status::Corruption(file->file_name(), "line without '='");
      }
      entries.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    }
    table->reset(
        new FakeTableReader(std::move(file), std::move(entries), log_));
    return Status::OK();
  }
  TableBuilder* NewTableBuilder(const TableBuilderOptions&,
                                WritableFileWriter*) const override {
    return nullptr;
  }

 private:
  OpenLog* const log_;
};

bool SaveValue(void* arg, const Slice& key, const Slice& value, CachePin*) {
  *static_cast<std::string*>(arg) = key.ToString() + "=" + value.ToString();
  return false;
}

class TableCacheTest : public testing::TestWithParam<bool /*mem env*/> {
 protected:
  TableCacheTest() : factory_(&log_) {}

  void SetUp() override {
    if (GetParam()) {
      mem_env_.reset(NewMemEnv(Env::Default()));
      env_ = mem_env_.get();
    } else {
      env_ = Env::Default();
    }
    dir_.reset(new test::TempDir(env_, "table_cache"));
  }

  void NewCache(int max_open_files) {
    TableCacheOptions options;
    options.env = env_;
    options.dbname = dir_->path();
    options.table_factory = &factory_;
    options.max_open_files = max_open_files;
    cache_.reset(new TableCache(options));
  }

  // Writes table `number` with keys "<number>.a" and "<number>.b".
  uint64_t WriteTable(uint64_t number) {
    const std::string n = std::to_string(number);
    const std::string data =
        std::string(kMagic) + n + ".a=A" + n + "\n" + n + ".b=B" + n + "\n";
    EXPECT_TRUE(WriteStringToFile(env_, data, Name(number)).ok());
    sizes_[number] = data.size();
    return number;
  }
  std::string Name(uint64_t number) const {
    return TableFileName(dir_->path(), number);
  }

  // "key=value", "" if absent, or the error.
  std::string Get(uint64_t number, const std::string& key) {
    std::string found;
    Status s = cache_->Get(ReadOptions(), number, sizes_[number], key, &found,
                           &SaveValue);
    return s.ok() ? found : s.ToString();
  }

  // The same through the table's metadata.
  std::string GetFrom(const FileMetaData& f, const std::string& key) {
    std::string found;
    Status s = cache_->Get(ReadOptions(), f, key, &found, &SaveValue);
    return s.ok() ? found : s.ToString();
  }

  std::unique_ptr<Env> mem_env_;
  Env* env_ = nullptr;
  std::unique_ptr<test::TempDir> dir_;
  OpenLog log_;
  FakeTableFactory factory_;
  std::map<uint64_t, uint64_t> sizes_;
  std::unique_ptr<TableCache> cache_;
};

TEST_P(TableCacheTest, GetCallsThroughAndOpensOnce) {
  NewCache(10);
  WriteTable(7);
  EXPECT_EQ("7.a=A7", Get(7, "7.a"));
  EXPECT_EQ("7.b=B7", Get(7, "7.b"));
  EXPECT_EQ("", Get(7, "7.c"));
  EXPECT_EQ(1, log_.opens());
  EXPECT_EQ(1u, cache_->NumOpen());
  EXPECT_TRUE(log_.IsOpen(Name(7)));
}

TEST_P(TableCacheTest, MaxOpenFilesBoundsOpenTables) {
  NewCache(3);
  for (uint64_t n = 1; n <= 10; n++) {
    WriteTable(n);
    EXPECT_EQ(std::to_string(n) + ".a=A" + std::to_string(n),
              Get(n, std::to_string(n) + ".a"));
    EXPECT_LE(cache_->NumOpen(), 3u);
    EXPECT_EQ(cache_->NumOpen(), log_.live());
  }
  EXPECT_EQ(3u, cache_->NumOpen());
  EXPECT_EQ(10, log_.opens());
  // The most recently used are open; an evicted table is opened again.
  EXPECT_TRUE(log_.IsOpen(Name(10)));
  EXPECT_FALSE(log_.IsOpen(Name(1)));
  EXPECT_EQ("1.b=B1", Get(1, "1.b"));
  EXPECT_EQ(11, log_.opens());
  EXPECT_EQ(3u, log_.live());
}

TEST_P(TableCacheTest, UnboundedKeepsEveryTable) {
  NewCache(-1);
  for (uint64_t n = 1; n <= 100; n++) {
    WriteTable(n);
    EXPECT_EQ("", Get(n, "x"));
  }
  for (uint64_t n = 1; n <= 100; n++) EXPECT_EQ("", Get(n, "x"));
  EXPECT_EQ(100u, cache_->NumOpen());
  EXPECT_EQ(100, log_.opens());
}

TEST_P(TableCacheTest, PinnedTableSurvivesEvictionPressure) {
  NewCache(2);
  WriteTable(1);
  TableReader* reader = nullptr;
  std::unique_ptr<InternalIterator> iter(
      cache_->NewIterator(ReadOptions(), 1, sizes_[1], &reader));
  ASSERT_NE(nullptr, reader);
  EXPECT_EQ(Name(1), static_cast<FakeTableReader*>(reader)->file_name());
  iter->SeekToFirst();
  ASSERT_TRUE(iter->Valid());
  EXPECT_EQ("1.a", iter->key().ToString());

  for (uint64_t n = 2; n <= 8; n++) {
    WriteTable(n);
    Get(n, "x");
    EXPECT_LE(cache_->NumOpen(), 2u);
  }
  // Table 1 was never closed, and the iterator goes on reading it.
  EXPECT_TRUE(log_.IsOpen(Name(1)));
  EXPECT_EQ(8, log_.opens());
  iter->Next();
  ASSERT_TRUE(iter->Valid());
  EXPECT_EQ("B1", iter->value().ToString());

  // Hold two more tables, so the cache is over capacity when table 1 is
  // released: it closes then.
  std::unique_ptr<InternalIterator> it2(
      cache_->NewIterator(ReadOptions(), 2, sizes_[2]));
  std::unique_ptr<InternalIterator> it3(
      cache_->NewIterator(ReadOptions(), 3, sizes_[3]));
  EXPECT_EQ(3u, cache_->NumOpen());
  iter.reset();
  EXPECT_FALSE(log_.IsOpen(Name(1)));
  EXPECT_EQ(2u, cache_->NumOpen());
  it2.reset();
  it3.reset();
  EXPECT_EQ(2u, log_.live());
}

TEST_P(TableCacheTest, EvictClosesNowOrWhenReleased) {
  NewCache(10);
  WriteTable(1);
  WriteTable(2);
  EXPECT_EQ("1.a=A1", Get(1, "1.a"));
  std::unique_ptr<InternalIterator> iter(
      cache_->NewIterator(ReadOptions(), 2, sizes_[2]));
  EXPECT_EQ(2u, cache_->NumOpen());

  cache_->Evict(1);  // unused: closed at once
  EXPECT_FALSE(log_.IsOpen(Name(1)));
  EXPECT_EQ(1u, cache_->NumOpen());

  cache_->Evict(2);  // in use: closed when the iterator goes
  EXPECT_TRUE(log_.IsOpen(Name(2)));
  iter->Seek("2.b");
  ASSERT_TRUE(iter->Valid());
  EXPECT_EQ("B2", iter->value().ToString());
  iter.reset();
  EXPECT_FALSE(log_.IsOpen(Name(2)));
  EXPECT_EQ(0u, cache_->NumOpen());

  // Evicted tables open again on their next use.
  EXPECT_EQ("2.a=A2", Get(2, "2.a"));
  EXPECT_EQ(3, log_.opens());
  cache_->Evict(99);  // never opened: nothing happens
}

// Reads through a file's metadata pin its reader there when every table
// stays open: later reads need no lookup, and the reader lives as long as
// the metadata even once the cache lets it go.
TEST_P(TableCacheTest, UnboundedCachePinsTheReaderInTheFileMetaData) {
  NewCache(-1);
  WriteTable(7);
  auto f = std::make_unique<FileMetaData>();
  f->number = 7;
  f->file_size = sizes_[7];
  EXPECT_EQ("7.a=A7", GetFrom(*f, "7.a"));
  EXPECT_EQ("7.b=B7", GetFrom(*f, "7.b"));
  EXPECT_EQ(1, log_.opens());

  cache_->Evict(7);
  EXPECT_TRUE(log_.IsOpen(Name(7)));
  EXPECT_EQ("7.a=A7", GetFrom(*f, "7.a"));  // the pinned reader, no lookup
  EXPECT_EQ(1, log_.opens());
  // A copy does not share the pin: it finds the table through the cache,
  // which opens it again after the eviction.
  FileMetaData copy = *f;
  EXPECT_EQ("7.b=B7", GetFrom(copy, "7.b"));
  EXPECT_EQ(2, log_.opens());
  f.reset();
  EXPECT_EQ(1u, log_.live());
}

// With a bound on open tables nothing is pinned: the cache alone decides
// what stays open.
TEST_P(TableCacheTest, BoundedCacheDoesNotPin) {
  NewCache(10);
  WriteTable(7);
  FileMetaData f;
  f.number = 7;
  f.file_size = sizes_[7];
  EXPECT_EQ("7.a=A7", GetFrom(f, "7.a"));
  cache_->Evict(7);
  EXPECT_FALSE(log_.IsOpen(Name(7)));
  EXPECT_EQ("7.b=B7", GetFrom(f, "7.b"));
  EXPECT_EQ(2, log_.opens());
}

TEST_P(TableCacheTest, OpenErrorsAreReturnedAndNotCached) {
  NewCache(10);
  sizes_[5] = 10;
  std::string result = Get(5, "5.a");
  EXPECT_NE("", result);
  EXPECT_EQ(0, log_.attempts());  // the Env failed before the factory ran
  TableReader* reader = reinterpret_cast<TableReader*>(&reader);
  std::unique_ptr<InternalIterator> iter(
      cache_->NewIterator(ReadOptions(), 5, 10, &reader));
  EXPECT_EQ(nullptr, reader);
  EXPECT_FALSE(iter->Valid());
  EXPECT_FALSE(iter->status().ok());
  bool ran = false;
  EXPECT_FALSE(
      cache_->WithTable(5, 10, [&ran](TableReader*) { ran = true; }).ok());
  EXPECT_FALSE(ran);
  EXPECT_EQ(0u, cache_->NumOpen());

  // A file the factory rejects: Corruption, every time it is tried.
  ASSERT_TRUE(WriteStringToFile(env_, "garbage", Name(6)).ok());
  sizes_[6] = 7;
  EXPECT_NE(std::string::npos, Get(6, "x").find("Corruption"));
  EXPECT_NE(std::string::npos, Get(6, "x").find("not a fake table"));
  EXPECT_EQ(2, log_.attempts());
  EXPECT_EQ(0u, cache_->NumOpen());

  // Once the file is there, it opens: the error was not remembered.
  WriteTable(5);
  EXPECT_EQ("5.a=A5", Get(5, "5.a"));
  EXPECT_EQ(1u, cache_->NumOpen());
}

TEST_P(TableCacheTest, WithTableRunsOnTheOpenReader) {
  NewCache(10);
  WriteTable(3);
  const FakeTableReader* seen = nullptr;
  ASSERT_TRUE(cache_
                  ->WithTable(3, sizes_[3],
                              [&seen](TableReader* r) {
                                seen = static_cast<FakeTableReader*>(r);
                              })
                  .ok());
  ASSERT_NE(nullptr, seen);
  EXPECT_EQ(Name(3), seen->file_name());
  EXPECT_EQ(2u, seen->entries().size());
  ASSERT_TRUE(cache_->WithTable(3, sizes_[3], [](TableReader*) {}).ok());
  EXPECT_EQ(1, log_.opens());
}

TEST_P(TableCacheTest, ConcurrentMissesOpenEachTableOnce) {
  NewCache(100);
  constexpr int kTables = 6;
  for (uint64_t n = 1; n <= kTables; n++) WriteTable(n);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; t++) {
    threads.emplace_back([this, t, &wrong] {
      for (int i = 0; i < 200; i++) {
        const uint64_t n = 1 + static_cast<uint64_t>((t + i) % kTables);
        std::string found;
        const std::string key = std::to_string(n) + ".b";
        Status s = cache_->Get(ReadOptions(), n, sizes_.at(n), key, &found,
                               &SaveValue);
        if (!s.ok() || found != key + "=B" + std::to_string(n)) wrong++;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(0, wrong.load());
  EXPECT_EQ(kTables, log_.opens());
  EXPECT_EQ(static_cast<size_t>(kTables), cache_->NumOpen());
}

TEST_P(TableCacheTest, DestroyingTheCacheClosesEveryTable) {
  NewCache(-1);
  for (uint64_t n = 1; n <= 5; n++) {
    WriteTable(n);
    Get(n, "x");
  }
  EXPECT_EQ(5u, log_.live());
  cache_.reset();
  EXPECT_EQ(0u, log_.live());
}

INSTANTIATE_TEST_SUITE_P(MemAndDefaultEnv, TableCacheTest, testing::Bool());

}  // namespace
}  // namespace strata
