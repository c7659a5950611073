// CompactionPicker against synthetic levels: scores, the choice of inputs
// (overlap ratio, clean cuts, L0 overlap, growth), trivial moves, busy
// files, manual range compactions. The randomized version model is in
// compaction_picker_random_test.cc.

#include "db/compaction_picker.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test/db/level_files_builder.h"

namespace strata {
namespace {

using test::LevelFilesBuilder;

CompactionPickerOptions TestOptions() {
  CompactionPickerOptions o;
  o.num_levels = 4;
  o.level0_file_num_compaction_trigger = 2;
  o.max_bytes_for_level_base = 1000;
  o.max_bytes_for_level_multiplier = 10;
  o.target_file_size_base = 100;
  o.max_compaction_bytes = 100000;
  return o;
}

std::vector<uint64_t> Numbers(const std::vector<FileMetaData*>& files) {
  std::vector<uint64_t> numbers;
  for (const FileMetaData* f : files) numbers.push_back(f->number);
  return numbers;
}

double ScoreOf(const std::vector<LevelScore>& scores, int level) {
  for (const LevelScore& s : scores) {
    if (s.level == level) return s.score;
  }
  ADD_FAILURE() << "no score for L" << level;
  return -1;
}

TEST(CompactionPickerTest, ScoresL0ByFilesAndLevelsByBytes) {
  LevelFilesBuilder b(4);
  CompactionPicker picker(TestOptions());
  b.Add(0, "a", "b", 10);
  std::vector<LevelScore> scores = picker.ComputeScores(b.view());
  ASSERT_EQ(3u, scores.size());  // the last level has none
  EXPECT_DOUBLE_EQ(0.5, ScoreOf(scores, 0));
  EXPECT_FALSE(picker.NeedsCompaction(b.view()));
  EXPECT_EQ(nullptr, picker.PickCompaction(b.view()));

  FileMetaData* second = b.Add(0, "c", "d", 10);
  b.Add(1, "a", "b", 600);
  b.Add(1, "c", "d", 900);
  b.Add(2, "a", "d", 2500);
  b.Add(3, "a", "z", 1u << 30);  // the last level is never scored
  scores = picker.ComputeScores(b.view());
  EXPECT_DOUBLE_EQ(1.0, ScoreOf(scores, 0));
  EXPECT_DOUBLE_EQ(1.5, ScoreOf(scores, 1));
  EXPECT_DOUBLE_EQ(0.25, ScoreOf(scores, 2));
  // Highest first.
  EXPECT_EQ(1, scores[0].level);
  EXPECT_EQ(0, scores[1].level);
  EXPECT_EQ(2, scores[2].level);
  EXPECT_TRUE(picker.NeedsCompaction(b.view()));

  // Files being compacted do not count.
  second->being_compacted = true;
  b.view().files[1][1]->being_compacted = true;
  scores = picker.ComputeScores(b.view());
  EXPECT_DOUBLE_EQ(0.5, ScoreOf(scores, 0));
  EXPECT_DOUBLE_EQ(0.6, ScoreOf(scores, 1));
  EXPECT_FALSE(picker.NeedsCompaction(b.view()));
}

TEST(CompactionPickerTest, PicksTheHighestScoringLevel) {
  LevelFilesBuilder b(4);
  CompactionPicker picker(TestOptions());
  b.Add(0, "a", "b", 10);
  b.Add(0, "c", "d", 10);     // L0 score 1
  b.Add(2, "a", "m", 30000);  // L2 score 3
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(2, c->level());
  EXPECT_EQ(3, c->output_level());
  EXPECT_DOUBLE_EQ(3.0, c->score());
  EXPECT_FALSE(c->is_manual());

  // Once those files are busy the next level in line is picked.
  c->MarkFilesBeingCompacted(true);
  c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(0, c->level());
  EXPECT_EQ(1, c->output_level());
}

TEST(CompactionPickerTest, DisabledAutoCompactionsPickNothing) {
  CompactionPickerOptions o = TestOptions();
  o.disable_auto_compactions = true;
  CompactionPicker picker(o);
  LevelFilesBuilder b(4);
  for (int i = 0; i < 5; i++) b.Add(0, "a", "b", 10);
  EXPECT_FALSE(picker.NeedsCompaction(b.view()));
  EXPECT_EQ(nullptr, picker.PickCompaction(b.view()));
  // Manual compactions still run.
  InternalKey end;
  bool conflict;
  std::unique_ptr<Compaction> c =
      picker.CompactRange(b.view(), 0, nullptr, nullptr, &end, &conflict);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(5u, c->inputs(0).size());
  EXPECT_TRUE(c->is_manual());
}

TEST(CompactionPickerTest, PicksSmallestOverlapRelativeToSize) {
  LevelFilesBuilder b(4);
  CompactionPicker picker(TestOptions());
  // L1 (target 1000) holds 1600 bytes in three files: still over its
  // target with any one of them busy.
  FileMetaData* big_overlap = b.Add(1, "a", "c", 500);
  FileMetaData* best = b.Add(1, "d", "f", 500);
  FileMetaData* small = b.Add(1, "g", "i", 600);
  FileMetaData* under_a = b.Add(2, "b", "b", 4000);  // ratio 8 for [a,c]
  FileMetaData* under_d = b.Add(2, "e", "e", 100);   // ratio 0.2 for [d,f]
  FileMetaData* under_g = b.Add(2, "h", "h", 400);   // ratio 0.67 for [g,i]
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(1, c->level());
  EXPECT_EQ(std::vector<uint64_t>{best->number}, Numbers(c->inputs(0)));
  EXPECT_EQ(std::vector<uint64_t>{under_d->number}, Numbers(c->inputs(1)));
  EXPECT_FALSE(c->IsTrivialMove());
  EXPECT_EQ(100u, c->max_output_file_size());

  // A busy best file, or a best file whose overlap is busy, is skipped.
  best->being_compacted = true;
  c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>{small->number}, Numbers(c->inputs(0)));
  best->being_compacted = false;
  under_d->being_compacted = true;
  under_g->being_compacted = true;
  c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>{big_overlap->number}, Numbers(c->inputs(0)));
  EXPECT_EQ(std::vector<uint64_t>{under_a->number}, Numbers(c->inputs(1)));
  under_a->being_compacted = true;
  EXPECT_EQ(nullptr, picker.PickCompaction(b.view()));
}

TEST(CompactionPickerTest, ExpandsToCleanCutWhenAUserKeySpansFiles) {
  LevelFilesBuilder b(4);
  CompactionPicker picker(TestOptions());
  // "k" spans two L1 files: k@9 ends the first, k@5 starts the second.
  FileMetaData* left = b.Add(1, "a", "k", 600, 20, 9);
  FileMetaData* right = b.Add(1, "k", "p", 500, 5, 20);
  FileMetaData* far = b.Add(1, "x", "z", 600);
  // Overlaps make `right` the cheapest on its own (ratio 0) and `far`
  // next (ratio 1/6) — taking `right` alone would strand k@9 above k@5.
  b.Add(2, "b", "b", 6000);
  b.Add(2, "y", "y", 100);
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ((std::vector<uint64_t>{left->number, right->number}),
            Numbers(c->inputs(0)));
  EXPECT_EQ(1u, c->inputs(1).size());

  // If the neighbour is busy the expanded set cannot run: next candidate.
  left->being_compacted = true;
  c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>{far->number}, Numbers(c->inputs(0)));
}

TEST(CompactionPickerTest, OutputLevelInputsAreCleanCutToo) {
  LevelFilesBuilder b(4);
  CompactionPicker picker(TestOptions());
  b.Add(1, "a", "c", 1100);
  // The L1 file [a,c] overlaps the first two L2 files; user key "f" spans
  // the second and the third, so the third joins for a clean cut.
  FileMetaData* l2a = b.Add(2, "a", "c", 10, 8, 8);
  FileMetaData* l2b = b.Add(2, "c", "f", 10, 3, 7);
  FileMetaData* l2c = b.Add(2, "f", "h", 10, 2, 9);
  b.Add(2, "i", "j", 10);
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ((std::vector<uint64_t>{l2a->number, l2b->number, l2c->number}),
            Numbers(c->inputs(1)));
}

TEST(CompactionPickerTest, L0TakesOverlappingFilesTransitivelyFromTheOldest) {
  LevelFilesBuilder b(4);
  CompactionPicker picker(TestOptions());
  // Added oldest first: each Add becomes the newest.
  FileMetaData* oldest = b.Add(0, "b", "d", 10);
  FileMetaData* apart = b.Add(0, "p", "q", 10);
  FileMetaData* chained = b.Add(0, "d", "g", 10);  // overlaps oldest
  FileMetaData* newest = b.Add(0, "g", "h", 10);   // overlaps chained only
  FileMetaData* l1_in = b.Add(1, "a", "c", 10);
  FileMetaData* l1_out = b.Add(1, "i", "j", 10);
  b.Add(2, "a", "z", 10);
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(0, c->level());
  EXPECT_EQ(1, c->output_level());
  // Newest first, as L0 is ordered; the disjoint file stays.
  EXPECT_EQ(
      (std::vector<uint64_t>{newest->number, chained->number, oldest->number}),
      Numbers(c->inputs(0)));
  EXPECT_EQ(std::vector<uint64_t>{l1_in->number}, Numbers(c->inputs(1)));
  EXPECT_EQ(1u, c->grandparents().size());
  (void)apart;
  (void)l1_out;

  // While an L0 compaction runs no other starts, even a disjoint one.
  c->MarkFilesBeingCompacted(true);
  b.Add(0, "x", "y", 10);
  b.Add(0, "x", "y", 10);
  EXPECT_EQ(nullptr, picker.PickCompaction(b.view()));
}

TEST(CompactionPickerTest, GetOverlappingInputs) {
  LevelFilesBuilder b(3);
  FileMetaData* c = b.Add(0, "b", "d", 10);
  FileMetaData* bb = b.Add(0, "d", "g", 10);
  FileMetaData* a = b.Add(0, "g", "h", 10);
  FileMetaData* apart = b.Add(0, "x", "y", 10);
  std::vector<FileMetaData*> found;
  // [b,c] meets only the oldest file, whose range reaches the next, whose
  // range reaches the newest: found only by widening the range and
  // looking again at files already passed.
  const Slice lo("b"), hi("c");
  CompactionPicker::GetOverlappingInputs(b.view(), 0, &lo, &hi, &found);
  EXPECT_EQ((std::vector<FileMetaData*>{a, bb, c}), found);
  CompactionPicker::GetOverlappingInputs(b.view(), 0, nullptr, nullptr, &found);
  EXPECT_EQ((std::vector<FileMetaData*>{apart, a, bb, c}), found);

  FileMetaData* l1a = b.Add(1, "b", "d", 10);
  FileMetaData* l1b = b.Add(1, "f", "h", 10);
  FileMetaData* l1c = b.Add(1, "j", "k", 10);
  const Slice d("d"), e("e"), f("f"), z("z");
  CompactionPicker::GetOverlappingInputs(b.view(), 1, &d, &f, &found);
  EXPECT_EQ((std::vector<FileMetaData*>{l1a, l1b}), found);  // inclusive
  CompactionPicker::GetOverlappingInputs(b.view(), 1, &e, &e, &found);
  EXPECT_TRUE(found.empty());
  CompactionPicker::GetOverlappingInputs(b.view(), 1, &e, nullptr, &found);
  EXPECT_EQ((std::vector<FileMetaData*>{l1b, l1c}), found);
  CompactionPicker::GetOverlappingInputs(b.view(), 1, nullptr, &e, &found);
  EXPECT_EQ(std::vector<FileMetaData*>{l1a}, found);
  CompactionPicker::GetOverlappingInputs(b.view(), 1, &z, nullptr, &found);
  EXPECT_TRUE(found.empty());
  CompactionPicker::GetOverlappingInputs(b.view(), 2, nullptr, nullptr, &found);
  EXPECT_TRUE(found.empty());
}

TEST(CompactionPickerTest, L0SkipsAGroupWhoseBaseInputsAreBusy) {
  LevelFilesBuilder b(4);
  CompactionPicker picker(TestOptions());
  FileMetaData* oldest = b.Add(0, "a", "c", 10);
  FileMetaData* other = b.Add(0, "m", "n", 10);
  FileMetaData* l1_busy = b.Add(1, "b", "b", 10);
  l1_busy->being_compacted = true;
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>{other->number}, Numbers(c->inputs(0)));
  EXPECT_TRUE(c->inputs(1).empty());
  EXPECT_TRUE(c->IsTrivialMove());
  (void)oldest;
}

TEST(CompactionPickerTest, GrowsLevelInputsWhenNoNewOutputFilesJoin) {
  CompactionPickerOptions o = TestOptions();
  LevelFilesBuilder b(4);
  FileMetaData* a = b.Add(1, "a", "b", 600);
  FileMetaData* c2 = b.Add(1, "c", "d", 600);
  FileMetaData* e = b.Add(1, "e", "f", 600);
  b.Add(2, "a", "d", 300);   // spans a and c2
  b.Add(2, "e", "e", 5000);  // makes e the costly choice
  {
    CompactionPicker picker(o);
    std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ((std::vector<uint64_t>{a->number, c2->number}),
              Numbers(c->inputs(0)));
    EXPECT_EQ(1u, c->inputs(1).size());
  }
  {
    // Growth that would exceed max_compaction_bytes is not taken.
    o.max_compaction_bytes = 1400;
    CompactionPicker picker(o);
    std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ(std::vector<uint64_t>{a->number}, Numbers(c->inputs(0)));
  }
  (void)e;
}

TEST(CompactionPickerTest, NoGrowthWhenItAddsOutputFiles) {
  LevelFilesBuilder b(4);
  CompactionPicker picker(TestOptions());
  FileMetaData* a = b.Add(1, "a", "b", 1100);
  b.Add(1, "d", "f", 10);
  b.Add(2, "b", "d", 100);  // reaches into [d,f]
  b.Add(2, "e", "e", 100);  // which would bring this one
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(std::vector<uint64_t>{a->number}, Numbers(c->inputs(0)));
  EXPECT_EQ(1u, c->inputs(1).size());
}

TEST(CompactionPickerTest, TrivialMoveWhenNothingOverlapsBelow) {
  CompactionPickerOptions o = TestOptions();
  o.max_compaction_bytes = 500;
  LevelFilesBuilder b(4);
  FileMetaData* f = b.Add(1, "m", "n", 1100);
  b.Add(2, "a", "b", 100);
  FileMetaData* gp = b.Add(3, "a", "z", 400);
  {
    CompactionPicker picker(o);
    std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ(std::vector<uint64_t>{f->number}, Numbers(c->inputs(0)));
    EXPECT_TRUE(c->inputs(1).empty());
    EXPECT_EQ(std::vector<uint64_t>{gp->number}, Numbers(c->grandparents()));
    EXPECT_TRUE(c->IsTrivialMove());
    EXPECT_NE(std::string::npos, c->Summary().find("trivial move"));
  }
  // A moved file overlapping too much of the grandparents would make an
  // expensive input later: rewrite it instead.
  o.max_compaction_bytes = 399;
  CompactionPicker picker(o);
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_FALSE(c->IsTrivialMove());
}

TEST(CompactionPickerTest, TrivialMoveTakesTheRunAfterItWhileNothingOverlaps) {
  // L1 holds six files over its target and L2 is empty from "a" to "p":
  // the first file moves down, and the files after it come along up to
  // kMaxFilesPerMove, since moving them costs no rewrite either.
  std::vector<FileMetaData*> l1;
  LevelFilesBuilder b(4);
  const char* ranges[][2] = {{"a", "b"}, {"c", "d"}, {"e", "f"},
                             {"g", "h"}, {"i", "j"}, {"k", "l"}};
  for (const auto& r : ranges) l1.push_back(b.Add(1, r[0], r[1], 300));
  FileMetaData* l2 = b.Add(2, "q", "r", 100);
  {
    CompactionPicker picker(TestOptions());
    std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ(Numbers({l1[0], l1[1], l1[2], l1[3]}), Numbers(c->inputs(0)));
    EXPECT_TRUE(c->inputs(1).empty());
    EXPECT_TRUE(c->IsTrivialMove());
  }
  {
    // The run stops at max_compaction_bytes of its own.
    CompactionPickerOptions o = TestOptions();
    o.max_compaction_bytes = 700;
    CompactionPicker picker(o);
    std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ(Numbers({l1[0], l1[1]}), Numbers(c->inputs(0)));
    EXPECT_TRUE(c->IsTrivialMove());
  }
  {
    // ... at a file being compacted ...
    l1[2]->being_compacted = true;
    CompactionPicker picker(TestOptions());
    std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ(Numbers({l1[0], l1[1]}), Numbers(c->inputs(0)));
    l1[2]->being_compacted = false;
  }
  {
    // ... and where the run would overlap an output-level file.
    LevelFilesBuilder b2(4);
    FileMetaData* x = b2.Add(1, "a", "b", 600);
    FileMetaData* y = b2.Add(1, "c", "d", 600);
    b2.Add(1, "e", "f", 600);
    b2.Add(2, "e", "e", 10);
    CompactionPicker picker(TestOptions());
    std::unique_ptr<Compaction> c = picker.PickCompaction(b2.view());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ(Numbers({x, y}), Numbers(c->inputs(0)));
    EXPECT_TRUE(c->IsTrivialMove());
  }
  {
    // A file rewritten because its level's compression differs from the
    // next level's takes no run along.
    CompactionPickerOptions o = TestOptions();
    o.compression_per_level = {kNoCompression, kNoCompression,
                               kSnappyCompression, kSnappyCompression};
    CompactionPicker picker(o);
    std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
    ASSERT_NE(nullptr, c);
    EXPECT_EQ(Numbers({l1[0]}), Numbers(c->inputs(0)));
    EXPECT_FALSE(c->IsTrivialMove());
  }
  (void)l2;
}

TEST(CompactionPickerTest, DynamicLevelsCompactL0IntoTheBaseLevel) {
  CompactionPickerOptions o = TestOptions();
  o.level_compaction_dynamic_level_bytes = true;
  o.target_file_size_multiplier = 3;
  CompactionPicker picker(o);
  LevelFilesBuilder b(4);
  b.Add(0, "a", "b", 10);
  b.Add(0, "a", "c", 10);
  // Empty below L0: straight into the last level.
  std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(3, c->output_level());
  EXPECT_EQ(100u, c->max_output_file_size());  // the base level's size
  EXPECT_EQ(100u, c->target_output_file_size());

  // 5000 bytes in L3: L2 would get 500 <= 1000, so L2 is the base level
  // and L3's output files are 3x the base level's.
  b.Add(3, "a", "z", 5000);
  EXPECT_EQ(2, picker.Targets(b.view()).base_level());
  EXPECT_EQ(300u, picker.Targets(b.view()).MaxFileSizeForLevel(3));
  c = picker.PickCompaction(b.view());
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(0, c->level());
  EXPECT_EQ(2, c->output_level());
  EXPECT_EQ(1u, c->grandparents().size());

  InternalKey end;
  bool conflict;
  c = picker.CompactRange(b.view(), 0, nullptr, nullptr, &end, &conflict);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(2, c->output_level());
  EXPECT_EQ(100u, c->target_output_file_size());
  // Above data in L3, an output may end early at an L3 file's boundary
  // (Compaction::ShouldStopBefore) or grow to twice the target.
  EXPECT_EQ(200u, c->max_output_file_size());
}

TEST(CompactionPickerTest, ManualCompactionProceedsInPieces) {
  CompactionPickerOptions o = TestOptions();
  o.max_compaction_bytes = 250;
  CompactionPicker picker(o);
  LevelFilesBuilder b(4);
  for (char k = 'a'; k <= 'j'; k++) {
    b.Add(1, std::string(1, k), std::string(1, k) + "z", 100);
  }
  const Slice begin("b"), end("hm");
  // Files [b..] to [h..]: 7 files, 3 + 3 + 1 by bytes.
  std::vector<size_t> pieces;
  std::string next_begin;
  Slice from = begin;
  for (int step = 0; step < 10; step++) {
    InternalKey piece_end;
    bool conflict = true;
    std::unique_ptr<Compaction> c =
        picker.CompactRange(b.view(), 1, &from, &end, &piece_end, &conflict);
    EXPECT_FALSE(conflict);
    if (c == nullptr) break;
    EXPECT_TRUE(c->is_manual());
    EXPECT_EQ(2, c->output_level());
    pieces.push_back(c->inputs(0).size());
    // Run it: the inputs leave L1 (output into L2 is not needed here).
    for (FileMetaData* f : c->inputs(0)) ASSERT_TRUE(b.Remove(1, f));
    if (!piece_end.Valid()) break;
    EXPECT_EQ(c->inputs(0).back()->largest.Encode(), piece_end.Encode());
    next_begin = piece_end.user_key().ToString();
    from = next_begin;
  }
  EXPECT_EQ((std::vector<size_t>{3, 3, 1}), pieces);
  // a, i and j were outside the range.
  ASSERT_EQ(3u, b.view().files[1].size());
  EXPECT_EQ("a", b.view().files[1][0]->smallest.user_key().ToString());
  EXPECT_EQ("i", b.view().files[1][1]->smallest.user_key().ToString());
  EXPECT_EQ("j", b.view().files[1][2]->smallest.user_key().ToString());
}

TEST(CompactionPickerTest, ManualCompactionEdgeCases) {
  CompactionPickerOptions o = TestOptions();
  o.max_compaction_bytes = 50;
  CompactionPicker picker(o);
  LevelFilesBuilder b(4);
  FileMetaData* f1 = b.Add(1, "a", "k", 100, 20, 9);
  FileMetaData* f2 = b.Add(1, "k", "m", 100, 5, 5);
  FileMetaData* f3 = b.Add(1, "n", "p", 100);
  InternalKey end;
  bool conflict;

  // A piece's byte limit (f1 alone reaches it) never splits a user key
  // across pieces.
  const Slice a("a");
  std::unique_ptr<Compaction> c =
      picker.CompactRange(b.view(), 1, &a, nullptr, &end, &conflict);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ((std::vector<uint64_t>{f1->number, f2->number}),
            Numbers(c->inputs(0)));
  EXPECT_TRUE(end.Valid());

  // Nothing in range, the last level, a bad level: null, no conflict.
  const Slice x("x"), y("y");
  EXPECT_EQ(nullptr, picker.CompactRange(b.view(), 1, &x, &y, &end, &conflict));
  EXPECT_FALSE(conflict);
  EXPECT_FALSE(end.Valid());
  EXPECT_EQ(nullptr, picker.CompactRange(b.view(), 3, nullptr, nullptr, &end,
                                         &conflict));
  EXPECT_FALSE(conflict);
  EXPECT_EQ(nullptr, picker.CompactRange(b.view(), -1, nullptr, nullptr, &end,
                                         &conflict));
  EXPECT_FALSE(conflict);

  // Busy inputs: a conflict, to retry later.
  f3->being_compacted = true;
  const Slice n("n");
  EXPECT_EQ(nullptr,
            picker.CompactRange(b.view(), 1, &n, nullptr, &end, &conflict));
  EXPECT_TRUE(conflict);
  f3->being_compacted = false;
  // Busy output-level files too.
  FileMetaData* below = b.Add(2, "o", "o", 10);
  below->being_compacted = true;
  EXPECT_EQ(nullptr,
            picker.CompactRange(b.view(), 1, &n, nullptr, &end, &conflict));
  EXPECT_TRUE(conflict);
  below->being_compacted = false;
  c = picker.CompactRange(b.view(), 1, &n, nullptr, &end, &conflict);
  ASSERT_NE(nullptr, c);
  EXPECT_FALSE(end.Valid());  // the whole range in one step
  EXPECT_EQ(std::vector<uint64_t>{below->number}, Numbers(c->inputs(1)));

  // L0 files of the range go together, however large; a running L0
  // compaction blocks a manual one.
  b.Add(0, "a", "c", 1000);
  FileMetaData* l0 = b.Add(0, "b", "z", 1000);
  const Slice z("z");
  c = picker.CompactRange(b.view(), 0, &z, nullptr, &end, &conflict);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(2u, c->inputs(0).size());
  EXPECT_EQ(3u, c->inputs(1).size());  // all of L1 lies under [a, z]
  l0->being_compacted = true;
  EXPECT_EQ(nullptr, picker.CompactRange(b.view(), 0, &a, &a, &end, &conflict));
  EXPECT_TRUE(conflict);
}

}  // namespace
}  // namespace strata
