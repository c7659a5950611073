// Version and VersionBuilder: the level invariants and the checks on
// edits, file reference counts, GetOverlappingInputs / OverlapInLevel
// against brute force. (The read path: version_read_test.cc.)

#include "db/version.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "db/version_builder.h"
#include "gtest/gtest.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr int kLevels = 4;

std::string K(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%03d", i);
  return buf;
}

// Builds versions from edits and releases them.
class VersionTest : public testing::Test {
 protected:
  VersionTest() : icmp_(BytewiseComparator()) {}

  // base (may be null: empty) plus edits; null with *status set on error.
  Version* Build(Version* base, const std::vector<VersionEdit>& edits,
                 Status* status = nullptr) {
    Version* empty = nullptr;
    if (base == nullptr) {
      empty = new Version(&icmp_, kLevels);
      empty->Ref();
      base = empty;
    }
    Version* v = new Version(&icmp_, kLevels);
    v->Ref();
    Status s;
    {
      VersionBuilder builder(&icmp_, base);
      for (const VersionEdit& e : edits) {
        if (s.ok()) s = builder.Apply(e);
      }
      if (s.ok()) s = builder.SaveTo(v);
    }
    if (empty != nullptr) empty->Unref();
    if (status != nullptr) *status = s;
    if (!s.ok()) {
      v->Unref();
      return nullptr;
    }
    return v;
  }

  static void Add(VersionEdit* edit, int level, uint64_t number,
                  const std::string& lo, const std::string& hi,
                  SequenceNumber lo_seq = 100, SequenceNumber hi_seq = 100) {
    edit->AddFile(level, number, 1000 + number,
                  InternalKey(lo, hi_seq, kTypeValue),
                  InternalKey(hi, lo_seq, kTypeValue), lo_seq, hi_seq);
  }

  static std::vector<uint64_t> Numbers(const std::vector<FileMetaData*>& fs) {
    std::vector<uint64_t> r;
    for (const FileMetaData* f : fs) r.push_back(f->number);
    return r;
  }

  InternalKeyComparator icmp_;
};

TEST_F(VersionTest, LevelZeroNewestFirstOtherLevelsByKey) {
  VersionEdit edit;
  Add(&edit, 0, 5, "a", "z", 1, 10);
  Add(&edit, 0, 6, "a", "z", 11, 30);
  Add(&edit, 0, 7, "a", "z", 11, 20);
  Add(&edit, 0, 4, "a", "z", 11, 30);  // same seqno as 6: higher number first
  Add(&edit, 1, 9, "m", "p");
  Add(&edit, 1, 8, "q", "t");
  Add(&edit, 1, 10, "a", "c");
  Version* v = Build(nullptr, {edit});
  ASSERT_NE(nullptr, v);
  EXPECT_EQ((std::vector<uint64_t>{6, 4, 7, 5}), Numbers(v->files(0)));
  EXPECT_EQ((std::vector<uint64_t>{10, 9, 8}), Numbers(v->files(1)));
  EXPECT_EQ(4, v->NumFiles(0));
  EXPECT_EQ(0, v->NumFiles(2));
  EXPECT_EQ(3000u + 10 + 9 + 8, v->NumLevelBytes(1));
  EXPECT_NE(std::string::npos, v->DebugString().find("--- level 1 ---"));
  v->Unref();
}

TEST_F(VersionTest, BuilderRejectsBadEdits) {
  VersionEdit base_edit;
  Add(&base_edit, 1, 5, "d", "f");
  Version* base = Build(nullptr, {base_edit});
  ASSERT_NE(nullptr, base);

  auto expect_error = [&](const VersionEdit& e, bool corruption,
                          const std::string& needle) {
    Status s;
    EXPECT_EQ(nullptr, Build(base, {e}, &s));
    EXPECT_EQ(corruption, s.IsCorruption()) << s.ToString();
    EXPECT_EQ(!corruption, s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(needle)) << s.ToString();
  };
  VersionEdit e;
  Add(&e, 2, 5, "x", "y");  // number 5 is live
  expect_error(e, true, "adds file #5 twice");
  e.Clear();
  Add(&e, 2, 6, "x", "y");
  Add(&e, 3, 6, "x", "y");
  expect_error(e, true, "adds file #6 twice");
  e.Clear();
  e.RemoveFile(1, 6);
  expect_error(e, true, "removes file #6 from level 1");
  e.Clear();
  e.RemoveFile(2, 5);  // wrong level
  expect_error(e, true, "removes file #5 from level 2");
  e.Clear();
  Add(&e, 1, 7, "e", "g");  // overlaps #5
  expect_error(e, true, "overlap in level 1");
  e.Clear();
  Add(&e, kLevels, 7, "e", "g");
  expect_error(e, false, "num_levels");
  e.Clear();
  e.RemoveFile(kLevels, 5);
  expect_error(e, false, "num_levels");
  e.Clear();
  e.AddFile(2, 8, 1, InternalKey("b", 1, kTypeValue),
            InternalKey("a", 1, kTypeValue), 1, 1);
  expect_error(e, true, "smallest key is above its largest");

  // Moving a file between levels and a file touching a neighbour at a
  // shared user key (newer versions on the left) are fine.
  e.Clear();
  e.RemoveFile(1, 5);
  Add(&e, 2, 5, "d", "f");
  e.AddFile(2, 9, 1, InternalKey("f", 50, kTypeValue),
            InternalKey("h", 50, kTypeValue), 50, 50);
  Status s;
  Version* moved = Build(base, {e}, &s);
  ASSERT_NE(nullptr, moved) << s.ToString();
  EXPECT_EQ(0, moved->NumFiles(1));
  EXPECT_EQ((std::vector<uint64_t>{5, 9}), Numbers(moved->files(2)));
  moved->Unref();
  base->Unref();
}

TEST_F(VersionTest, FailedApplyChangesNothing) {
  Version* empty = new Version(&icmp_, kLevels);
  empty->Ref();
  Version* v = new Version(&icmp_, kLevels);
  v->Ref();
  {
    VersionBuilder builder(&icmp_, empty);
    VersionEdit good;
    Add(&good, 1, 5, "a", "b");
    ASSERT_TRUE(builder.Apply(good).ok());
    VersionEdit bad;  // a valid removal, then a bad addition
    bad.RemoveFile(1, 5);
    Add(&bad, 1, 6, "a", "b");
    Add(&bad, 1, 6, "c", "d");
    EXPECT_TRUE(builder.Apply(bad).IsCorruption());
    ASSERT_TRUE(builder.SaveTo(v).ok());
  }
  EXPECT_EQ((std::vector<uint64_t>{5}), Numbers(v->files(1)));
  v->Unref();
  empty->Unref();
}

TEST_F(VersionTest, FilesAreSharedAndReferenceCounted) {
  VersionEdit e1;
  Add(&e1, 0, 1, "a", "b");
  Add(&e1, 1, 2, "c", "d");
  Version* v1 = Build(nullptr, {e1});
  FileMetaData* f1 = v1->files(0)[0];
  FileMetaData* f2 = v1->files(1)[0];
  EXPECT_EQ(1, f1->refs);

  VersionEdit e2;
  e2.RemoveFile(0, 1);
  Add(&e2, 2, 3, "e", "f");
  Version* v2 = Build(v1, {e2});
  EXPECT_EQ(f2, v2->files(1)[0]);  // shared, not copied
  EXPECT_EQ(2, f2->refs);
  EXPECT_EQ(1, f1->refs);  // only v1 holds it

  std::vector<uint64_t> live;
  v1->AddLiveFiles(&live);
  v2->AddLiveFiles(&live);
  std::sort(live.begin(), live.end());
  EXPECT_EQ((std::vector<uint64_t>{1, 2, 2, 3}), live);

  v1->Ref();
  v1->Unref();  // not the last ref
  EXPECT_EQ(1, v1->refs());
  v1->Unref();  // deletes v1 and f1 (ASan would catch a leak or a reuse)
  EXPECT_EQ(1, f2->refs);
  v2->Unref();
}

// Brute force: level 0 grows the range until no file outside it overlaps.
std::set<uint64_t> BruteOverlaps(const Version& v, int level, const Slice* b,
                                 const Slice* e) {
  std::string lo = b ? b->ToString() : "";
  std::string hi = e ? e->ToString() : "";
  bool has_lo = b != nullptr, has_hi = e != nullptr;
  std::set<uint64_t> result;
  for (bool changed = true; changed;) {
    changed = false;
    result.clear();
    for (const FileMetaData* f : v.files(level)) {
      const std::string fs = f->smallest.user_key().ToString();
      const std::string fl = f->largest.user_key().ToString();
      if ((has_lo && fl < lo) || (has_hi && fs > hi)) continue;
      result.insert(f->number);
      if (level == 0 && has_lo && fs < lo) lo = fs, changed = true;
      if (level == 0 && has_hi && fl > hi) hi = fl, changed = true;
    }
  }
  return result;
}

TEST_F(VersionTest, OverlapsAgainstBruteForce) {
  Random rnd(1234);
  for (int round = 0; round < 200; round++) {
    SCOPED_TRACE(round);
    VersionEdit edit;
    uint64_t number = 1;
    const int l0 = rnd.Uniform(6);
    for (int i = 0; i < l0; i++) {
      int a = rnd.Uniform(100), b = rnd.Uniform(100);
      if (a > b) std::swap(a, b);
      Add(&edit, 0, number++, K(a), K(b), i * 10 + 1, i * 10 + 5);
    }
    // Level 1: disjoint ranges over sorted boundaries; sometimes a file
    // starts at the user key the previous one ends at.
    std::set<int> bounds;
    const int n = rnd.Uniform(12);
    while (static_cast<int>(bounds.size()) < 2 * n)
      bounds.insert(rnd.Uniform(100));
    std::vector<int> bv(bounds.begin(), bounds.end());
    std::string prev_hi;
    for (int i = 0; i < n; i++) {
      std::string lo = K(bv[2 * i]);
      const std::string hi = K(bv[2 * i + 1]);
      SequenceNumber lo_seq = 100;
      if (!prev_hi.empty() && rnd.OneIn(3)) {
        lo = prev_hi;
        lo_seq = 50;  // older than the previous file's version of it
      }
      edit.AddFile(1, number++, 10, InternalKey(lo, lo_seq, kTypeValue),
                   InternalKey(hi, 100, kTypeValue), 50, 100);
      prev_hi = hi;
    }
    Status s;
    Version* v = Build(nullptr, {edit}, &s);
    ASSERT_NE(nullptr, v) << s.ToString();

    for (int q = 0; q < 30; q++) {
      int a = rnd.Uniform(105), b = rnd.Uniform(105);
      if (a > b) std::swap(a, b);
      const std::string ua = K(a), ub = K(b);
      const bool use_a = !rnd.OneIn(5), use_b = !rnd.OneIn(5);
      const Slice sa(ua), sb(ub);
      InternalKey ia(ua, rnd.Uniform(200), kTypeValue);
      InternalKey ib(ub, rnd.Uniform(200), kTypeValue);
      for (int level = 0; level < 2; level++) {
        std::vector<FileMetaData*> inputs;
        v->GetOverlappingInputs(level, use_a ? &ia : nullptr,
                                use_b ? &ib : nullptr, &inputs);
        const std::vector<uint64_t> got = Numbers(inputs);
        const std::set<uint64_t> expected = BruteOverlaps(
            *v, level, use_a ? &sa : nullptr, use_b ? &sb : nullptr);
        EXPECT_EQ(expected, std::set<uint64_t>(got.begin(), got.end()))
            << "level " << level << " [" << (use_a ? ua : "-") << ", "
            << (use_b ? ub : "-") << "]\n"
            << v->DebugString();
        EXPECT_EQ(got.size(), expected.size());  // no duplicates
        // Some file meets the range exactly when the grown one is found.
        EXPECT_EQ(!expected.empty(),
                  v->OverlapInLevel(level, use_a ? &sa : nullptr,
                                    use_b ? &sb : nullptr));
      }
    }
    v->Unref();
  }
}

}  // namespace
}  // namespace strata
