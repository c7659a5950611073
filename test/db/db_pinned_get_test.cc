// Get into a PinnableSlice: a plain value of a cached data block is pinned
// (it views the block and holds its cache entry) and stays readable and
// unchanged after its table is compacted away and the cache evicts all
// it can; Reset and destruction release the entry; memtable values,
// merge results and values of uncached blocks are copied. Run under ASan,
// a dangling view is caught.

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/table.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;

std::string Key(int i) { return "key" + std::to_string(1000 + i); }
std::string Value(int i, char fill) {
  return std::to_string(i) + std::string(60, fill);
}

// Whether the slice views its own buffer (a copy) rather than other bytes.
bool ViewsOwnBuffer(PinnableSlice& v) {
  const std::string* self = v.GetSelf();
  return v.data() >= self->data() &&
         v.data() + v.size() <= self->data() + self->size();
}

class DBPinnedGetTest : public testing::Test {
 protected:
  void Open(bool block_cache = true) {
    h_.options().compression = kNoCompression;
    h_.options().disable_auto_compactions = true;
    h_.options().merge_operator = MergeOperators::CreateStringAppendOperator();
    BlockBasedTableOptions table;
    if (block_cache) {
      table.block_cache = cache_;
    } else {
      table.no_block_cache = true;
    }
    h_.options().table_factory.reset(NewBlockBasedTableFactory(table));
    ASSERT_TRUE(h_.Open().ok());
  }

  // Keys 0..n-1 with Value(i, fill), flushed to a table.
  void FillTable(int n, char fill) {
    for (int i = 0; i < n; i++)
      ASSERT_TRUE(h_.Put(Key(i), Value(i, fill)).ok());
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }

  Status Get(const std::string& key, PinnableSlice* value) {
    return h_.db()->Get(ReadOptions(), h_.db()->DefaultColumnFamily(), key,
                        value);
  }

  std::shared_ptr<Cache> cache_ = NewLRUCache(1 << 20);
  DBHolder h_;
};

TEST_F(DBPinnedGetTest, CachedBlockValueIsPinnedAndOutlivesItsTable) {
  Open();
  FillTable(200, 'a');
  PinnableSlice value;
  ASSERT_TRUE(Get(Key(50), &value).ok());
  ASSERT_TRUE(value.IsPinned());
  EXPECT_FALSE(ViewsOwnBuffer(value));
  EXPECT_EQ(value.ToString(), Value(50, 'a'));
  const char* const where = value.data();
  EXPECT_GT(cache_->GetPinnedUsage(), 0u);

  // The table goes: every key rewritten and compacted into a new table,
  // the old file deleted and its reader closed.
  const std::vector<uint64_t> old_tables =
      test::ListDBFiles(h_.env(), h_.name()).tables;
  FillTable(200, 'b');
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  for (uint64_t t : test::ListDBFiles(h_.env(), h_.name()).tables) {
    for (uint64_t old : old_tables) ASSERT_NE(t, old);
  }
  // The cache evicts every entry nobody pins.
  cache_->SetCapacity(0);
  EXPECT_GT(cache_->GetPinnedUsage(), 0u);
  EXPECT_EQ(value.data(), where);
  EXPECT_EQ(value.ToString(), Value(50, 'a'));
  EXPECT_EQ(h_.Get(Key(50)), Value(50, 'b'));

  // Reset releases the pin; capacity 0, the block is freed with it.
  value.Reset();
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);
  EXPECT_EQ(cache_->GetUsage(), 0u);
}

TEST_F(DBPinnedGetTest, DestructionAndRepinningReleaseThePin) {
  Open();
  FillTable(100, 'a');
  {
    PinnableSlice value;
    ASSERT_TRUE(Get(Key(1), &value).ok());
    ASSERT_TRUE(value.IsPinned());
    EXPECT_GT(cache_->GetPinnedUsage(), 0u);
  }
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);

  // A second Get into the same slice drops the first pin: Key(2) and
  // Key(99) lie in different blocks.
  PinnableSlice value;
  ASSERT_TRUE(Get(Key(99), &value).ok());
  const size_t last_block = cache_->GetPinnedUsage();
  ASSERT_TRUE(Get(Key(2), &value).ok());
  EXPECT_EQ(value.ToString(), Value(2, 'a'));
  ASSERT_TRUE(Get(Key(99), &value).ok());
  EXPECT_EQ(value.ToString(), Value(99, 'a'));
  EXPECT_EQ(cache_->GetPinnedUsage(), last_block);
  ASSERT_TRUE(Get("absent", &value).IsNotFound());
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);
}

TEST_F(DBPinnedGetTest, PinnedValueOutlivesTheDBWhileTheCacheLives) {
  Open();
  FillTable(100, 'a');
  PinnableSlice value;
  ASSERT_TRUE(Get(Key(7), &value).ok());
  ASSERT_TRUE(value.IsPinned());
  h_.Close();
  EXPECT_EQ(value.ToString(), Value(7, 'a'));
  value.Reset();
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);
}

TEST_F(DBPinnedGetTest, MemtableValueIsCopied) {
  Open();
  ASSERT_TRUE(h_.Put("k", "memtable value").ok());
  PinnableSlice value;
  ASSERT_TRUE(Get("k", &value).ok());
  EXPECT_FALSE(value.IsPinned());
  EXPECT_TRUE(ViewsOwnBuffer(value));
  EXPECT_EQ(value.ToString(), "memtable value");
  // Flushing frees the memtable; the copy stays.
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  EXPECT_EQ(value.ToString(), "memtable value");
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);
}

TEST_F(DBPinnedGetTest, UncachedBlockValueIsCopied) {
  Open(/*block_cache=*/false);
  FillTable(100, 'a');
  PinnableSlice value;
  ASSERT_TRUE(Get(Key(3), &value).ok());
  EXPECT_FALSE(value.IsPinned());
  EXPECT_TRUE(ViewsOwnBuffer(value));
  EXPECT_EQ(value.ToString(), Value(3, 'a'));
  // fill_cache off, the block not cached: read and owned by the lookup.
  h_.Close();
  h_.options().table_factory.reset();
  Open();
  ReadOptions ro;
  ro.fill_cache = false;
  value.Reset();
  ASSERT_TRUE(
      h_.db()->Get(ro, h_.db()->DefaultColumnFamily(), Key(4), &value).ok());
  EXPECT_FALSE(value.IsPinned());
  EXPECT_EQ(value.ToString(), Value(4, 'a'));
}

TEST_F(DBPinnedGetTest, MergeResultsAreCopiedAndCorrect) {
  Open();
  ASSERT_TRUE(h_.Put("m", "base").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h_.db()->Merge(WriteOptions(), "m", "one").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h_.db()->Merge(WriteOptions(), "m", "two").ok());
  // Operands only, all in tables.
  ASSERT_TRUE(h_.db()->Merge(WriteOptions(), "o", "x").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h_.db()->Merge(WriteOptions(), "o", "y").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  PinnableSlice value;
  ASSERT_TRUE(Get("m", &value).ok());
  EXPECT_EQ(value.ToString(), "base,one,two");
  EXPECT_FALSE(value.IsPinned());
  ASSERT_TRUE(Get("o", &value).ok());
  EXPECT_EQ(value.ToString(), "x,y");
  EXPECT_FALSE(value.IsPinned());
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);
}

TEST_F(DBPinnedGetTest, StringGetCopiesPinnedValuesOnce) {
  Open();
  FillTable(100, 'a');
  ASSERT_TRUE(h_.Put(Key(5), "newer, in the memtable").ok());
  std::string value = "old contents";
  ASSERT_TRUE(h_.db()->Get(ReadOptions(), Key(6), &value).ok());
  EXPECT_EQ(value, Value(6, 'a'));
  ASSERT_TRUE(h_.db()->Get(ReadOptions(), Key(5), &value).ok());
  EXPECT_EQ(value, "newer, in the memtable");
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);

  // A PinnableSlice over the caller's string fills that string when it
  // copies, and leaves it alone when it pins.
  std::string buf;
  PinnableSlice over(&buf);
  ASSERT_TRUE(Get(Key(5), &over).ok());
  EXPECT_EQ(buf, "newer, in the memtable");
  EXPECT_EQ(over.data(), buf.data());
  buf.clear();
  ASSERT_TRUE(Get(Key(8), &over).ok());
  EXPECT_TRUE(over.IsPinned());
  EXPECT_TRUE(buf.empty());
  EXPECT_EQ(over.ToString(), Value(8, 'a'));
}

}  // namespace
}  // namespace strata
