// DBIter over a memtable and tables together — the read path of a DB whose
// older writes have been flushed: each source's internal iterator (the
// tables' through the TableCache), merged, then DBIter. Random histories
// spread over the sources, random bounds, random walks in both directions,
// checked against a model of what is visible.

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/db_iter.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "db/table_cache.h"
#include "gtest/gtest.h"
#include "memtable/memtable.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "strata/table.h"
#include "table/merging_iterator.h"
#include "table/table_builder.h"
#include "test/db/model_walk.h"
#include "test/table/table_test_util.h"
#include "util/random.h"

namespace strata {
namespace {

struct Entry {
  std::string key;
  SequenceNumber sequence;
  ValueType type;
  std::string value;
};

class DBIterTablesTest : public testing::Test {
 protected:
  DBIterTablesTest()
      : env_(NewMemEnv(Env::Default())),
        icmp_(BytewiseComparator()),
        prefix_(NewFixedPrefixTransform(2)) {
    BlockBasedTableOptions topts;
    topts.block_size = 64;  // several blocks per table
    topts.filter_policy.reset(NewBloomFilterPolicy(10));
    factory_.reset(NewBlockBasedTableFactory(topts));
    env_->CreateDirIfMissing(kDB);
  }

  // Writes entries as table number; returns its size.
  uint64_t WriteTable(uint64_t number, std::vector<Entry> entries) {
    test::TableEntries sorted;
    for (const Entry& e : entries) {
      sorted.emplace_back(
          InternalKey(e.key, e.sequence, e.type).Encode().ToString(), e.value);
    }
    test::SortTableEntries(icmp_, &sorted);
    TableBuilderOptions bopts;
    bopts.icmp = &icmp_;
    bopts.prefix_extractor = prefix_.get();
    uint64_t size = 0;
    Status s = test::BuildTable(env_.get(), TableFileName(kDB, number),
                                *factory_, bopts, sorted, &size);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return size;
  }

  TableCacheOptions CacheOptions(int max_open_files) {
    TableCacheOptions copts;
    copts.env = env_.get();
    copts.dbname = kDB;
    copts.table_factory = factory_.get();
    copts.reader_options.icmp = &icmp_;
    copts.reader_options.prefix_extractor = prefix_.get();
    copts.max_open_files = max_open_files;
    return copts;
  }

  static constexpr const char* kDB = "/iterdb";
  std::unique_ptr<Env> env_;
  InternalKeyComparator icmp_;
  std::shared_ptr<TableFactory> factory_;
  std::unique_ptr<const SliceTransform> prefix_;
};

TEST_F(DBIterTablesTest, MemtableAndTablesAgainstModel) {
  Random rnd(2027);
  for (int round = 0; round < 30; round++) {
    SCOPED_TRACE("round " + std::to_string(round));
    // The oldest third of the history in table 1, the next in table 2, the
    // newest in the memtable, as successive flushes would leave them.
    const int num_keys = 1 + rnd.Uniform(20);
    const int num_versions = 1 + rnd.Uniform(150);
    std::vector<Entry> sources[3];
    for (int i = 0; i < num_versions; i++) {
      Entry e;
      e.key = "k" + std::to_string(rnd.Uniform(num_keys));
      e.sequence = i + 1;
      e.type = rnd.OneIn(4) ? kTypeDeletion : kTypeValue;
      if (e.type == kTypeValue) e.value = "v" + std::to_string(i + 1);
      sources[i * 3 / num_versions].push_back(e);
    }
    const SequenceNumber read_seq = rnd.Uniform(num_versions + 2);
    std::map<std::string, std::string> model;
    for (const auto& source : sources) {
      for (const Entry& e : source) {
        if (e.sequence > read_seq) continue;
        if (e.type == kTypeValue) {
          model[e.key] = e.value;
        } else {
          model.erase(e.key);
        }
      }
    }

    const uint64_t size1 = WriteTable(1, sources[0]);
    const uint64_t size2 = WriteTable(2, sources[1]);
    MemTable* mem = new MemTable(icmp_);
    mem->Ref();
    for (const Entry& e : sources[2]) {
      ASSERT_TRUE(mem->Add(e.sequence, e.type, e.key, e.value).ok());
    }

    // One open table at a time: both iterators must keep theirs pinned.
    TableCache cache(CacheOptions(/*max_open_files=*/1));
    std::vector<InternalIterator*> children;
    children.push_back(mem->NewIterator());
    children.push_back(cache.NewIterator(ReadOptions(), 2, size2));
    children.push_back(cache.NewIterator(ReadOptions(), 1, size1));

    std::string lower_key = "k" + std::to_string(rnd.Uniform(num_keys + 1));
    std::string upper_key = "k" + std::to_string(rnd.Uniform(num_keys + 1));
    Slice lower(lower_key), upper(upper_key);
    const bool use_lower = rnd.OneIn(3), use_upper = rnd.OneIn(3);
    std::map<std::string, std::string> bounded;
    for (const auto& kv : model) {
      if (use_lower && kv.first < lower_key) continue;
      if (use_upper && kv.first >= upper_key) continue;
      bounded.insert(kv);
    }
    std::unique_ptr<Iterator> it(NewDBIterator(
        BytewiseComparator(), NewMergingIterator(&icmp_, std::move(children)),
        read_seq, use_lower ? &lower : nullptr, use_upper ? &upper : nullptr,
        nullptr));
    test::RandomModelWalk(it.get(), bounded, &rnd, 300, [num_keys](Random* r) {
      return "k" + std::to_string(r->Uniform(num_keys + 1));
    });
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
    it.reset();
    mem->Unref();
    if (HasFatalFailure()) return;
  }
}

// prefix_same_as_start over a memtable and tables whose prefix filters
// let them skip confined seeks: no key DBIter should show may be lost to a
// skipped table — after direction switches, and with bounds (SeekToFirst
// and SeekToLast are not confined even though they seek to a bound).
TEST_F(DBIterTablesTest, PrefixSeeksSkipTablesWithoutLosingKeys) {
  Random rnd(99);
  auto random_key = [&rnd]() {
    std::string k;
    const int len = 1 + rnd.Uniform(3);
    for (int i = 0; i < len; i++) k += static_cast<char>('a' + rnd.Uniform(4));
    return k;
  };
  for (int round = 0; round < 40; round++) {
    SCOPED_TRACE("round " + std::to_string(round));
    const int num_versions = 1 + rnd.Uniform(40);
    std::vector<Entry> sources[4];
    std::map<std::string, std::string> model;
    for (int i = 0; i < num_versions; i++) {
      Entry e{random_key(), static_cast<SequenceNumber>(i + 1),
              rnd.OneIn(4) ? kTypeDeletion : kTypeValue, ""};
      if (e.type == kTypeValue) {
        e.value = "v" + std::to_string(i + 1);
        model[e.key] = e.value;
      } else {
        model.erase(e.key);
      }
      sources[i * 4 / num_versions].push_back(e);
    }
    TableCache cache(CacheOptions(/*max_open_files=*/-1));
    ReadOptions ro;
    ro.prefix_same_as_start = true;
    MemTable* mem = new MemTable(icmp_);
    mem->Ref();
    std::vector<InternalIterator*> children;
    for (uint64_t t = 0; t < 3; t++) {
      const uint64_t size = WriteTable(10 + t, sources[t]);
      children.push_back(cache.NewIterator(ro, 10 + t, size));
    }
    for (const Entry& e : sources[3]) {
      ASSERT_TRUE(mem->Add(e.sequence, e.type, e.key, e.value).ok());
    }
    children.push_back(mem->NewIterator());

    std::string lower_key = random_key(), upper_key = random_key();
    Slice lower(lower_key), upper(upper_key);
    const bool use_lower = rnd.OneIn(3), use_upper = rnd.OneIn(3);
    std::unique_ptr<Iterator> it(NewDBIterator(
        BytewiseComparator(), NewMergingIterator(&icmp_, std::move(children)),
        kMaxSequenceNumber, use_lower ? &lower : nullptr,
        use_upper ? &upper : nullptr, prefix_.get(), /*merge_operator=*/nullptr,
        nullptr));
    test::PrefixModelWalk(it.get(), model, 2, use_lower ? &lower_key : nullptr,
                          use_upper ? &upper_key : nullptr, &rnd, 150,
                          [&random_key](Random*) { return random_key(); });
    it.reset();
    mem->Unref();
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace strata
