// A randomized model of a leveled tree: flushes add L0 files, the picker
// (automatic and manual) chooses compactions, several run at once and
// finish in random order, their outputs replace their inputs. Every
// picked compaction must be clean-cut and leave no file of its output
// level overlapping its range; every version must stay well formed:
// L1+ sorted and disjoint, and where two files in different places share
// a boundary user key, the upper one holds the newer version of it.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/compaction_picker.h"
#include "gtest/gtest.h"
#include "test/db/level_files_builder.h"
#include "util/random.h"

namespace strata {
namespace {

using test::LevelFilesBuilder;

class RandomTree {
 public:
  RandomTree(const CompactionPickerOptions& options, uint32_t seed)
      : picker_(options), builder_(picker_.options().num_levels), rnd_(seed) {}

  void Run(int steps) {
    for (int step = 0; step < steps; step++) {
      SCOPED_TRACE("step " + std::to_string(step));
      const uint32_t op = rnd_.Uniform(100);
      if (op < 35) {
        Flush();
      } else if (op < 65) {
        if (running_.size() < 4) Pick();
      } else if (op < 95) {
        if (!running_.empty())
          Finish(rnd_.Uniform(static_cast<int>(running_.size())));
      } else {
        Manual();
      }
      CheckVersion();
      if (::testing::Test::HasFatalFailure()) return;
    }
    while (!running_.empty()) Finish(0);
    CheckVersion();
  }

  int picked() const { return picked_; }
  int trivial_moves() const { return trivial_moves_; }
  int manual() const { return manual_; }
  int max_level_reached() const {
    int deepest = 0;
    for (int l = 0; l < view().num_levels(); l++) {
      if (!view().files[l].empty()) deepest = l;
    }
    return deepest;
  }

 private:
  const LevelFilesView& view() const { return builder_.view(); }

  std::string RandomKey() {
    char buf[8];
    std::snprintf(buf, sizeof(buf), "k%02u", rnd_.Uniform(40));
    return buf;
  }

  void Flush() {
    std::string lo = RandomKey(), hi = RandomKey();
    if (hi < lo) std::swap(lo, hi);
    // Within one file a key's newer version sorts first.
    FileMetaData* f = builder_.NewFile(InternalKey(lo, seq_ + 2, kTypeValue),
                                       InternalKey(hi, seq_ + 1, kTypeValue),
                                       1 + rnd_.Uniform(100));
    seq_ += 2;
    builder_.Insert(0, f);
  }

  void Pick() {
    std::unique_ptr<Compaction> c = picker_.PickCompaction(view());
    if (c == nullptr) return;
    Started(std::move(c));
    picked_++;
  }

  void Manual() {
    const int level = static_cast<int>(rnd_.Uniform(view().num_levels() - 1));
    std::string lo = RandomKey(), hi = RandomKey();
    if (hi < lo) std::swap(lo, hi);
    const Slice begin(lo), end(hi);
    InternalKey compaction_end;
    bool conflict;
    std::unique_ptr<Compaction> c = picker_.CompactRange(
        view(), level, rnd_.OneIn(4) ? nullptr : &begin,
        rnd_.OneIn(4) ? nullptr : &end, &compaction_end, &conflict);
    if (c == nullptr) return;
    EXPECT_FALSE(conflict);
    EXPECT_EQ(level, c->level());
    Started(std::move(c));
    manual_++;
  }

  // Checks a new compaction against the version it was picked from and
  // marks its files.
  void Started(std::unique_ptr<Compaction> c) {
    SCOPED_TRACE(c->Summary());
    const Comparator* ucmp = builder_.icmp().user_comparator();
    const int level = c->level();
    const int out = c->output_level();
    ASSERT_FALSE(c->inputs(0).empty());
    if (level == 0) {
      EXPECT_EQ(picker_.Targets(view()).base_level(), out);
    } else {
      EXPECT_EQ(level + 1, out);
    }
    for (int which = 0; which < 2; which++) {
      for (const FileMetaData* f : c->inputs(which)) {
        EXPECT_FALSE(f->being_compacted) << f->number;
        const auto& files = view().files[which == 0 ? level : out];
        EXPECT_NE(files.end(), std::find(files.begin(), files.end(), f));
      }
    }
    // Clean cut in the input level: no other file shares a user key with
    // the inputs' range.
    std::string lo, hi;
    UserRange(c->inputs(0), &lo, &hi);
    for (const FileMetaData* f : view().files[level]) {
      if (Contains(c->inputs(0), f)) continue;
      EXPECT_FALSE(Overlaps(ucmp, f, lo, hi))
          << "L" << level << " file " << f->number << " left behind";
    }
    // Nothing left in the output level overlaps the compaction's range.
    std::vector<FileMetaData*> all = c->inputs(0);
    all.insert(all.end(), c->inputs(1).begin(), c->inputs(1).end());
    UserRange(all, &lo, &hi);
    for (const FileMetaData* f : view().files[out]) {
      if (Contains(c->inputs(1), f)) continue;
      EXPECT_FALSE(Overlaps(ucmp, f, lo, hi))
          << "L" << out << " file " << f->number << " overlaps the output";
    }
    // Grandparents: exactly the next level's files in the range.
    std::vector<FileMetaData*> expected;
    if (out + 1 < view().num_levels()) {
      for (FileMetaData* f : view().files[out + 1]) {
        if (Overlaps(ucmp, f, lo, hi)) expected.push_back(f);
      }
    }
    EXPECT_EQ(expected, c->grandparents());
    if (c->IsTrivialMove()) {
      // One file, or a run of adjacent files of a sorted level.
      const std::vector<FileMetaData*>& level = view().files[c->level()];
      auto first = std::find(level.begin(), level.end(), c->inputs(0)[0]);
      ASSERT_NE(level.end(), first);
      for (size_t i = 1; i < c->inputs(0).size(); i++) {
        ASSERT_LT(static_cast<size_t>(first - level.begin()) + i, level.size());
        EXPECT_EQ(*(first + static_cast<std::ptrdiff_t>(i)), c->inputs(0)[i]);
      }
      if (c->level() == 0) {
        EXPECT_EQ(1u, c->inputs(0).size());
      }
      EXPECT_TRUE(c->inputs(1).empty());
      trivial_moves_++;
    }
    c->MarkFilesBeingCompacted(true);
    running_.push_back(std::move(c));
  }

  // Replaces the inputs of running_[index] by its outputs: the inputs'
  // boundary keys, in order, cut into files at random places.
  void Finish(size_t index) {
    std::unique_ptr<Compaction> c = std::move(running_[index]);
    running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(index));
    const int out = c->output_level();
    std::vector<CompactionInputFile> deletions;
    c->AddInputDeletions(&deletions);
    std::vector<FileMetaData*> outputs;
    if (c->IsTrivialMove()) {
      outputs = c->inputs(0);
    } else {
      std::vector<InternalKey> keys;
      uint64_t bytes = 0;
      for (int which = 0; which < 2; which++) {
        for (const FileMetaData* f : c->inputs(which)) {
          keys.push_back(f->smallest);
          keys.push_back(f->largest);
          bytes += f->file_size;
        }
      }
      const InternalKeyComparator& icmp = builder_.icmp();
      std::sort(keys.begin(), keys.end(),
                [&icmp](const InternalKey& a, const InternalKey& b) {
                  return icmp.Compare(a.Encode(), b.Encode()) < 0;
                });
      keys.erase(
          std::unique(keys.begin(), keys.end(),
                      [&icmp](const InternalKey& a, const InternalKey& b) {
                        return icmp.Compare(a.Encode(), b.Encode()) == 0;
                      }),
          keys.end());
      size_t start = 0;
      for (size_t i = 0; i < keys.size(); i++) {
        if (i + 1 == keys.size() || rnd_.OneIn(3)) {
          outputs.push_back(builder_.NewFile(
              keys[start], keys[i], 1 + bytes / (keys.size() / 2 + 1)));
          start = i + 1;
        }
      }
    }
    c->MarkFilesBeingCompacted(false);
    for (const CompactionInputFile& d : deletions) {
      const auto& files = view().files[d.level];
      auto it = std::find_if(
          files.begin(), files.end(),
          [&d](const FileMetaData* f) { return f->number == d.number; });
      ASSERT_NE(files.end(), it) << "input " << d.number << " gone";
      builder_.Remove(d.level, *it);
    }
    for (FileMetaData* f : outputs) builder_.Insert(out, f);
  }

  void CheckVersion() {
    const InternalKeyComparator& icmp = builder_.icmp();
    for (int level = 1; level < view().num_levels(); level++) {
      const auto& files = view().files[level];
      for (size_t i = 1; i < files.size(); i++) {
        ASSERT_LT(icmp.Compare(files[i - 1]->largest.Encode(),
                               files[i]->smallest.Encode()),
                  0)
            << "L" << level << " files " << files[i - 1]->number << " and "
            << files[i]->number << " overlap";
      }
    }
    // Boundary versions of each user key by place: L0 files newest
    // first, then L1, L2, ... (a level is one place).
    struct Version {
      int place;
      int level;
      SequenceNumber seq;
    };
    std::map<std::string, std::vector<Version>> versions;
    int place = 0;
    for (int level = 0; level < view().num_levels(); level++) {
      for (const FileMetaData* f : view().files[level]) {
        for (const InternalKey* k : {&f->smallest, &f->largest}) {
          versions[k->user_key().ToString()].push_back(
              Version{place, level, ExtractSequence(k->Encode())});
        }
        if (level == 0) place++;
      }
      if (level > 0) place++;
    }
    for (const auto& key : versions) {
      for (const Version& upper : key.second) {
        for (const Version& lower : key.second) {
          if (upper.place >= lower.place) continue;
          ASSERT_GT(upper.seq, lower.seq)
              << "key " << key.first << " in L" << upper.level
              << " is older than below it in L" << lower.level;
        }
      }
    }
  }

  void UserRange(const std::vector<FileMetaData*>& files, std::string* lo,
                 std::string* hi) const {
    const Comparator* ucmp = builder_.icmp().user_comparator();
    for (size_t i = 0; i < files.size(); i++) {
      const Slice s = files[i]->smallest.user_key();
      const Slice l = files[i]->largest.user_key();
      if (i == 0 || ucmp->Compare(s, *lo) < 0) *lo = s.ToString();
      if (i == 0 || ucmp->Compare(l, *hi) > 0) *hi = l.ToString();
    }
  }

  static bool Overlaps(const Comparator* ucmp, const FileMetaData* f,
                       const std::string& lo, const std::string& hi) {
    return ucmp->Compare(f->largest.user_key(), lo) >= 0 &&
           ucmp->Compare(f->smallest.user_key(), hi) <= 0;
  }

  static bool Contains(const std::vector<FileMetaData*>& files,
                       const FileMetaData* f) {
    return std::find(files.begin(), files.end(), f) != files.end();
  }

  CompactionPicker picker_;
  LevelFilesBuilder builder_;
  Random rnd_;
  SequenceNumber seq_ = 1;
  std::vector<std::unique_ptr<Compaction>> running_;
  int picked_ = 0;
  int trivial_moves_ = 0;
  int manual_ = 0;
};

CompactionPickerOptions RandomOptions(bool dynamic) {
  CompactionPickerOptions o;
  o.num_levels = 5;
  o.level0_file_num_compaction_trigger = 3;
  o.max_bytes_for_level_base = 300;
  o.max_bytes_for_level_multiplier = 4;
  o.level_compaction_dynamic_level_bytes = dynamic;
  o.target_file_size_base = 50;
  o.max_compaction_bytes = 500;
  return o;
}

class CompactionPickerRandomTest : public ::testing::TestWithParam<bool> {};

TEST_P(CompactionPickerRandomTest, PickedCompactionsKeepTheTreeConsistent) {
  int picked = 0, trivial = 0, manual = 0, deepest = 0;
  for (uint32_t seed = 1; seed <= 8; seed++) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomTree tree(RandomOptions(GetParam()), seed);
    tree.Run(1500);
    if (HasFatalFailure()) return;
    picked += tree.picked();
    trivial += tree.trivial_moves();
    manual += tree.manual();
    deepest = std::max(deepest, tree.max_level_reached());
  }
  // The model really exercised the picker.
  EXPECT_GT(picked, 500);
  EXPECT_GT(trivial, 0);
  EXPECT_GT(manual, 20);
  EXPECT_EQ(4, deepest);
}

INSTANTIATE_TEST_SUITE_P(StaticAndDynamic, CompactionPickerRandomTest,
                         ::testing::Bool());

}  // namespace
}  // namespace strata
