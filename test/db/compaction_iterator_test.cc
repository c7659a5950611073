// CompactionIterator: hand-written cases for each rule, and random
// histories (puts, deletions, single deletions, merges over few keys),
// random snapshots, bottommost on and off, checked against a brute-force
// model: every snapshot and the latest view read the same from the output
// (plus the levels below) as from the input, and nothing droppable
// survives.

#include "db/compaction_iterator.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test/db/merge_test_util.h"
#include "util/random.h"

namespace strata {
namespace {

using test::Version;

class CompactionIteratorTest : public testing::Test {
 protected:
  CompactionIteratorTest() : icmp_(BytewiseComparator()) {}

  struct Result {
    std::vector<Version> output;
    Status status;
    CompactionIteratorStats stats;
  };

  Result Compact(const std::vector<Version>& input,
                 std::vector<SequenceNumber> snapshots,
                 SequenceNumber last_sequence, bool bottommost,
                 const MergeOperator* op,
                 CompactionIterator::CoveredFunction covered = nullptr) {
    test::VectorIterator iter(&icmp_, test::ToEntries(input));
    return Run(&iter, std::move(snapshots), last_sequence, bottommost, op,
               std::move(covered));
  }

  // drop_single_delete_pairs false: as a flush runs it.
  Result Run(InternalIterator* iter, std::vector<SequenceNumber> snapshots,
             SequenceNumber last_sequence, bool bottommost,
             const MergeOperator* op,
             CompactionIterator::CoveredFunction covered = nullptr,
             bool drop_single_delete_pairs = true) {
    Result r;
    CompactionIterator c(iter, BytewiseComparator(), std::move(snapshots),
                         last_sequence, bottommost, op, std::move(covered),
                         CompactionFilterUse(), drop_single_delete_pairs);
    std::string previous;
    for (c.SeekToFirst(); c.Valid(); c.Next()) {
      if (!previous.empty()) {
        EXPECT_LT(icmp_.Compare(previous, c.key()), 0) << "output out of order";
      }
      previous = c.key().ToString();
      ParsedInternalKey p;
      EXPECT_TRUE(ParseInternalKey(c.key(), &p).ok());
      EXPECT_EQ(p.sequence, c.ikey().sequence);
      EXPECT_EQ(p.type, c.ikey().type);
      EXPECT_EQ(p.user_key, c.ikey().user_key);
      r.output.push_back(
          {p.user_key.ToString(), p.sequence, p.type, c.value().ToString()});
    }
    r.status = c.status();
    r.stats = c.stats();
    return r;
  }

  static std::string Show(const std::vector<Version>& vs) {
    std::string out;
    for (const Version& v : vs) {
      out += v.key + "@" + std::to_string(v.sequence) + ":" +
             std::to_string(v.type) + "=" + v.value + " ";
    }
    return out;
  }

  static void ExpectAccounted(const CompactionIteratorStats& s) {
    EXPECT_EQ(s.num_input_records, s.num_output_records + s.num_dropped_hidden +
                                       s.num_dropped_obsolete_tombstones +
                                       2 * s.num_single_delete_pairs +
                                       s.num_dropped_range_deleted +
                                       s.num_merged_away);
  }

  InternalKeyComparator icmp_;
};

TEST_F(CompactionIteratorTest, KeepsNewestVersionPerStripe) {
  const std::vector<Version> h = {
      {"a", 9, kTypeValue, "a9"}, {"a", 8, kTypeValue, "a8"},
      {"a", 5, kTypeValue, "a5"}, {"a", 4, kTypeValue, "a4"},
      {"b", 3, kTypeValue, "b3"}, {"b", 1, kTypeValue, "b1"}};
  Result r = Compact(h, {}, 9, false, nullptr);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ("a@9:1=a9 b@3:1=b3 ", Show(r.output));
  r = Compact(h, {2, 5}, 9, false, nullptr);
  EXPECT_EQ("a@9:1=a9 a@5:1=a5 b@3:1=b3 b@1:1=b1 ", Show(r.output));
  EXPECT_EQ(6u, r.stats.num_input_records);
  EXPECT_EQ(4u, r.stats.num_output_records);
  EXPECT_EQ(2u, r.stats.num_dropped_hidden);
  ExpectAccounted(r.stats);
}

TEST_F(CompactionIteratorTest, DeletionsAtAndAboveTheBottom) {
  const std::vector<Version> h = {
      {"a", 9, kTypeDeletion, ""}, {"a", 8, kTypeValue, "a8"},
      {"b", 7, kTypeDeletion, ""}, {"b", 3, kTypeValue, "b3"},
      {"c", 6, kTypeDeletion, ""}, {"c", 2, kTypeDeletion, ""}};
  // Above the bottom a deletion hides older levels: kept.
  Result r = Compact(h, {}, 9, false, nullptr);
  EXPECT_EQ("a@9:0= b@7:0= c@6:0= ", Show(r.output));
  // At the bottom, with what it shadows.
  r = Compact(h, {}, 9, true, nullptr);
  EXPECT_EQ("", Show(r.output));
  EXPECT_EQ(3u, r.stats.num_dropped_obsolete_tombstones);
  ExpectAccounted(r.stats);
  // A snapshot older than a deletion keeps it at the bottom: a
  // transaction holding the snapshot must find a write after it. a8 goes
  // as hidden; b's deletion also hides b3 from the latest view; c's older
  // deletion, in the oldest stripe, hides nothing and goes.
  r = Compact(h, {4}, 9, true, nullptr);
  EXPECT_EQ("a@9:0= b@7:0= b@3:1=b3 c@6:0= ", Show(r.output));
  EXPECT_EQ(1u, r.stats.num_dropped_obsolete_tombstones);
  EXPECT_EQ(1u, r.stats.num_dropped_hidden);
  ExpectAccounted(r.stats);
  // Once the snapshot is older than all of them, they go as before.
  r = Compact(h, {9}, 9, true, nullptr);
  EXPECT_EQ("", Show(r.output));
}

TEST_F(CompactionIteratorTest, SingleDeletions) {
  const std::vector<Version> pair = {{"a", 9, kTypeSingleDeletion, ""},
                                     {"a", 8, kTypeValue, "a8"},
                                     {"b", 1, kTypeValue, "b1"}};
  Result r = Compact(pair, {}, 9, false, nullptr);
  EXPECT_EQ("b@1:1=b1 ", Show(r.output));
  EXPECT_EQ(1u, r.stats.num_single_delete_pairs);
  ExpectAccounted(r.stats);
  // A snapshot between them: both stay (the snapshot sees the value).
  r = Compact(pair, {8}, 9, false, nullptr);
  EXPECT_EQ("a@9:7= a@8:1=a8 b@1:1=b1 ", Show(r.output));
  // A snapshot older than both: the single deletion stays as the write a
  // transaction holding the snapshot must find, as a deletion (its value
  // consumed, it must never pair with an older one); the value goes as
  // hidden. At the bottom too.
  for (bool bottommost : {false, true}) {
    r = Compact(pair, {7}, 9, bottommost, nullptr);
    EXPECT_EQ("a@9:0= b@1:1=b1 ", Show(r.output)) << bottommost;
    EXPECT_EQ(0u, r.stats.num_single_delete_pairs);
    EXPECT_EQ(1u, r.stats.num_dropped_hidden);
    ExpectAccounted(r.stats);
  }
  // A snapshot at or above both: the pair goes.
  r = Compact(pair, {9}, 9, true, nullptr);
  EXPECT_EQ("b@1:1=b1 ", Show(r.output));
  EXPECT_EQ(1u, r.stats.num_single_delete_pairs);

  // No value to meet: kept above the bottom, dropped at it unless a
  // snapshot is older.
  const std::vector<Version> lone = {{"a", 9, kTypeSingleDeletion, ""}};
  EXPECT_EQ("a@9:7= ", Show(Compact(lone, {}, 9, false, nullptr).output));
  EXPECT_EQ("", Show(Compact(lone, {}, 9, true, nullptr).output));
  EXPECT_EQ("a@9:7= ", Show(Compact(lone, {8}, 9, true, nullptr).output));

  // After the pair, a deletion older in the stripe is judged afresh: it
  // must keep hiding a5 from the latest view.
  const std::vector<Version> mixed = {{"a", 9, kTypeSingleDeletion, ""},
                                      {"a", 8, kTypeValue, "a8"},
                                      {"a", 7, kTypeDeletion, ""},
                                      {"a", 5, kTypeValue, "a5"}};
  r = Compact(mixed, {}, 9, false, nullptr);
  EXPECT_EQ("a@7:0= ", Show(r.output));
  // A snapshot older than the pair keeps the single deletion as a
  // deletion, which hides what the deletion below it in its stripe hid.
  r = Compact(mixed, {6}, 9, false, nullptr);
  EXPECT_EQ("a@9:0= a@5:1=a5 ", Show(r.output));
  r = Compact(mixed, {6}, 9, true, nullptr);
  EXPECT_EQ("a@9:0= a@5:1=a5 ", Show(r.output));
  ExpectAccounted(r.stats);
  // Once the snapshot goes, a later compaction with an older value below
  // (a3, hidden by the deletion at 7 all along) must still read nothing:
  // kept as a single deletion, a@9 would pair with a5 and bring a3 back.
  std::vector<Version> again = r.output;
  again.push_back({"a", 3, kTypeValue, "a3"});
  r = Compact(again, {}, 9, true, nullptr);
  EXPECT_EQ("", Show(r.output));
  r = Compact(mixed, {}, 9, true, nullptr);
  EXPECT_EQ("", Show(r.output));
  ExpectAccounted(r.stats);
}

// A flush (drop_single_delete_pairs false) keeps a single deletion that
// meets its Put, in any stripe, as a deletion: it hides the older
// versions of its stripe that go under it, and never pairs later. Here
// a snapshot at 6 keeps a5; once it is released, a compaction over a3
// must still read nothing for "a" (a single deletion would pair with a5
// and bring a3 back).
TEST_F(CompactionIteratorTest, FlushKeepsSingleDeletionAsDeletion) {
  test::VectorIterator iter(&icmp_,
                            test::ToEntries({{"a", 9, kTypeSingleDeletion, ""},
                                             {"a", 8, kTypeValue, "a8"},
                                             {"a", 7, kTypeDeletion, ""},
                                             {"a", 5, kTypeValue, "a5"},
                                             {"b", 4, kTypeValue, "b4"}}));
  Result r = Run(&iter, {6}, kMaxSequenceNumber, /*bottommost=*/false, nullptr,
                 nullptr, /*drop_single_delete_pairs=*/false);
  ASSERT_TRUE(r.status.ok());
  std::vector<Version> out = r.output;
  EXPECT_EQ("a@9:0= a@5:1=a5 b@4:1=b4 ", Show(out));
  EXPECT_EQ(0u, r.stats.num_single_delete_pairs);
  ExpectAccounted(r.stats);
  // Later, at the bottom over an older value, the snapshot released.
  out.push_back({"a", 3, kTypeValue, "a3"});
  EXPECT_EQ("b@4:1=b4 ", Show(Compact(out, {}, 9, true, nullptr).output));
}

// Two compactions with snapshots released between them (what one
// compaction cannot show: an output that reads right today but pairs or
// hides wrongly in the next), over histories in RocksDB's single-delete
// contract: a key is either single-deleted (a Put only while absent, a
// SingleDelete only while present) or never (puts, deletions, merges).
// The first compaction takes the newer half over the older half below it;
// the second, at the bottom, both, with some of the snapshots released.
// It must read as the history does at the latest view and at every
// snapshot still held.
TEST_F(CompactionIteratorTest, SnapshotsReleasedBetweenCompactions) {
  Random rnd(77);
  for (int round = 0; round < 2000; round++) {
    const test::ModelOperator merge = test::PickModelOperator(&rnd);
    const int num_keys = 1 + rnd.Uniform(4);
    const int count = 2 + rnd.Uniform(20);
    std::vector<Version> history;
    std::map<std::string, bool> present;  // the single-deleted keys
    for (int i = 0; i < count; i++) {
      Version v;
      const int k = rnd.Uniform(num_keys);
      v.key = std::string(1, static_cast<char>('a' + k));
      v.sequence = static_cast<SequenceNumber>(i + 1);
      if (k % 2 == 0) {
        v.type = present[v.key] ? kTypeSingleDeletion : kTypeValue;
        present[v.key] = !present[v.key];
      } else {
        const int what = rnd.Uniform(3);
        v.type =
            what == 0 ? kTypeDeletion : (what == 1 ? kTypeMerge : kTypeValue);
      }
      if (v.type == kTypeValue) v.value = "v" + std::to_string(v.sequence);
      if (v.type == kTypeMerge) v.value = "m" + std::to_string(v.sequence);
      history.push_back(v);
    }
    const SequenceNumber last = history.size();
    const size_t mid = rnd.Uniform(static_cast<int>(history.size()) + 1);
    const std::vector<Version> lower(history.begin(), history.begin() + mid);
    const std::vector<Version> upper(history.begin() + mid, history.end());
    std::vector<SequenceNumber> snapshots, kept;
    for (SequenceNumber s = 1; s <= last; s++) {
      if (rnd.OneIn(3)) snapshots.push_back(s);
    }
    for (SequenceNumber s : snapshots) {
      if (rnd.OneIn(2)) kept.push_back(s);
    }
    SCOPED_TRACE("round " + std::to_string(round) + " history " +
                 Show(history) + " split at " + std::to_string(mid));

    Result first = Compact(upper, snapshots, last, false, merge.op.get());
    ASSERT_TRUE(first.status.ok()) << first.status.ToString();
    std::vector<Version> both = first.output;
    both.insert(both.end(), lower.begin(), lower.end());
    Result second = Compact(both, kept, last, true, merge.op.get());
    ASSERT_TRUE(second.status.ok()) << second.status.ToString();
    SCOPED_TRACE("first " + Show(first.output) + " second " +
                 Show(second.output));
    std::vector<SequenceNumber> views = kept;
    views.push_back(last);
    for (SequenceNumber view : views) {
      ASSERT_EQ(test::ReadAt(history, view, merge.model),
                test::ReadAt(second.output, view, merge.model))
          << "view " << view;
    }
  }
}

TEST_F(CompactionIteratorTest, MergesResolve) {
  auto append = MergeOperators::CreateStringAppendOperator();
  const std::vector<Version> h = {
      {"a", 9, kTypeMerge, "3"}, {"a", 8, kTypeMerge, "2"},
      {"a", 7, kTypeValue, "1"}, {"a", 6, kTypeValue, "0"},
      {"b", 5, kTypeMerge, "y"}, {"b", 4, kTypeMerge, "x"}};
  Result r = Compact(h, {}, 9, false, append.get());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ("a@9:1=1,2,3 b@5:2=x,y ", Show(r.output));
  EXPECT_EQ(1u, r.stats.num_full_merges);
  EXPECT_EQ(1u, r.stats.num_partial_merges);
  ExpectAccounted(r.stats);
  r = Compact(h, {}, 9, true, append.get());
  EXPECT_EQ("a@9:1=1,2,3 b@5:1=x,y ", Show(r.output));
  r = Compact(h, {8}, 9, true, append.get());
  EXPECT_EQ("a@9:2=3 a@8:1=1,2 b@5:1=x,y ", Show(r.output));
  ExpectAccounted(r.stats);

  // No operator: the compaction fails.
  r = Compact(h, {}, 9, false, nullptr);
  EXPECT_TRUE(r.status.IsInvalidArgument()) << r.status.ToString();
  // An operator failure is corruption.
  test::FoldOperator fold;
  r = Compact({{"a", 9, kTypeMerge, "fail"}}, {}, 9, true, &fold);
  EXPECT_TRUE(r.status.IsCorruption()) << r.status.ToString();
}

TEST_F(CompactionIteratorTest, RangeTombstonesPassAndCover) {
  // The hook: a tombstone [b, d) at 6, covering older entries of the same
  // stripe (no snapshots here).
  auto covered = [](const ParsedInternalKey& k) {
    return k.user_key.compare("b") >= 0 && k.user_key.compare("d") < 0 &&
           k.sequence < 6;
  };
  const std::vector<Version> h = {
      {"a", 4, kTypeValue, "a4"},        {"b", 7, kTypeValue, "b7"},
      {"b", 6, kTypeRangeDeletion, "d"}, {"b", 5, kTypeValue, "b5"},
      {"c", 3, kTypeDeletion, ""},       {"d", 2, kTypeValue, "d2"},
      {"e", 1, kTypeRangeDeletion, "f"}};
  Result r = Compact(h, {}, 9, true, nullptr, covered);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ("a@4:1=a4 b@7:1=b7 b@6:15=d d@2:1=d2 e@1:15=f ", Show(r.output));
  EXPECT_EQ(2u, r.stats.num_range_tombstones);
  EXPECT_EQ(1u, r.stats.num_dropped_range_deleted);  // c's deletion
  EXPECT_EQ(1u, r.stats.num_dropped_hidden);         // b5
  ExpectAccounted(r.stats);

  // A tombstone among a bottommost deletion's shadowed versions goes out
  // after the deletion's place, in order.
  r = Compact({{"k", 9, kTypeDeletion, ""},
               {"k", 8, kTypeRangeDeletion, "z"},
               {"k", 7, kTypeValue, "v"},
               {"k", 5, kTypeValue, "old"}},
              {6}, 9, true, nullptr);
  EXPECT_EQ("k@9:0= k@8:15=z k@5:1=old ", Show(r.output));
  r = Compact({{"k", 9, kTypeSingleDeletion, ""},
               {"k", 8, kTypeRangeDeletion, "z"},
               {"k", 7, kTypeValue, "v"}},
              {}, 9, false, nullptr);
  EXPECT_EQ("k@8:15=z ", Show(r.output));
  ExpectAccounted(r.stats);
}

TEST_F(CompactionIteratorTest, CorruptInputStops) {
  test::VectorIterator::Entries entries =
      test::ToEntries({{"a", 3, kTypeValue, "a"}, {"c", 1, kTypeValue, "c"}});
  std::string bad = InternalKey("b", 2, kTypeValue).Encode().ToString();
  bad[1] = 0x40;  // unknown value type
  entries.emplace_back(bad, "b");
  test::VectorIterator iter(&icmp_, entries);
  Result r = Run(&iter, {}, 9, false, nullptr);
  EXPECT_TRUE(r.status.IsCorruption());
  EXPECT_NE(std::string::npos, r.status.ToString().find("unknown value type"))
      << r.status.ToString();
  EXPECT_EQ("a@3:1=a ", Show(r.output));

  // A damaged key found while looking past a bottommost deletion.
  entries = test::ToEntries({{"a", 3, kTypeDeletion, ""}});
  entries.emplace_back(bad, "b");
  test::VectorIterator iter2(&icmp_, entries);
  r = Run(&iter2, {}, 9, true, nullptr);
  EXPECT_TRUE(r.status.IsCorruption());
  EXPECT_EQ("", Show(r.output));

  // Newer than the DB's last sequence number.
  r = Compact({{"a", 10, kTypeValue, "a"}}, {}, 9, false, nullptr);
  EXPECT_TRUE(r.status.IsCorruption());

  // The input's own error.
  std::unique_ptr<InternalIterator> failing(
      NewErrorInternalIterator(Status::IOError("disk")));
  r = Run(failing.get(), {}, 9, false, nullptr);
  EXPECT_TRUE(r.status.IsIOError());
}

// --- random histories against the model ------------------------------------

struct KeyHistory {
  int puts_since_delete = 0;
  bool merged_since_delete = false;
};

// A random history over few keys. Single deletions follow their contract
// (at most one Put, and no Merge, since the key's last deletion).
std::vector<Version> RandomHistory(Random* rnd, int num_keys, int count,
                                   SequenceNumber first_seq,
                                   std::map<std::string, KeyHistory>* keys) {
  std::vector<Version> h;
  for (int i = 0; i < count; i++) {
    Version v;
    v.key = std::string(1, static_cast<char>('a' + rnd->Uniform(num_keys)));
    v.sequence = first_seq + i;
    KeyHistory& k = (*keys)[v.key];
    switch (rnd->Uniform(8)) {
      case 0:
      case 1:
        v.type = kTypeDeletion;
        break;
      case 2:
      case 3:
        v.type = k.puts_since_delete <= 1 && !k.merged_since_delete
                     ? kTypeSingleDeletion
                     : kTypeDeletion;
        break;
      case 4:
      case 5:
        v.type = kTypeMerge;
        v.value = "m" + std::to_string(v.sequence);
        break;
      default:
        v.type = kTypeValue;
        v.value = "v" + std::to_string(v.sequence);
        break;
    }
    if (v.type == kTypeDeletion || v.type == kTypeSingleDeletion) {
      k = KeyHistory();
    } else if (v.type == kTypeValue) {
      k.puts_since_delete++;
    } else {
      k.merged_since_delete = true;
    }
    h.push_back(v);
  }
  return h;
}

TEST_F(CompactionIteratorTest, RandomAgainstModel) {
  Random rnd(42);
  for (int round = 0; round < 3000; round++) {
    const bool bottommost = rnd.OneIn(2);
    const test::ModelOperator merge = test::PickModelOperator(&rnd);
    const int num_keys = 1 + rnd.Uniform(4);
    std::map<std::string, KeyHistory> keys;
    // Below a non-bottommost input: older levels the output must keep
    // hiding or merging onto.
    std::vector<Version> lower;
    if (!bottommost) {
      lower = RandomHistory(&rnd, num_keys, rnd.Uniform(6), 1, &keys);
    }
    const SequenceNumber first = lower.size() + 1;
    std::vector<Version> input =
        RandomHistory(&rnd, num_keys, rnd.Uniform(16), first, &keys);
    const SequenceNumber last = first + input.size();
    std::vector<SequenceNumber> snapshots;
    for (SequenceNumber s = 1; s <= last; s++) {
      if (rnd.OneIn(4)) snapshots.push_back(s);
    }
    if (!snapshots.empty() && rnd.OneIn(4)) {
      snapshots.push_back(snapshots.back());
    }

    Result r = Compact(input, snapshots, last, bottommost, merge.op.get());
    SCOPED_TRACE("round " + std::to_string(round) + " input " + Show(input) +
                 " lower " + Show(lower) + " output " + Show(r.output));
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();

    // Every reader reads the same.
    std::vector<Version> before = input, after = r.output;
    before.insert(before.end(), lower.begin(), lower.end());
    after.insert(after.end(), lower.begin(), lower.end());
    std::vector<SequenceNumber> views = snapshots;
    views.push_back(last);
    for (SequenceNumber view : views) {
      ASSERT_EQ(test::ReadAt(before, view, merge.model),
                test::ReadAt(after, view, merge.model))
          << "view " << view;
    }

    // Nothing droppable survives.
    SnapshotStripes stripes(snapshots);
    for (size_t i = 0; i < r.output.size(); i++) {
      const Version& v = r.output[i];
      const bool older_same_key =
          i + 1 < r.output.size() && r.output[i + 1].key == v.key;
      if (older_same_key &&
          stripes.StripeOf(r.output[i + 1].sequence) ==
              stripes.StripeOf(v.sequence) &&
          r.output[i + 1].type != kTypeSingleDeletion) {
        // Two versions in one stripe: only operands no merge could fold,
        // or a hidden single deletion kept for the Put it cancels below.
        ASSERT_EQ(kTypeMerge, v.type) << i;
        ASSERT_FALSE(merge.partial) << i;
      }
      if (bottommost && stripes.StripeOf(v.sequence) == 0) {
        ASSERT_NE(kTypeDeletion, v.type)
            << "deletion left at the bottom: " << i;
      }
      if (bottommost && stripes.StripeOf(v.sequence) == 0 &&
          v.type == kTypeSingleDeletion) {
        ASSERT_TRUE(older_same_key) << "tombstone hides nothing: " << i;
        const ValueType older = r.output[i + 1].type;
        ASSERT_TRUE(older == kTypeValue || older == kTypeMerge)
            << "tombstone over a tombstone: " << i;
      }
    }
    // A write some snapshot did not see leaves one it does not see: a
    // transaction holding that snapshot finds it in its conflict check.
    for (SequenceNumber snapshot : snapshots) {
      std::map<std::string, SequenceNumber> newest_in, newest_out;
      for (const Version& v : input) {
        newest_in[v.key] = std::max(newest_in[v.key], v.sequence);
      }
      for (const Version& v : r.output) {
        newest_out[v.key] = std::max(newest_out[v.key], v.sequence);
      }
      for (const auto& [key, seq] : newest_in) {
        if (seq > snapshot) {
          ASSERT_GT(newest_out[key], snapshot)
              << "key " << key << " snapshot " << snapshot;
        }
      }
    }
    EXPECT_EQ(input.size(), r.stats.num_input_records);
    EXPECT_EQ(r.output.size(), r.stats.num_output_records);
    ExpectAccounted(r.stats);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace strata
