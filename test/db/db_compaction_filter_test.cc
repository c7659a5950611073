// Compaction filters (docs/compaction.md, "Compaction filters"): values
// removed, changed and skipped over, merge operands filtered, what a
// factory is told, entries a live snapshot sees left alone, flushes
// filtered only when asked, and the decisions and filters strata refuses
// reported as statuses.

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/compaction_filter.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/utilities/options_util.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

bool StartsWith(const Slice& s, const char* prefix) {
  return s.starts_with(Slice(prefix));
}

// Removes "del*" keys and values "drop", rewrites "chg*" values, skips
// from "skip" to "skip~", drops merge operands "bad", and records the
// keys it is shown.
class TestFilter : public CompactionFilter {
 public:
  Decision FilterV2(int /*level*/, const Slice& key, ValueType type,
                    const Slice& value, std::string* new_value,
                    std::string* skip_until) const override {
    {
      std::lock_guard<std::mutex> l(mu_);
      seen_.push_back(key.ToString());
    }
    if (type == kMergeOperand) {
      return value == Slice("bad") ? Decision::kRemove : Decision::kKeep;
    }
    if (StartsWith(key, "del") || value == Slice("drop")) {
      return Decision::kRemove;
    }
    if (StartsWith(key, "chg")) {
      *new_value = "new-" + value.ToString();
      return Decision::kChangeValue;
    }
    if (key == Slice("skip")) {
      *skip_until = "skip~";
      return Decision::kRemoveAndSkipUntil;
    }
    if (key == Slice("back")) {
      *skip_until = "a";  // before the key: taken as kKeep
      return Decision::kRemoveAndSkipUntil;
    }
    if (key == Slice("purge")) return Decision::kPurge;
    return Decision::kKeep;
  }
  bool IgnoreSnapshots() const override { return ignore_snapshots_; }
  const char* Name() const override { return "TestFilter"; }

  std::vector<std::string> Seen() const {
    std::lock_guard<std::mutex> l(mu_);
    return seen_;
  }
  bool ignore_snapshots_ = true;

 private:
  mutable std::mutex mu_;
  mutable std::vector<std::string> seen_;
};

class TestFactory : public CompactionFilterFactory {
 public:
  explicit TestFactory(bool flush) : flush_(flush) {}
  bool ShouldFilterTableFileCreation(
      TableFileCreationReason reason) const override {
    return reason == TableFileCreationReason::kCompaction ||
           (flush_ && reason == TableFileCreationReason::kFlush);
  }
  std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context& context) override {
    std::lock_guard<std::mutex> l(mu_);
    contexts.push_back(context);
    return std::make_unique<TestFilter>();
  }
  const char* Name() const override { return "TestFactory"; }

  std::mutex mu_;
  std::vector<CompactionFilter::Context> contexts;

 private:
  const bool flush_;
};

class DBCompactionFilterTest : public testing::Test {
 protected:
  DBCompactionFilterTest() {
    h_.options().disable_auto_compactions = true;
    h_.options().num_levels = 4;
    h_.options().merge_operator = MergeOperators::CreateStringAppendOperator();
  }

  void Put(const std::string& k, const std::string& v) {
    ASSERT_TRUE(h_.Put(k, v).ok());
  }
  void Flush() { ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok()); }
  Status CompactAll() {
    return h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  }
  // The L0 tables' names, oldest first.
  std::vector<std::string> L0Names() {
    ColumnFamilyMetaData meta;
    h_.db()->GetColumnFamilyMetaData(&meta);
    std::map<SequenceNumber, std::string> by_age;
    for (const SstFileMetaData& f : meta.levels[0].files) {
      by_age[f.smallest_seqno] = f.name;
    }
    std::vector<std::string> names;
    for (const auto& entry : by_age) names.push_back(entry.second);
    return names;
  }

  test::DBHolder h_;
  TestFilter filter_;
};

TEST_F(DBCompactionFilterTest, RemovesChangesAndSkips) {
  h_.options().compaction_filter = &filter_;
  ASSERT_TRUE(h_.Open().ok());
  for (const char* k : {"a", "chg1", "del1", "del2", "keep", "skip", "skip1",
                        "skip9", "skip~", "z"}) {
    Put(k, std::string("v-") + k);
  }
  Flush();
  EXPECT_EQ("v-del1", h_.Get("del1"));  // flushes are not filtered
  ASSERT_TRUE(CompactAll().ok());
  const std::map<std::string, std::string> expected = {{"a", "v-a"},
                                                       {"chg1", "new-v-chg1"},
                                                       {"keep", "v-keep"},
                                                       {"skip~", "v-skip~"},
                                                       {"z", "v-z"}};
  EXPECT_EQ(expected, h_.Contents());
  // Keys skipped over are never shown to the filter.
  for (const std::string& k : filter_.Seen()) {
    EXPECT_TRUE(k != "skip1" && k != "skip9") << k;
  }
}

// CompactRange on a family with a filter rewrites the deepest level into
// itself. With files each above max_compaction_bytes, a step that cut the
// range would start the next step at its own last output and pick it
// again, forever; each CompactRange must instead end, showing each key to
// the filter a bounded number of times.
TEST_F(DBCompactionFilterTest, InPlaceRewriteEndsOverManyLargeFiles) {
  h_.options().compaction_filter = &filter_;
  h_.options().target_file_size_base = 4 << 10;
  h_.options().max_compaction_bytes = 1;
  ASSERT_TRUE(h_.Open().ok());
  constexpr int kKeys = 300;
  for (int i = 0; i < kKeys; i++) {
    char key[16];
    std::snprintf(key, sizeof(key), "k%04d", i);
    // Incompressible, so that the tables are several files.
    std::string value(100, ' ');
    for (size_t j = 0; j < value.size(); j++) {
      value[j] = static_cast<char>('!' + (i * 131 + j * 97 + j * j) % 90);
    }
    Put(key, value);
  }
  Flush();
  ASSERT_TRUE(CompactAll().ok());
  ColumnFamilyMetaData meta;
  h_.db()->GetColumnFamilyMetaData(&meta);
  size_t deepest_files = 0;
  for (const LevelMetaData& level : meta.levels) {
    if (!level.files.empty()) deepest_files = level.files.size();
  }
  EXPECT_GT(deepest_files, 3u);
  const size_t first = filter_.Seen().size();
  EXPECT_GE(first, size_t{kKeys});
  EXPECT_LE(first, size_t{2 * kKeys});
  // Everything at the deepest level now: one more pass sees each key once.
  ASSERT_TRUE(CompactAll().ok());
  std::map<std::string, int> times;
  const std::vector<std::string> seen = filter_.Seen();
  for (size_t i = first; i < seen.size(); i++) times[seen[i]]++;
  EXPECT_EQ(size_t{kKeys}, times.size());
  for (const auto& entry : times) EXPECT_EQ(1, entry.second) << entry.first;
  EXPECT_EQ(size_t{kKeys}, h_.Contents().size());
}

TEST_F(DBCompactionFilterTest, SkipLeavesWhatSnapshotsSee) {
  h_.options().compaction_filter = &filter_;
  ASSERT_TRUE(h_.Open().ok());
  Put("skip1", "old");
  Put("skip3", "old");
  const Snapshot* snap = h_.db()->GetSnapshot();
  Put("skip", "x");
  Put("skip3", "new");
  Put("skip5", "new");
  Flush();
  ASSERT_TRUE(CompactAll().ok());
  // skip3's newer value goes without a deletion: the snapshot's shows.
  const std::map<std::string, std::string> latest = {{"skip1", "old"},
                                                     {"skip3", "old"}};
  EXPECT_EQ(latest, h_.Contents());
  EXPECT_EQ(latest, h_.Contents(snap));
  h_.db()->ReleaseSnapshot(snap);
}

TEST_F(DBCompactionFilterTest, SkipBeforeTheKeyKeeps) {
  h_.options().compaction_filter = &filter_;
  ASSERT_TRUE(h_.Open().ok());
  Put("back", "1");
  Put("backup", "2");
  Flush();
  ASSERT_TRUE(CompactAll().ok());
  EXPECT_EQ("1", h_.Get("back"));
  EXPECT_EQ("2", h_.Get("backup"));
}

TEST_F(DBCompactionFilterTest, RemovalHidesOlderVersionsBelow) {
  h_.options().compaction_filter = &filter_;
  ASSERT_TRUE(h_.Open().ok());
  Put("k", "old");
  Flush();
  ASSERT_TRUE(h_.db()->CompactFiles(CompactionOptions(), L0Names(), 3).ok());
  Put("k", "drop");
  Flush();
  // L0 -> L1 is not the bottommost level for k (L3 holds it): the removed
  // value must become a deletion, or "old" would show again.
  ASSERT_TRUE(h_.db()->CompactFiles(CompactionOptions(), L0Names(), 1).ok());
  EXPECT_EQ("NOT_FOUND", h_.Get("k"));
  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ("NOT_FOUND", h_.Get("k"));
}

TEST_F(DBCompactionFilterTest, MergeOperands) {
  h_.options().compaction_filter = &filter_;
  ASSERT_TRUE(h_.Open().ok());
  const WriteOptions wo;
  // Each round in a table of its own: a flush combines a key's operands
  // (as RocksDB's does), and the filter would then see them joined.
  ASSERT_TRUE(h_.db()->Merge(wo, "m1", "a").ok());
  Put("m2", "base");
  Put("m3", "base");
  ASSERT_TRUE(h_.db()->Merge(wo, "m4", "bad").ok());
  Flush();
  for (const char* key : {"m1", "m2", "m3"}) {
    ASSERT_TRUE(h_.db()->Merge(wo, key, "bad").ok());
  }
  Flush();
  ASSERT_TRUE(h_.db()->Merge(wo, "m1", "b").ok());
  ASSERT_TRUE(h_.db()->Merge(wo, "m2", "x").ok());
  Flush();
  EXPECT_EQ("a,bad,b", h_.Get("m1"));
  ASSERT_TRUE(CompactAll().ok());
  EXPECT_EQ("a,b", h_.Get("m1"));
  EXPECT_EQ("base,x", h_.Get("m2"));
  EXPECT_EQ("base", h_.Get("m3"));
  EXPECT_EQ("NOT_FOUND", h_.Get("m4"));
}

TEST_F(DBCompactionFilterTest, SnapshotsSeeWhatTheySaw) {
  h_.options().compaction_filter = &filter_;
  ASSERT_TRUE(h_.Open().ok());
  Put("del-old", "v1");
  Put("del-both", "v1");
  const Snapshot* snap = h_.db()->GetSnapshot();
  Put("del-both", "v2");
  Put("del-new", "v2");
  Flush();
  ASSERT_TRUE(CompactAll().ok());
  // What the snapshot sees is never filtered, even for the latest view.
  EXPECT_EQ("v1", h_.Get("del-old"));
  EXPECT_EQ("v1", h_.Get("del-old", snap));
  EXPECT_EQ("v1", h_.Get("del-both", snap));
  EXPECT_EQ("NOT_FOUND", h_.Get("del-both"));
  EXPECT_EQ("NOT_FOUND", h_.Get("del-new"));
  EXPECT_EQ("NOT_FOUND", h_.Get("del-new", snap));
  h_.db()->ReleaseSnapshot(snap);
  ASSERT_TRUE(CompactAll().ok());
  EXPECT_TRUE(h_.Contents().empty());
}

TEST_F(DBCompactionFilterTest, FactoryContext) {
  auto factory = std::make_shared<TestFactory>(false);
  h_.options().compaction_filter_factory = factory;
  h_.options().create_missing_column_families = true;
  ASSERT_TRUE(h_.Open().ok());
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(h_.db()->CreateColumnFamily(h_.options(), "two", &cf).ok());
  Put("del1", "x");
  Flush();
  EXPECT_TRUE(factory->contexts.empty());  // not asked for flushes
  Put("del2", "x");
  Flush();
  ASSERT_TRUE(
      h_.db()->CompactFiles(CompactionOptions(), {L0Names()[0]}, 1).ok());
  ASSERT_TRUE(CompactAll().ok());
  ASSERT_TRUE(h_.db()->Put(WriteOptions(), cf, "del3", "x").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions(), cf).ok());
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), cf, nullptr, nullptr).ok());
  std::string v;
  EXPECT_TRUE(h_.db()->Get(ReadOptions(), cf, "del3", &v).IsNotFound());
  EXPECT_TRUE(h_.Contents().empty());

  std::lock_guard<std::mutex> l(factory->mu_);
  ASSERT_EQ(3u, factory->contexts.size());
  // CompactFiles took one of two tables; CompactRange took every table.
  EXPECT_FALSE(factory->contexts[0].is_full_compaction);
  EXPECT_TRUE(factory->contexts[1].is_full_compaction);
  for (const CompactionFilter::Context& c : factory->contexts) {
    EXPECT_TRUE(c.is_manual_compaction);
    EXPECT_EQ(TableFileCreationReason::kCompaction, c.reason);
  }
  EXPECT_EQ(0u, factory->contexts[1].column_family_id);
  EXPECT_EQ(cf->GetID(), factory->contexts[2].column_family_id);
  EXPECT_NE(0u, cf->GetID());
  ASSERT_TRUE(h_.db()->DestroyColumnFamilyHandle(cf).ok());
}

TEST_F(DBCompactionFilterTest, AutomaticCompaction) {
  auto factory = std::make_shared<TestFactory>(false);
  h_.options().compaction_filter_factory = factory;
  h_.options().disable_auto_compactions = false;
  h_.options().level0_file_num_compaction_trigger = 2;
  ASSERT_TRUE(h_.Open().ok());
  Put("del1", "x");
  Put("k1", "v");
  Flush();
  Put("del2", "x");
  Put("k2", "v");
  Flush();
  ASSERT_TRUE(static_cast<DBImpl*>(h_.db())->WaitForBackgroundWork().ok());
  const std::map<std::string, std::string> expected = {{"k1", "v"},
                                                       {"k2", "v"}};
  EXPECT_EQ(expected, h_.Contents());
  std::lock_guard<std::mutex> l(factory->mu_);
  ASSERT_EQ(1u, factory->contexts.size());
  EXPECT_FALSE(factory->contexts[0].is_manual_compaction);
  EXPECT_TRUE(factory->contexts[0].is_full_compaction);
  EXPECT_EQ(TableFileCreationReason::kCompaction, factory->contexts[0].reason);
}

TEST_F(DBCompactionFilterTest, FlushFilteredWhenAsked) {
  auto factory = std::make_shared<TestFactory>(true);
  h_.options().compaction_filter_factory = factory;
  ASSERT_TRUE(h_.Open().ok());
  Put("del1", "x");
  Put("chg1", "y");
  const Snapshot* snap = h_.db()->GetSnapshot();
  Put("del2", "x");
  ASSERT_TRUE(h_.db()->Merge(WriteOptions(), "m", "a").ok());
  ASSERT_TRUE(h_.db()->Merge(WriteOptions(), "m", "bad").ok());
  Flush();
  EXPECT_EQ("a", h_.Get("m"));
  EXPECT_EQ("x", h_.Get("del1"));  // the snapshot sees it
  EXPECT_EQ("y", h_.Get("chg1"));
  EXPECT_EQ("NOT_FOUND", h_.Get("del2"));
  h_.db()->ReleaseSnapshot(snap);
  std::lock_guard<std::mutex> l(factory->mu_);
  ASSERT_EQ(1u, factory->contexts.size());
  EXPECT_EQ(TableFileCreationReason::kFlush, factory->contexts[0].reason);
  EXPECT_FALSE(factory->contexts[0].is_manual_compaction);
}

TEST_F(DBCompactionFilterTest, RefusedFiltersAndDecisions) {
  filter_.ignore_snapshots_ = false;
  h_.options().compaction_filter = &filter_;
  ASSERT_TRUE(h_.Open().ok());
  Put("a", "1");
  Flush();
  Status s = CompactAll();
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("IgnoreSnapshots"))
      << s.ToString();
  EXPECT_EQ("1", h_.Get("a"));
}

TEST_F(DBCompactionFilterTest, UnsupportedDecision) {
  h_.options().compaction_filter = &filter_;
  ASSERT_TRUE(h_.Open().ok());
  Put("purge", "1");
  Flush();
  Status s = CompactAll();
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("purge")) << s.ToString();
  EXPECT_EQ("1", h_.Get("purge"));
}

TEST_F(DBCompactionFilterTest, OptionsFileNamesTheFilter) {
  h_.options().compaction_filter = &filter_;
  h_.options().compaction_filter_factory = std::make_shared<TestFactory>(false);
  ASSERT_TRUE(h_.Open().ok());
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> families;
  ConfigOptions config;
  config.env = h_.env();
  ASSERT_TRUE(
      LoadLatestOptions(config, h_.name(), &db_options, &families).ok());
  ASSERT_EQ(1u, families.size());
  // A name read back sets no filter: the filter is the program's code.
  EXPECT_EQ(nullptr, families[0].options.compaction_filter);
  EXPECT_EQ(nullptr, families[0].options.compaction_filter_factory);
  std::vector<std::string> children;
  ASSERT_TRUE(h_.env()->GetChildren(h_.name(), &children).ok());
  std::string text;
  for (const std::string& f : children) {
    if (f.rfind("OPTIONS-", 0) == 0) {
      ASSERT_TRUE(ReadFileToString(h_.env(), h_.name() + "/" + f, &text).ok());
    }
  }
  EXPECT_NE(std::string::npos, text.find("compaction_filter=TestFilter\n"));
  EXPECT_NE(std::string::npos,
            text.find("compaction_filter_factory=TestFactory\n"));
}

}  // namespace
}  // namespace strata
