// Compaction, the description of one compaction, built by hand: output
// cuts at grandparent overlap, the base-level test for keys, trivial
// moves, file marking and the deletions it reports.

#include "db/compaction.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test/db/level_files_builder.h"

namespace strata {
namespace {

using test::LevelFilesBuilder;

std::string IKey(const std::string& user_key, SequenceNumber seq = 5) {
  return InternalKey(user_key, seq, kTypeValue).Encode().ToString();
}

TEST(CompactionTest, ShouldStopBeforeCutsAtGrandparentOverlap) {
  LevelFilesBuilder b(4);
  FileMetaData* in = b.Add(1, "a", "z", 10);
  CompactionSpec spec;
  spec.level = 1;
  spec.output_level = 2;
  spec.inputs[0] = {in};
  // Grandparents in L3: [b,c] [d,e] [f,g] [h,i] [j,k], 100 bytes each.
  const char* bounds[][2] = {
      {"b", "c"}, {"d", "e"}, {"f", "g"}, {"h", "i"}, {"j", "k"}};
  for (const auto& r : bounds) {
    spec.grandparents.push_back(b.Add(3, r[0], r[1], 100));
  }
  spec.max_compaction_bytes = 150;
  Compaction c(b.view(), spec);

  // The first key never cuts, even past grandparents: nothing is in the
  // output yet, so nothing it passed counts.
  EXPECT_FALSE(c.ShouldStopBefore(IKey("e1"), 1));
  // Passing [f,g] (100 bytes) stays within 150.
  EXPECT_FALSE(c.ShouldStopBefore(IKey("h"), 1));
  // Passing [h,i] makes 200 > 150: cut before "j", counting restarts.
  EXPECT_TRUE(c.ShouldStopBefore(IKey("j"), 1));
  EXPECT_FALSE(c.ShouldStopBefore(IKey("j5"), 1));
  // Passing [j,k]: 100, no cut; keys after the last grandparent add none.
  EXPECT_FALSE(c.ShouldStopBefore(IKey("x"), 1));
  EXPECT_FALSE(c.ShouldStopBefore(IKey("y"), 1));
}

TEST(CompactionTest, ShouldStopBeforeComparesInternalKeys) {
  LevelFilesBuilder b(4);
  CompactionSpec spec;
  spec.level = 1;
  spec.output_level = 2;
  spec.inputs[0] = {b.Add(1, "a", "z", 10)};
  // Two grandparents sharing user key "k": [a, k@9] and [k@4, m].
  spec.grandparents = {b.Add(3, "a", "k", 100, 9, 9),
                       b.Add(3, "k", "m", 100, 4, 4)};
  spec.max_compaction_bytes = 50;
  Compaction c(b.view(), spec);
  EXPECT_FALSE(c.ShouldStopBefore(IKey("b"), 1));
  // k@9 is still inside the first grandparent; k@7 is past it.
  EXPECT_FALSE(c.ShouldStopBefore(IKey("k", 9), 1));
  EXPECT_TRUE(c.ShouldStopBefore(IKey("k", 7), 1));
}

TEST(CompactionTest, ShouldStopBeforeCutsEarlyAtGrandparentBoundaries) {
  LevelFilesBuilder b(4);
  CompactionSpec spec;
  spec.level = 1;
  spec.output_level = 2;
  spec.inputs[0] = {b.Add(1, "a", "z", 10)};
  // Grandparents: [b,c] [d,e] [f,g] 100 bytes each, [h,i] 300 bytes.
  spec.grandparents = {b.Add(3, "b", "c", 100), b.Add(3, "d", "e", 100),
                       b.Add(3, "f", "g", 100), b.Add(3, "h", "i", 300)};
  spec.max_compaction_bytes = 1 << 20;
  spec.target_output_file_size = 1000;
  {
    Compaction c(b.view(), spec);
    EXPECT_FALSE(c.ShouldStopBefore(IKey("b1"), 0));
    // No boundary crossed: no early cut, however large the output.
    EXPECT_FALSE(c.ShouldStopBefore(IKey("b2"), 900));
    // Leaving [b,c] is a boundary: 499 bytes are under 50% + 5% (one
    // boundary) = 550 ...
    EXPECT_FALSE(c.ShouldStopBefore(IKey("c5"), 499));
    // ... entering [d,e] is the second: 600 bytes reach 60%.
    EXPECT_TRUE(c.ShouldStopBefore(IKey("d1"), 600));
    // A new output counts its boundaries from zero: leaving [d,e] needs
    // 55% again.
    EXPECT_FALSE(c.ShouldStopBefore(IKey("d5"), 100));
    EXPECT_FALSE(c.ShouldStopBefore(IKey("e5"), 549));
    EXPECT_TRUE(c.ShouldStopBefore(IKey("f1"), 650));
  }
  {
    // A key that skips a whole grandparent file of more than an eighth of
    // the target cuts, however small the output: the file then stays out
    // of the next compaction of either output.
    Compaction c(b.view(), spec);
    EXPECT_FALSE(c.ShouldStopBefore(IKey("e5"), 0));
    EXPECT_FALSE(c.ShouldStopBefore(IKey("e6"), 10));
    // Skipping [f,g] (100 bytes, under 1000 / 8 = 125) does not cut ...
    EXPECT_FALSE(c.ShouldStopBefore(IKey("g9"), 10));
    // ... skipping [h,i] (300 bytes) does.
    EXPECT_TRUE(c.ShouldStopBefore(IKey("x"), 10));
  }
  {
    // Without a target only the overlap counts.
    spec.target_output_file_size = 0;
    Compaction c(b.view(), spec);
    EXPECT_FALSE(c.ShouldStopBefore(IKey("b1"), 0));
    EXPECT_FALSE(c.ShouldStopBefore(IKey("x"), 1 << 30));
  }
}

TEST(CompactionTest, IsBaseLevelForKeyLooksBelowTheOutputOnly) {
  LevelFilesBuilder b(5);
  CompactionSpec spec;
  spec.level = 1;
  spec.output_level = 2;
  spec.inputs[0] = {b.Add(1, "a", "z", 10)};
  b.Add(2, "m", "n", 10);  // the output level itself does not count
  b.Add(3, "c", "e", 10);
  b.Add(3, "g", "h", 10);
  b.Add(4, "p", "r", 10);
  Compaction c(b.view(), spec);
  EXPECT_TRUE(c.IsBaseLevelForKey("a"));
  EXPECT_FALSE(c.IsBaseLevelForKey("c"));
  EXPECT_FALSE(c.IsBaseLevelForKey("d"));
  EXPECT_FALSE(c.IsBaseLevelForKey("e"));
  EXPECT_TRUE(c.IsBaseLevelForKey("f"));
  EXPECT_FALSE(c.IsBaseLevelForKey("g"));
  EXPECT_TRUE(c.IsBaseLevelForKey("m"));
  EXPECT_FALSE(c.IsBaseLevelForKey("q"));
  EXPECT_TRUE(c.IsBaseLevelForKey("s"));
  // Order of the questions does not matter.
  EXPECT_FALSE(c.IsBaseLevelForKey("c"));

  // Output into the last level: nothing lies below.
  CompactionSpec last;
  last.level = 3;
  last.output_level = 4;
  last.inputs[0] = {b.view().files[3][0]};
  Compaction bottom(b.view(), last);
  EXPECT_TRUE(bottom.IsBaseLevelForKey("q"));
}

TEST(CompactionTest, TrivialMoveNeedsNoOutputFilesAndLittleGrandparentOverlap) {
  LevelFilesBuilder b(4);
  FileMetaData* f = b.Add(1, "a", "c", 10);
  FileMetaData* g = b.Add(1, "d", "e", 10);
  FileMetaData* l0a = b.Add(0, "m", "x", 10);
  FileMetaData* l0b = b.Add(0, "n", "p", 10);
  FileMetaData* out = b.Add(2, "a", "b", 10);
  FileMetaData* gp = b.Add(3, "a", "c", 100);

  CompactionSpec spec;
  spec.level = 1;
  spec.output_level = 2;
  spec.max_compaction_bytes = 100;
  spec.inputs[0] = {f};
  spec.grandparents = {gp};
  EXPECT_TRUE(Compaction(b.view(), spec).IsTrivialMove());

  spec.max_compaction_bytes = 99;
  EXPECT_FALSE(Compaction(b.view(), spec).IsTrivialMove());

  // A run of a sorted level's files moves together; L0's files may
  // overlap each other, so only one of them moves alone.
  spec.max_compaction_bytes = 100;
  spec.inputs[0] = {f, g};
  EXPECT_TRUE(Compaction(b.view(), spec).IsTrivialMove());
  CompactionSpec from_l0 = spec;
  from_l0.level = 0;
  from_l0.output_level = 1;
  from_l0.grandparents.clear();
  from_l0.inputs[0] = {l0a, l0b};
  EXPECT_FALSE(Compaction(b.view(), from_l0).IsTrivialMove());
  from_l0.inputs[0] = {l0b};
  EXPECT_TRUE(Compaction(b.view(), from_l0).IsTrivialMove());

  spec.rewrite = true;
  EXPECT_FALSE(Compaction(b.view(), spec).IsTrivialMove());
  spec.rewrite = false;

  spec.inputs[0] = {f};
  spec.inputs[1] = {out};
  EXPECT_FALSE(Compaction(b.view(), spec).IsTrivialMove());
}

TEST(CompactionTest, MarksReportsAndSummarizesInputs) {
  LevelFilesBuilder b(4);
  FileMetaData* f1 = b.Add(1, "b", "c", 100, 20, 21);
  FileMetaData* f2 = b.Add(1, "d", "f", 200, 22, 23);
  FileMetaData* o1 = b.Add(2, "a", "e", 400, 3, 4);
  FileMetaData* other = b.Add(2, "x", "y", 400);
  CompactionSpec spec;
  spec.level = 1;
  spec.output_level = 2;
  spec.inputs[0] = {f1, f2};
  spec.inputs[1] = {o1};
  spec.score = 1.5;
  Compaction c(b.view(), spec);

  EXPECT_EQ(700u, c.TotalInputBytes());
  InternalKey smallest, largest;
  c.GetRange(&smallest, &largest);
  EXPECT_EQ(IKey("a", 3), smallest.Encode().ToString());
  EXPECT_EQ(IKey("f", 23), largest.Encode().ToString());

  c.MarkFilesBeingCompacted(true);
  EXPECT_TRUE(f1->being_compacted);
  EXPECT_TRUE(f2->being_compacted);
  EXPECT_TRUE(o1->being_compacted);
  EXPECT_FALSE(other->being_compacted);
  c.MarkFilesBeingCompacted(false);
  EXPECT_FALSE(f1->being_compacted || f2->being_compacted ||
               o1->being_compacted);

  std::vector<CompactionInputFile> deletions = {{5, 99}};  // appended to
  c.AddInputDeletions(&deletions);
  ASSERT_EQ(4u, deletions.size());
  EXPECT_EQ(5, deletions[0].level);
  EXPECT_EQ(1, deletions[1].level);
  EXPECT_EQ(f1->number, deletions[1].number);
  EXPECT_EQ(1, deletions[2].level);
  EXPECT_EQ(f2->number, deletions[2].number);
  EXPECT_EQ(2, deletions[3].level);
  EXPECT_EQ(o1->number, deletions[3].number);

  const std::string summary = c.Summary();
  EXPECT_NE(std::string::npos, summary.find("L1 -> L2")) << summary;
  EXPECT_NE(std::string::npos, summary.find("1.50")) << summary;
  EXPECT_NE(std::string::npos, summary.find("700 bytes")) << summary;
  const std::string numbers = "[" + std::to_string(f1->number) + " " +
                              std::to_string(f2->number) + "] + [" +
                              std::to_string(o1->number) + "]";
  EXPECT_NE(std::string::npos, summary.find(numbers)) << summary;
}

}  // namespace
}  // namespace strata
