// RangeDelAggregator against brute force: several sources of random
// overlapping tombstones; ShouldDelete of random point keys in forward,
// backward and random order (and with the "wrong" positioning mode), for
// reads at random sequences and for compactions with random snapshots;
// and the compaction output: what it keeps must delete, for every reader
// and every entry the compaction keeps, exactly what the input did.

#include "db/range_del_aggregator.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "test/util/vector_iterator.h"
#include "util/random.h"

namespace strata {
namespace {

std::vector<std::string> KeySpace() {
  std::vector<std::string> keys;
  for (char a = 'a'; a <= 'h'; a++) {
    keys.push_back(std::string(1, a));
    for (char b = 'a'; b <= 'd'; b++) keys.push_back(std::string{a, b});
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

struct Case {
  std::vector<std::vector<RangeTombstone>> sources;
  std::vector<RangeTombstone> all;
  std::vector<SequenceNumber> snapshots;
  SequenceNumber max_seq;
};

Case RandomCase(Random* rnd, const std::vector<std::string>& keys) {
  Case c;
  c.max_seq = 5 + rnd->Uniform(40);
  const int num_sources = 1 + static_cast<int>(rnd->Uniform(4));
  for (int s = 0; s < num_sources; s++) {
    std::vector<RangeTombstone> ts;
    const int n = static_cast<int>(rnd->Uniform(6));
    for (int i = 0; i < n; i++) {
      std::string b = keys[rnd->Uniform(static_cast<int>(keys.size()))];
      std::string e = keys[rnd->Uniform(static_cast<int>(keys.size()))];
      if (b > e) std::swap(b, e);
      ts.emplace_back(b, e, 1 + rnd->Uniform(static_cast<int>(c.max_seq)));
    }
    c.all.insert(c.all.end(), ts.begin(), ts.end());
    c.sources.push_back(std::move(ts));
  }
  const int num_snapshots = static_cast<int>(rnd->Uniform(4));
  for (int i = 0; i < num_snapshots; i++) {
    c.snapshots.push_back(rnd->Uniform(static_cast<int>(c.max_seq) + 1));
  }
  std::sort(c.snapshots.begin(), c.snapshots.end());
  return c;
}

size_t Stripe(const std::vector<SequenceNumber>& snapshots, SequenceNumber q) {
  return static_cast<size_t>(
      std::lower_bound(snapshots.begin(), snapshots.end(), q) -
      snapshots.begin());
}

bool Covers(const RangeTombstone& t, const std::string& key) {
  return t.begin <= key && key < t.end;
}

bool BruteReadDeletes(const std::vector<RangeTombstone>& ts,
                      const std::string& key, SequenceNumber seq,
                      SequenceNumber read_seq) {
  for (const RangeTombstone& t : ts) {
    if (Covers(t, key) && t.seq <= read_seq && t.seq > seq) return true;
  }
  return false;
}

bool BruteCompactionDeletes(const std::vector<RangeTombstone>& ts,
                            const std::vector<SequenceNumber>& snapshots,
                            const std::string& key, SequenceNumber seq) {
  for (const RangeTombstone& t : ts) {
    if (Covers(t, key) && t.seq > seq &&
        Stripe(snapshots, t.seq) == Stripe(snapshots, seq)) {
      return true;
    }
  }
  return false;
}

void AddSources(const Case& c, RangeDelAggregator* agg) {
  InternalKeyComparator icmp(BytewiseComparator());
  for (size_t i = 0; i < c.sources.size(); i++) {
    if (i % 2 == 0) {  // through an iterator, as from a memtable or table
      test::VectorIterator::Entries entries;
      for (const RangeTombstone& t : c.sources[i]) {
        entries.emplace_back(
            InternalKey(t.begin, t.seq, kTypeRangeDeletion).Encode().ToString(),
            t.end);
      }
      test::VectorIterator iter(&icmp, entries);
      ASSERT_TRUE(agg->AddTombstones(&iter).ok());
    } else {  // pre-fragmented, as cached with a table
      agg->AddTombstones(std::make_shared<const FragmentedRangeTombstoneList>(
          c.sources[i], BytewiseComparator()));
    }
  }
}

// Point keys in ascending internal key order: each user key with a few
// sequences, newest first.
std::vector<ParsedInternalKey> SortedKeys(Random* rnd,
                                          const std::vector<std::string>& keys,
                                          SequenceNumber max_seq) {
  std::vector<ParsedInternalKey> out;
  for (const std::string& k : keys) {
    if (rnd->OneIn(3)) continue;
    std::vector<SequenceNumber> seqs;
    const int n = 1 + static_cast<int>(rnd->Uniform(3));
    for (int i = 0; i < n; i++) {
      seqs.push_back(rnd->Uniform(static_cast<int>(max_seq) + 2));
    }
    std::sort(seqs.rbegin(), seqs.rend());
    for (SequenceNumber s : seqs) out.emplace_back(k, s, kTypeValue);
  }
  return out;
}

// ParsedInternalKey::DebugString is not exported from the DLL.
std::string Show(const ParsedInternalKey& p) {
  return p.user_key.ToString() + "@" + std::to_string(p.sequence);
}

enum class Order { kForward, kBackward, kRandom };

TEST(RangeDelAggregatorTest, AgainstBruteForce) {
  const std::vector<std::string> keys = KeySpace();
  Random rnd(17);
  const RangeDelPositioning modes[] = {RangeDelPositioning::kForwardTraversal,
                                       RangeDelPositioning::kBackwardTraversal,
                                       RangeDelPositioning::kRandomAccess};
  for (int round = 0; round < 400; round++) {
    const Case c = RandomCase(&rnd, keys);
    std::vector<ParsedInternalKey> points = SortedKeys(&rnd, keys, c.max_seq);
    const Order order = static_cast<Order>(round % 3);
    if (order == Order::kBackward) std::reverse(points.begin(), points.end());
    if (order == Order::kRandom) {
      for (size_t i = points.size(); i > 1; i--) {
        std::swap(points[i - 1], points[rnd.Uniform(static_cast<int>(i))]);
      }
    }
    // The matching mode most of the time, any mode sometimes: a mode is
    // only a hint.
    RangeDelPositioning mode = modes[round % 3];
    if (rnd.OneIn(4)) mode = modes[rnd.Uniform(3)];

    const SequenceNumber read_seq =
        rnd.Uniform(static_cast<int>(c.max_seq) + 2);
    RangeDelAggregator reader =
        RangeDelAggregator::ForRead(BytewiseComparator(), read_seq);
    AddSources(c, &reader);
    RangeDelAggregator compaction =
        RangeDelAggregator::ForCompaction(BytewiseComparator(), c.snapshots);
    AddSources(c, &compaction);
    auto hook = compaction.ShouldDeleteFunction(mode);

    for (const ParsedInternalKey& p : points) {
      const std::string k = p.user_key.ToString();
      ASSERT_EQ(BruteReadDeletes(c.all, k, p.sequence, read_seq),
                reader.ShouldDelete(p, mode))
          << "round " << round << " read " << Show(p);
      ASSERT_EQ(BruteCompactionDeletes(c.all, c.snapshots, k, p.sequence),
                hook(p))
          << "round " << round << " compaction " << Show(p);
    }
    for (const std::string& k : keys) {
      SequenceNumber want = 0;
      for (const RangeTombstone& t : c.all) {
        if (Covers(t, k) && t.seq <= read_seq) want = std::max(want, t.seq);
      }
      ASSERT_EQ(want, reader.MaxCoveringSeq(k)) << k;
    }
  }
}

TEST(RangeDelAggregatorTest, Basics) {
  RangeDelAggregator agg =
      RangeDelAggregator::ForRead(BytewiseComparator(), 10);
  EXPECT_TRUE(agg.IsEmpty());
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("b", 1, kTypeValue)));
  ASSERT_TRUE(agg.AddTombstones(nullptr).ok());
  EXPECT_TRUE(agg.IsEmpty());
  agg.AddTombstones(std::make_shared<const FragmentedRangeTombstoneList>(
      std::vector<RangeTombstone>{RangeTombstone("a", "c", 5),
                                  RangeTombstone("x", "z", 20)},
      BytewiseComparator()));
  EXPECT_FALSE(agg.IsEmpty());
  EXPECT_TRUE(agg.ShouldDelete(ParsedInternalKey("b", 4, kTypeValue)));
  EXPECT_TRUE(agg.ShouldDelete(ParsedInternalKey("b", 4, kTypeMerge)));
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("b", 5, kTypeValue)));
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("c", 1, kTypeValue)));
  // Invisible at read sequence 10.
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("y", 1, kTypeValue)));
  // A tombstone is never deleted by one.
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("b", 1, kTypeRangeDeletion)));

  // A bad source adds nothing.
  InternalKeyComparator icmp(BytewiseComparator());
  test::VectorIterator bad(
      &icmp, {{InternalKey("q", 3, kTypeValue).Encode().ToString(), "r"}});
  RangeDelAggregator other =
      RangeDelAggregator::ForRead(BytewiseComparator(), 10);
  EXPECT_TRUE(other.AddTombstones(&bad).IsCorruption());
  EXPECT_TRUE(other.IsEmpty());
}

TEST(RangeDelAggregatorTest, CompactionStripes) {
  // Snapshots 10 and 20: stripes [0,10], (10,20], (20,inf).
  RangeDelAggregator agg =
      RangeDelAggregator::ForCompaction(BytewiseComparator(), {10, 20});
  agg.AddTombstones(std::make_shared<const FragmentedRangeTombstoneList>(
      std::vector<RangeTombstone>{RangeTombstone("a", "m", 15)},
      BytewiseComparator()));
  auto del = [&](SequenceNumber s) {
    return agg.ShouldDelete(ParsedInternalKey("c", s, kTypeValue));
  };
  EXPECT_TRUE(del(11));  // same stripe
  EXPECT_TRUE(del(14));
  EXPECT_FALSE(del(15));  // not older
  EXPECT_FALSE(del(10));  // snapshot 10 sees it, not the tombstone
  EXPECT_FALSE(del(3));
}

// Whether a reader at r sees (k, s) deleted by the tombstones ts.
bool Hidden(const std::vector<RangeTombstone>& ts, const std::string& k,
            SequenceNumber s, SequenceNumber r) {
  return BruteReadDeletes(ts, k, s, r);
}

TEST(RangeDelAggregatorTest, OutputTombstonesAgainstBruteForce) {
  const std::vector<std::string> keys = KeySpace();
  Random rnd(99);
  for (int round = 0; round < 400; round++) {
    const Case c = RandomCase(&rnd, keys);
    RangeDelAggregator agg =
        RangeDelAggregator::ForCompaction(BytewiseComparator(), c.snapshots);
    AddSources(c, &agg);
    std::string lower_key = keys[rnd.Uniform(static_cast<int>(keys.size()))];
    std::string upper_key = keys[rnd.Uniform(static_cast<int>(keys.size()))];
    if (lower_key > upper_key) std::swap(lower_key, upper_key);
    const Slice lower(lower_key);
    const Slice upper(upper_key);
    const bool has_lower = rnd.OneIn(2);
    const bool has_upper = rnd.OneIn(2);
    const bool bottommost = rnd.OneIn(2);
    const std::vector<RangeTombstone> out = agg.TombstonesForOutput(
        has_lower ? &lower : nullptr, has_upper ? &upper : nullptr, bottommost);

    // In internal key order, inside the range, one sequence per stripe.
    InternalKeyComparator icmp(BytewiseComparator());
    for (size_t i = 0; i < out.size(); i++) {
      ASSERT_LT(out[i].begin, out[i].end);
      if (has_lower) {
        ASSERT_GE(out[i].begin, lower_key);
      }
      if (has_upper) {
        ASSERT_LE(out[i].end, upper_key);
      }
      if (i == 0) continue;
      ASSERT_LT(
          icmp.Compare(
              InternalKey(out[i - 1].begin, out[i - 1].seq, kTypeRangeDeletion)
                  .Encode(),
              InternalKey(out[i].begin, out[i].seq, kTypeRangeDeletion)
                  .Encode()),
          0);
      if (out[i - 1].begin == out[i].begin) {
        ASSERT_NE(Stripe(c.snapshots, out[i - 1].seq),
                  Stripe(c.snapshots, out[i].seq));
      }
    }
    // Every reader (a snapshot, or the newest state) sees every entry the
    // compaction keeps in the range deleted by the output exactly when it
    // was deleted by the input.
    std::vector<SequenceNumber> readers = c.snapshots;
    readers.push_back(kMaxSequenceNumber);
    for (const std::string& k : keys) {
      if (has_lower && k < lower_key) continue;
      if (has_upper && k >= upper_key) continue;
      for (SequenceNumber s = 0; s <= c.max_seq + 1; s++) {
        if (BruteCompactionDeletes(c.all, c.snapshots, k, s)) continue;
        for (SequenceNumber r : readers) {
          if (s > r) continue;
          ASSERT_EQ(Hidden(c.all, k, s, r), Hidden(out, k, s, r))
              << "round " << round << " key " << k << "@" << s << " reader "
              << r << " bottommost " << bottommost;
        }
      }
    }
    if (bottommost) {
      // Nothing of the oldest stripe is kept.
      for (const RangeTombstone& t : out) {
        ASSERT_NE(0u, Stripe(c.snapshots, t.seq));
      }
    }
  }
}

}  // namespace
}  // namespace strata
