// In-place updates (inplace_update_support): MemTable::Update on both
// representations — which Puts overwrite a value and which add an entry,
// what a lookup at an older sequence sees, and readers (lookups and
// iterators) beside the writer, which the TSan build checks for races.

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "memtable/memtable.h"
#include "strata/comparator.h"
#include "test/db/read_view_test_util.h"
#include "test/memtable/scan_entries.h"

namespace strata {
namespace {

// Param: the vector representation (else the skiplist).
class InplaceUpdateTest : public testing::TestWithParam<bool> {
 protected:
  InplaceUpdateTest() : icmp_(BytewiseComparator()) {
    MemTableOptions options;
    options.vector_rep = GetParam();
    options.inplace_update_locks = 16;
    mem_ = new MemTable(icmp_, options);
    mem_->Ref();
  }
  ~InplaceUpdateTest() override { mem_->Unref(); }

  void Put(SequenceNumber seq, const std::string& key,
           const std::string& value) {
    ASSERT_TRUE(mem_->Update(seq, key, value).ok());
  }
  std::string Get(const std::string& key,
                  SequenceNumber seq = kMaxSequenceNumber) {
    return test::MemTableReader(icmp_, mem_).Get(key, seq);
  }
  std::string Scan() {
    std::unique_ptr<InternalIterator> it(mem_->NewIterator());
    return test::ScanEntries(it.get());
  }

  InternalKeyComparator icmp_;
  MemTable* mem_;
};

TEST_P(InplaceUpdateTest, SameSizeAndSmallerOverwriteLargerAppends) {
  ASSERT_TRUE(mem_->inplace_update_support());
  Put(1, "k", "aaaa");
  Put(2, "k", "bbbb");  // same size: in place
  EXPECT_EQ(1u, mem_->num_entries());
  EXPECT_EQ("bbbb", Get("k"));
  // The entry keeps its sequence number.
  EXPECT_EQ("k@1=bbbb ", Scan());
  Put(3, "k", "c");  // smaller: in place, and the length shrinks
  EXPECT_EQ(1u, mem_->num_entries());
  EXPECT_EQ("c", Get("k"));
  EXPECT_EQ("k@1=c ", Scan());
  Put(4, "k", "dd");  // larger than what is stored now: a new entry
  EXPECT_EQ(2u, mem_->num_entries());
  EXPECT_EQ("dd", Get("k"));
  EXPECT_EQ("k@4=dd k@1=c ", Scan());
  // Other keys are untouched.
  Put(5, "j", "jj");
  Put(6, "l", "ll");
  EXPECT_EQ("j@5=jj k@4=dd k@1=c l@6=ll ", Scan());
}

TEST_P(InplaceUpdateTest, ASnapshotSeesTheNewValue) {
  // The documented caveat: the overwritten entry keeps sequence 1, so a
  // read as of sequence 1 (a snapshot taken before the second Put) sees
  // the value written at 2.
  Put(1, "k", "old");
  Put(2, "k", "new");
  EXPECT_EQ("new", Get("k", 1));
  EXPECT_EQ("NOT_FOUND", Get("k", 0));
}

TEST_P(InplaceUpdateTest, DeletionsAndMergesAreNotOverwritten) {
  Put(1, "k", "value");
  ASSERT_TRUE(mem_->Add(2, kTypeDeletion, "k", "").ok());
  Put(3, "k", "v");  // the newest is a deletion: added
  EXPECT_EQ("k@3=v k@2= k@1=value ", Scan());
  ASSERT_TRUE(mem_->Add(4, kTypeMerge, "k", "operand").ok());
  Put(5, "k", "w");  // the newest is a merge operand: added
  EXPECT_EQ("k@5=w k@4=operand k@3=v k@2= k@1=value ", Scan());
  Put(6, "k", "x");  // the newest is a value again: in place
  EXPECT_EQ("k@5=x k@4=operand k@3=v k@2= k@1=value ", Scan());
}

TEST_P(InplaceUpdateTest, NotUnderANewerRangeTombstone) {
  Put(1, "k", "aa");
  ASSERT_TRUE(mem_->Add(2, kTypeRangeDeletion, "a", "z").ok());
  // In place, the value would stay at sequence 1, under the tombstone.
  Put(3, "k", "bb");
  EXPECT_EQ("bb", Get("k"));
  EXPECT_EQ("k@3=bb k@1=aa ", Scan());
  Put(4, "k", "cc");  // newer than the tombstone: in place again
  EXPECT_EQ("k@3=cc k@1=aa ", Scan());
}

TEST_P(InplaceUpdateTest, WalReplayedTwiceEndsWithTheNewestValue) {
  Put(5, "k", "v5");
  Put(7, "k", "v7");  // in place
  // The same records again: the first is not an in-place update of its
  // own entry (the skiplist refuses the duplicate; the vector takes it and
  // drops it when sorted), the second lands in place again.
  const Status s = mem_->Update(5, "k", "v5");
  EXPECT_TRUE(GetParam() ? s.ok() : s.IsTryAgain()) << s.ToString();
  Put(7, "k", "v7");
  EXPECT_EQ("v7", Get("k"));
  EXPECT_EQ("k@5=v7 ", Scan());
}

TEST_P(InplaceUpdateTest, ImmutableMemTableReadsWithoutLocks) {
  Put(1, "k", "aaa");
  Put(2, "k", "bb");
  mem_->MarkImmutable();
  EXPECT_EQ("bb", Get("k"));
  EXPECT_EQ("k@1=bb ", Scan());
}

// One writer rewrites values in place (and now and then appends a larger
// one) while readers look them up and iterate. A value is always one
// letter repeated: a reader must never see two letters (a torn copy).
// Run under TSan, this also checks the stripe locks for data races.
TEST_P(InplaceUpdateTest, ReadersBesideInplaceWriter) {
  constexpr int kKeys = 8;
  constexpr int kWrites = 20000;
  for (int k = 0; k < kKeys; k++) {
    Put(static_cast<SequenceNumber>(k + 1), "key" + std::to_string(k),
        std::string(64, 'a'));
  }
  const auto uniform = [](const std::string& v) {
    return !v.empty() && v.find_first_not_of(v[0]) == std::string::npos;
  };
  std::atomic<bool> done{false};
  std::atomic<int> torn{0};
  std::vector<std::thread> readers;
  readers.emplace_back([&] {
    while (!done.load(std::memory_order_relaxed)) {
      for (int k = 0; k < kKeys; k++) {
        if (!uniform(Get("key" + std::to_string(k)))) torn++;
      }
    }
  });
  readers.emplace_back([&] {
    while (!done.load(std::memory_order_relaxed)) {
      std::unique_ptr<InternalIterator> it(mem_->NewIterator());
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        if (!uniform(it->value().ToString())) torn++;
      }
    }
  });
  SequenceNumber seq = kKeys;
  for (int i = 0; i < kWrites; i++) {
    // Mostly the same size or smaller (in place); every 1000th write
    // larger again (a new entry).
    const size_t size = i % 1000 == 999 ? 64 : 64 - (i % 1000) / 20;
    ASSERT_TRUE(mem_->Update(++seq, "key" + std::to_string(i % kKeys),
                             std::string(size, static_cast<char>('a' + i % 26)))
                    .ok());
  }
  done.store(true);
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(0, torn.load());
  EXPECT_LT(mem_->num_entries(), static_cast<uint64_t>(kWrites / 10));
}

INSTANTIATE_TEST_SUITE_P(Reps, InplaceUpdateTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "Vector"
                                                         : "SkipList");
                         });

}  // namespace
}  // namespace strata
