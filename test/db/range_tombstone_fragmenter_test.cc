// FragmentedRangeTombstoneList against brute force: random overlapping
// tombstones (shared boundaries, shared and empty ranges, repeated
// sequences) over a small key space, queried at every key of the space
// and random read sequences; plus its structural invariants and its
// construction from a tombstone iterator.

#include "db/range_tombstone_fragmenter.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "test/util/testutil.h"
#include "test/util/vector_iterator.h"
#include "util/random.h"

namespace strata {
namespace {

using test::TombstoneKey;

// Keys of one or two letters from "abcdef": short enough that random
// tombstones share boundaries, dense enough that keys fall between them.
std::vector<std::string> FragmenterKeySpace() {
  std::vector<std::string> keys = {""};
  for (char a = 'a'; a <= 'f'; a++) {
    keys.push_back(std::string(1, a));
    for (char b = 'a'; b <= 'f'; b++) keys.push_back(std::string{a, b});
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<RangeTombstone> RandomTombstones(Random* rnd, size_t n,
                                             const std::vector<std::string>& ks,
                                             SequenceNumber max_seq) {
  std::vector<RangeTombstone> out;
  for (size_t i = 0; i < n; i++) {
    std::string b = ks[rnd->Uniform(static_cast<int>(ks.size()))];
    std::string e = ks[rnd->Uniform(static_cast<int>(ks.size()))];
    if (!rnd->OneIn(10) && b > e) std::swap(b, e);  // some stay empty
    out.emplace_back(b, e, 1 + rnd->Uniform(static_cast<int>(max_seq)));
  }
  return out;
}

// The sequences of the tombstones covering key, descending, unique.
std::vector<SequenceNumber> BruteCovering(const std::vector<RangeTombstone>& ts,
                                          const std::string& key) {
  std::set<SequenceNumber, std::greater<SequenceNumber>> seqs;
  for (const RangeTombstone& t : ts) {
    if (t.begin <= key && key < t.end) seqs.insert(t.seq);
  }
  return std::vector<SequenceNumber>(seqs.begin(), seqs.end());
}

SequenceNumber BruteMax(const std::vector<RangeTombstone>& ts,
                        const std::string& key, SequenceNumber read_seq) {
  SequenceNumber best = 0;
  for (const RangeTombstone& t : ts) {
    if (t.begin <= key && key < t.end && t.seq <= read_seq) {
      best = std::max(best, t.seq);
    }
  }
  return best;
}

void CheckInvariants(const FragmentedRangeTombstoneList& list) {
  const Comparator* ucmp = BytewiseComparator();
  for (size_t i = 0; i < list.size(); i++) {
    const auto& f = list.fragment(i);
    ASSERT_LT(ucmp->Compare(f.start, f.end), 0) << i;
    ASSERT_GE(f.num_seqs, 1u);
    for (size_t j = 1; j < f.num_seqs; j++) ASSERT_GT(f.seqs[j - 1], f.seqs[j]);
    if (i == 0) continue;
    const auto& p = list.fragment(i - 1);
    ASSERT_LE(ucmp->Compare(p.end, f.start), 0) << i;
    if (ucmp->Compare(p.end, f.start) == 0) {
      const bool same = p.num_seqs == f.num_seqs &&
                        std::equal(p.seqs, p.seqs + p.num_seqs, f.seqs);
      ASSERT_FALSE(same) << "adjacent fragments not merged at " << i;
    }
  }
}

TEST(RangeTombstoneFragmenterTest, Empty) {
  FragmentedRangeTombstoneList list({}, BytewiseComparator());
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(0u, list.MaxCoveringSeq("a", kMaxSequenceNumber));
  EXPECT_EQ(0u, list.FindFragment("a"));
  FragmentedRangeTombstoneList only_empty(
      {RangeTombstone("b", "b", 3), RangeTombstone("c", "a", 4)},
      BytewiseComparator());
  EXPECT_TRUE(only_empty.empty());
}

TEST(RangeTombstoneFragmenterTest, OverlapsSplitIntoFragments) {
  // [a,e)@5 and [c,g)@7 and [c,g)@7 again: three fragments.
  FragmentedRangeTombstoneList list(
      {RangeTombstone("c", "g", 7), RangeTombstone("a", "e", 5),
       RangeTombstone("c", "g", 7)},
      BytewiseComparator());
  ASSERT_EQ(3u, list.size());
  CheckInvariants(list);
  const auto& f0 = list.fragment(0);
  EXPECT_EQ("a", f0.start.ToString());
  EXPECT_EQ("c", f0.end.ToString());
  ASSERT_EQ(1u, f0.num_seqs);
  EXPECT_EQ(5u, f0.seqs[0]);
  const auto& f1 = list.fragment(1);
  EXPECT_EQ("c", f1.start.ToString());
  EXPECT_EQ("e", f1.end.ToString());
  ASSERT_EQ(2u, f1.num_seqs);
  EXPECT_EQ(7u, f1.seqs[0]);
  EXPECT_EQ(5u, f1.seqs[1]);
  EXPECT_EQ("g", list.fragment(2).end.ToString());
  EXPECT_EQ(7u, list.MaxCoveringSeq("d", 100));
  EXPECT_EQ(5u, list.MaxCoveringSeq("d", 6));
  EXPECT_EQ(0u, list.MaxCoveringSeq("d", 4));
  EXPECT_EQ(0u, list.MaxCoveringSeq("g", 100));  // end is exclusive
  EXPECT_EQ(5u, list.MaxCoveringSeq("a", 100));  // begin is inclusive

  // Touching tombstones of the same sequence become one fragment.
  FragmentedRangeTombstoneList joined(
      {RangeTombstone("a", "c", 4), RangeTombstone("c", "f", 4)},
      BytewiseComparator());
  ASSERT_EQ(1u, joined.size());
  EXPECT_EQ("a", joined.fragment(0).start.ToString());
  EXPECT_EQ("f", joined.fragment(0).end.ToString());
}

TEST(RangeTombstoneFragmenterTest, RandomAgainstBruteForce) {
  const std::vector<std::string> keys = FragmenterKeySpace();
  Random rnd(301);
  for (int round = 0; round < 300; round++) {
    const size_t n = rnd.Uniform(12);
    const SequenceNumber max_seq = 1 + rnd.Uniform(30);
    std::vector<RangeTombstone> ts = RandomTombstones(&rnd, n, keys, max_seq);
    FragmentedRangeTombstoneList list(ts, BytewiseComparator());
    CheckInvariants(list);
    for (const std::string& key : keys) {
      const std::vector<SequenceNumber> want = BruteCovering(ts, key);
      const size_t i = list.FindFragment(key);
      std::vector<SequenceNumber> got;
      if (i < list.size()) {
        const auto& f = list.fragment(i);
        got.assign(f.seqs, f.seqs + f.num_seqs);
      }
      ASSERT_EQ(want, got) << "round " << round << " key " << key;
      // FirstEndingAfter: every fragment before it ends at or before key.
      const size_t first = list.FirstEndingAfter(key);
      if (first > 0) {
        ASSERT_LE(list.fragment(first - 1).end.compare(key), 0);
      }
      if (first < list.size()) {
        ASSERT_GT(list.fragment(first).end.compare(key), 0);
      }
      for (int r = 0; r < 4; r++) {
        const SequenceNumber read_seq =
            rnd.Uniform(static_cast<int>(max_seq) + 2);
        ASSERT_EQ(BruteMax(ts, key, read_seq),
                  list.MaxCoveringSeq(key, read_seq))
            << "round " << round << " key " << key << " read " << read_seq;
      }
    }
    // Fragmenting the fragments changes nothing.
    FragmentedRangeTombstoneList again(list.ToTombstones(),
                                       BytewiseComparator());
    ASSERT_EQ(list.size(), again.size());
    for (size_t i = 0; i < list.size(); i++) {
      ASSERT_EQ(list.fragment(i).start, again.fragment(i).start);
      ASSERT_EQ(list.fragment(i).end, again.fragment(i).end);
      ASSERT_EQ(list.fragment(i).num_seqs, again.fragment(i).num_seqs);
    }
  }
}

TEST(RangeTombstoneFragmenterTest, CreateFromIterator) {
  InternalKeyComparator icmp(BytewiseComparator());
  test::VectorIterator iter(
      &icmp, {{TombstoneKey("b", 3), "d"}, {TombstoneKey("a", 9), "c"}});
  std::unique_ptr<FragmentedRangeTombstoneList> list;
  ASSERT_TRUE(
      FragmentedRangeTombstoneList::Create(&iter, BytewiseComparator(), &list)
          .ok());
  ASSERT_NE(nullptr, list);
  EXPECT_EQ(9u, list->MaxCoveringSeq("b", 100));
  EXPECT_EQ(3u, list->MaxCoveringSeq("c", 100));

  // No source: an empty list.
  ASSERT_TRUE(
      FragmentedRangeTombstoneList::Create(nullptr, BytewiseComparator(), &list)
          .ok());
  EXPECT_TRUE(list->empty());

  // A point entry, or a key too short to parse, is Corruption.
  test::VectorIterator point(&icmp, {{TombstoneKey("a", 1, kTypeValue), "x"}});
  Status s =
      FragmentedRangeTombstoneList::Create(&point, BytewiseComparator(), &list);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(nullptr, list);
  test::VectorIterator shorty(BytewiseComparator(), {{"abc", "x"}});
  s = FragmentedRangeTombstoneList::Create(&shorty, BytewiseComparator(),
                                           &list);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();

  // An iterator error is passed on.
  std::unique_ptr<InternalIterator> error(
      NewErrorInternalIterator(Status::IOError("disk gone")));
  s = FragmentedRangeTombstoneList::Create(error.get(), BytewiseComparator(),
                                           &list);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

}  // namespace
}  // namespace strata
