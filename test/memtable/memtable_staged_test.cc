// Staged adds (MemTable::Stage and LinkStaged) and the large batches that
// use them (InsertBatchIntoMemTable): linking a batch's entries in key
// order must leave the memtable exactly as adding them one by one in
// batch order does — entries, counters, refused duplicates.

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/memtable_inserter.h"
#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "memtable/memtable.h"
#include "strata/comparator.h"
#include "strata/write_batch.h"
#include "test/memtable/scan_entries.h"
#include "util/random.h"

namespace strata {
namespace {

struct Entry {
  SequenceNumber seq;
  ValueType type;
  std::string key;
  std::string value;
};

// Entries of every point type over few user keys (so keys repeat at
// several sequence numbers), sequence numbers from first_seq up in
// shuffled order.
std::vector<Entry> RandomEntries(Random* rnd, size_t n,
                                 SequenceNumber first_seq) {
  const ValueType types[] = {kTypeValue, kTypeDeletion, kTypeSingleDeletion,
                             kTypeMerge};
  std::vector<Entry> entries;
  for (size_t i = 0; i < n; i++) {
    const ValueType type = types[rnd->Uniform(4)];
    const bool has_value = type == kTypeValue || type == kTypeMerge;
    entries.push_back({first_seq + i, type,
                       "key" + std::to_string(rnd->Uniform(n / 3 + 1)),
                       has_value ? std::to_string(rnd->Next()) : ""});
  }
  for (size_t i = entries.size(); i > 1; i--) {
    std::swap(entries[i - 1].seq, entries[rnd->Uniform(i)].seq);
  }
  return entries;
}

class MemTableStagedTest : public testing::Test {
 protected:
  MemTableStagedTest()
      : icmp_(BytewiseComparator()),
        added_(new MemTable(icmp_)),
        staged_(new MemTable(icmp_)) {
    added_->Ref();
    staged_->Ref();
  }
  ~MemTableStagedTest() override {
    added_->Unref();
    staged_->Unref();
  }

  // The same entries into added_ by Add and into staged_ in chunks of
  // Stage + LinkStaged.
  void AddBoth(const std::vector<Entry>& entries, size_t chunk) {
    MemTable::Staged staged;
    for (size_t i = 0; i < entries.size(); i++) {
      const Entry& e = entries[i];
      ASSERT_TRUE(added_->Add(e.seq, e.type, e.key, e.value).ok());
      ASSERT_TRUE(staged_->Stage(e.seq, e.type, e.key, e.value, &staged).ok());
      if ((i + 1) % chunk == 0 || i + 1 == entries.size()) {
        ASSERT_TRUE(staged_->LinkStaged(&staged).ok());
        EXPECT_TRUE(staged.entries.empty());
      }
    }
  }

  void ExpectSame() {
    std::unique_ptr<InternalIterator> a(added_->NewIterator());
    std::unique_ptr<InternalIterator> b(staged_->NewIterator());
    const std::string forward = test::ScanEntries(a.get());
    EXPECT_FALSE(forward.empty());
    EXPECT_EQ(forward, test::ScanEntries(b.get()));
    EXPECT_EQ(test::ScanEntries(a.get(), false),
              test::ScanEntries(b.get(), false));
    EXPECT_EQ(added_->num_entries(), staged_->num_entries());
    EXPECT_EQ(added_->num_deletes(), staged_->num_deletes());
    EXPECT_EQ(added_->data_size(), staged_->data_size());
    EXPECT_EQ(added_->GetFirstSequenceNumber(),
              staged_->GetFirstSequenceNumber());
  }

  InternalKeyComparator icmp_;
  MemTable* added_;
  MemTable* staged_;
};

TEST_F(MemTableStagedTest, StagedChunksEqualAddsOneByOne) {
  Random rnd(301);
  // Random chunks into a memtable that already holds entries, so the
  // links land between existing ones.
  AddBoth(RandomEntries(&rnd, 600, 5000), 600);
  AddBoth(RandomEntries(&rnd, 3000, 100), 97);
  ExpectSame();
  EXPECT_EQ(3600u, staged_->num_entries());
  EXPECT_EQ(100u, staged_->GetFirstSequenceNumber());
}

TEST_F(MemTableStagedTest, AscendingChunksEqualAddsOneByOne) {
  Random rnd(302);
  std::vector<Entry> entries = RandomEntries(&rnd, 2000, 1);
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.key != b.key ? a.key < b.key : a.seq > b.seq;
  });
  AddBoth(entries, 250);  // each chunk already in key order
  ExpectSame();
}

TEST_F(MemTableStagedTest, DuplicatesAreRefusedAndNotCounted) {
  ASSERT_TRUE(staged_->Add(10, kTypeValue, "a", "1").ok());
  ASSERT_TRUE(staged_->Add(11, kTypeDeletion, "b", "").ok());
  MemTable::Staged staged;
  ASSERT_TRUE(staged_->Stage(12, kTypeValue, "c", "333", &staged).ok());
  ASSERT_TRUE(staged_->Stage(11, kTypeDeletion, "b", "", &staged).ok());
  ASSERT_TRUE(staged_->Stage(13, kTypeDeletion, "d", "", &staged).ok());
  ASSERT_TRUE(staged_->Stage(10, kTypeValue, "a", "1", &staged).ok());
  EXPECT_TRUE(staged_->LinkStaged(&staged).IsTryAgain());
  EXPECT_TRUE(staged.entries.empty());
  EXPECT_EQ(4u, staged_->num_entries());
  EXPECT_EQ(2u, staged_->num_deletes());  // b at 11 once, d
  EXPECT_EQ(2u + 1 + 4 + 1, staged_->data_size());
  EXPECT_EQ(10u, staged_->GetFirstSequenceNumber());
  std::unique_ptr<InternalIterator> it(staged_->NewIterator());
  EXPECT_EQ("a@10=1 b@11= c@12=333 d@13= ", test::ScanEntries(it.get()));
  // The emptied Staged serves again; entries already in order take the
  // other path, which refuses duplicates alike.
  ASSERT_TRUE(staged_->Stage(10, kTypeValue, "a", "1", &staged).ok());
  ASSERT_TRUE(staged_->Stage(14, kTypeValue, "e", "5", &staged).ok());
  EXPECT_TRUE(staged_->LinkStaged(&staged).IsTryAgain());
  EXPECT_EQ(5u, staged_->num_entries());
  EXPECT_EQ(8u + 2, staged_->data_size());
}

TEST_F(MemTableStagedTest, NonPointTypesAreRefused) {
  MemTable::Staged staged;
  EXPECT_TRUE(
      staged_->Stage(1, kTypeLogData, "a", "", &staged).IsInvalidArgument());
  EXPECT_TRUE(staged.entries.empty());
}

// A batch of records that InsertBatchIntoMemTable stages (one writer, 32
// records or more) against the same batch inserted concurrently (never
// staged): the same memtable.
TEST_F(MemTableStagedTest, LargeBatchesLeaveWhatUnstagedInsertsLeave) {
  Random rnd(303);
  WriteBatch batch;
  for (const Entry& e : RandomEntries(&rnd, 500, 1)) {
    const Slice value(e.value);
    ASSERT_TRUE(
        WriteBatchInternal::AddRecord(
            &batch, e.type, 0, e.key,
            e.type == kTypeValue || e.type == kTypeMerge ? &value : nullptr)
            .ok());
  }
  ASSERT_TRUE(batch.DeleteRange("key1", "key2").ok());
  ASSERT_GE(WriteBatchInternal::Count(&batch), 32u);
  ASSERT_TRUE(InsertBatchIntoMemTable(&batch, 1000, added_, nullptr,
                                      /*concurrent=*/true,
                                      /*ignore_duplicates=*/false)
                  .ok());
  ASSERT_TRUE(InsertBatchIntoMemTable(&batch, 1000, staged_, nullptr,
                                      /*concurrent=*/false,
                                      /*ignore_duplicates=*/false)
                  .ok());
  ExpectSame();
  EXPECT_EQ(1u, staged_->num_range_deletes());
  // Replayed (a WAL read twice): nothing changes, or Corruption when
  // duplicates are not expected.
  EXPECT_TRUE(InsertBatchIntoMemTable(&batch, 1000, staged_, nullptr, false,
                                      /*ignore_duplicates=*/true)
                  .ok());
  EXPECT_TRUE(InsertBatchIntoMemTable(&batch, 1000, staged_, nullptr, false,
                                      /*ignore_duplicates=*/false)
                  .IsCorruption());
  ExpectSame();
}

// A record of an unknown family stops the batch: what came before it is
// applied, staged or not.
TEST_F(MemTableStagedTest, ABatchStoppedByAnErrorKeepsItsPrefix) {
  WriteBatch batch;
  for (int i = 0; i < 40; i++) {
    ASSERT_TRUE(batch.Put("k" + std::to_string(i * 7919 % 40), "v").ok());
  }
  const Slice value("x");
  ASSERT_TRUE(
      WriteBatchInternal::AddRecord(&batch, kTypeValue, 9, "other", &value)
          .ok());
  ASSERT_TRUE(batch.Put("after", "v").ok());
  EXPECT_TRUE(InsertBatchIntoMemTable(&batch, 1, added_, nullptr, true, false)
                  .IsInvalidArgument());
  EXPECT_TRUE(InsertBatchIntoMemTable(&batch, 1, staged_, nullptr, false, false)
                  .IsInvalidArgument());
  ExpectSame();
  EXPECT_EQ(40u, staged_->num_entries());
}

// Records of two families in one large batch: each memtable gets its own
// entries, as without staging.
TEST_F(MemTableStagedTest, LargeBatchesOverSeveralMemTables) {
  class TwoTables final : public MemTableRouter {
   public:
    explicit TwoTables(MemTable* other) : other_(other) {}
    Status Route(uint32_t id, MemTable** mem) override {
      *mem = id == 1 ? other_ : nullptr;
      return Status::OK();
    }

   private:
    MemTable* const other_;
  };
  MemTable* added_other = new MemTable(icmp_);
  MemTable* staged_other = new MemTable(icmp_);
  added_other->Ref();
  staged_other->Ref();
  WriteBatch batch;
  Random rnd(304);
  for (int i = 0; i < 200; i++) {
    const std::string text = std::to_string(i);
    const Slice value(text);
    ASSERT_TRUE(WriteBatchInternal::AddRecord(
                    &batch, kTypeValue, i % 3 == 0 ? 1 : 0,
                    "k" + std::to_string(rnd.Uniform(1000)), &value)
                    .ok());
  }
  TwoTables to_added(added_other);
  TwoTables to_staged(staged_other);
  ASSERT_TRUE(
      InsertBatchIntoMemTable(&batch, 1, added_, &to_added, true, false).ok());
  ASSERT_TRUE(
      InsertBatchIntoMemTable(&batch, 1, staged_, &to_staged, false, false)
          .ok());
  ExpectSame();
  std::unique_ptr<InternalIterator> a(added_other->NewIterator());
  std::unique_ptr<InternalIterator> b(staged_other->NewIterator());
  EXPECT_EQ(test::ScanEntries(a.get()), test::ScanEntries(b.get()));
  EXPECT_EQ(67u, staged_other->num_entries());
  EXPECT_EQ(133u, staged_->num_entries());
  a.reset();
  b.reset();
  added_other->Unref();
  staged_other->Unref();
}

// A memtable with in-place updates is never staged: a large batch of Puts
// overwrites values in place as single Puts do.
TEST_F(MemTableStagedTest, InPlaceUpdateMemTablesAreNotStaged) {
  MemTableOptions options;
  options.inplace_update_locks = 4;
  MemTable* batched = new MemTable(icmp_, options);
  MemTable* single = new MemTable(icmp_, options);
  batched->Ref();
  single->Ref();
  WriteBatch batch;
  for (int i = 0; i < 64; i++) {
    const std::string key = "k" + std::to_string(i % 8);
    const std::string value = std::to_string(100 - i);  // not longer
    ASSERT_TRUE(batch.Put(key, value).ok());
    WriteBatch one;
    ASSERT_TRUE(one.Put(key, value).ok());
    ASSERT_TRUE(
        InsertBatchIntoMemTable(&one, 1 + i, single, nullptr, false, false)
            .ok());
  }
  ASSERT_TRUE(
      InsertBatchIntoMemTable(&batch, 1, batched, nullptr, false, false).ok());
  std::unique_ptr<InternalIterator> a(single->NewIterator());
  std::unique_ptr<InternalIterator> b(batched->NewIterator());
  EXPECT_EQ(test::ScanEntries(a.get()), test::ScanEntries(b.get()));
  EXPECT_EQ(8u, batched->num_entries());
  a.reset();
  b.reset();
  batched->Unref();
  single->Unref();
}

}  // namespace
}  // namespace strata
