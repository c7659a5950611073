// Cleanable (each cleanup exactly once, newest first, through Reset,
// destruction, delegation and moves).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "strata/cleanable.h"

namespace strata {
namespace {

// Cleanups that record what ran: Append adds the tag *arg2 to the string
// *arg1, so both the order and the number of runs show.
void Append(void* log, void* tag) {
  static_cast<std::string*>(log)->push_back(*static_cast<char*>(tag));
}

// Adds one to the int *arg1.
void Count(void* counter, void*) { ++*static_cast<int*>(counter); }

class Recorder {
 public:
  // Registers the cleanup that appends `tag` to log().
  void Add(Cleanable* c, char tag) {
    tags_.push_back(std::make_unique<char>(tag));
    c->RegisterCleanup(&Append, &log_, tags_.back().get());
  }
  const std::string& log() const { return log_; }

 private:
  std::string log_;
  std::vector<std::unique_ptr<char>> tags_;
};

TEST(CleanableTest, DestructionRunsEachCleanupOnceNewestFirst) {
  Recorder r;
  {
    Cleanable c;
    EXPECT_FALSE(c.HasCleanups());
    r.Add(&c, 'a');
    EXPECT_TRUE(c.HasCleanups());
    r.Add(&c, 'b');
    r.Add(&c, 'c');
    EXPECT_EQ("", r.log());
  }
  EXPECT_EQ("cba", r.log());
}

TEST(CleanableTest, ResetRunsThenTheObjectIsReusable) {
  Recorder r;
  {
    Cleanable c;
    r.Add(&c, 'a');
    r.Add(&c, 'b');
    c.Reset();
    EXPECT_EQ("ba", r.log());
    EXPECT_FALSE(c.HasCleanups());
    c.Reset();  // Nothing left to run.
    EXPECT_EQ("ba", r.log());
    r.Add(&c, 'c');
    r.Add(&c, 'd');
    c.Reset();
    EXPECT_EQ("badc", r.log());
    r.Add(&c, 'e');
  }
  EXPECT_EQ("badce", r.log());
}

TEST(CleanableTest, NullFunctionIsIgnored) {
  Cleanable c;
  c.RegisterCleanup(nullptr, nullptr, nullptr);
  EXPECT_FALSE(c.HasCleanups());
  int count = 0;
  c.RegisterCleanup(&Count, &count, nullptr);
  c.RegisterCleanup(nullptr, nullptr, nullptr);
  c.Reset();
  EXPECT_EQ(1, count);
}

TEST(CleanableTest, ManyCleanupsEachRunOnce) {
  std::vector<int> counts(100, 0);
  {
    Cleanable c;
    for (int& n : counts) c.RegisterCleanup(&Count, &n, nullptr);
  }
  for (int n : counts) EXPECT_EQ(1, n);
}

TEST(CleanableTest, DelegateMovesEveryCleanup) {
  Recorder r;
  Cleanable target;
  {
    Cleanable source;
    r.Add(&source, 'a');
    r.Add(&source, 'b');
    r.Add(&source, 'c');
    source.DelegateCleanupsTo(&target);
    EXPECT_FALSE(source.HasCleanups());
    EXPECT_TRUE(target.HasCleanups());
  }
  EXPECT_EQ("", r.log());  // The source's destruction ran nothing.
  target.Reset();
  EXPECT_EQ("cba", r.log());
}

TEST(CleanableTest, DelegatedCleanupsRunBeforeTheTargetsOwn) {
  for (int source_count = 1; source_count <= 3; source_count++) {
    SCOPED_TRACE(source_count);
    Recorder r;
    Cleanable target;
    r.Add(&target, 'x');
    r.Add(&target, 'y');
    {
      Cleanable source;
      for (int i = 0; i < source_count; i++) {
        r.Add(&source, static_cast<char>('a' + i));
      }
      source.DelegateCleanupsTo(&target);
      EXPECT_FALSE(source.HasCleanups());
    }
    EXPECT_EQ("", r.log());
    target.Reset();
    const std::string expected[] = {"ayx", "bayx", "cbayx"};
    EXPECT_EQ(expected[source_count - 1], r.log());
  }
}

TEST(CleanableTest, DelegateToNullOrSelfKeepsTheCleanups) {
  int count = 0;
  Cleanable c;
  c.RegisterCleanup(&Count, &count, nullptr);
  c.RegisterCleanup(&Count, &count, nullptr);
  c.DelegateCleanupsTo(nullptr);
  c.DelegateCleanupsTo(&c);
  EXPECT_TRUE(c.HasCleanups());
  EXPECT_EQ(0, count);
  c.Reset();
  EXPECT_EQ(2, count);
}

TEST(CleanableTest, MoveConstructionTransfers) {
  Recorder r;
  Cleanable source;
  r.Add(&source, 'a');
  r.Add(&source, 'b');
  {
    Cleanable moved(std::move(source));
    EXPECT_FALSE(source.HasCleanups());
    EXPECT_TRUE(moved.HasCleanups());
    source.Reset();
    EXPECT_EQ("", r.log());
  }
  EXPECT_EQ("ba", r.log());
}

TEST(CleanableTest, MoveAssignmentRunsTheTargetsOwnFirst) {
  Recorder r;
  Cleanable target;
  r.Add(&target, 'x');
  r.Add(&target, 'y');
  {
    Cleanable source;
    r.Add(&source, 'a');
    r.Add(&source, 'b');
    target = std::move(source);
    EXPECT_EQ("yx", r.log());
    EXPECT_FALSE(source.HasCleanups());
  }
  EXPECT_EQ("yx", r.log());
  target.Reset();
  EXPECT_EQ("yxba", r.log());
}

TEST(CleanableTest, SelfMoveAssignmentKeepsTheCleanups) {
  int count = 0;
  Cleanable c;
  c.RegisterCleanup(&Count, &count, nullptr);
  Cleanable& alias = c;
  c = std::move(alias);
  EXPECT_EQ(0, count);
  EXPECT_TRUE(c.HasCleanups());
  c.Reset();
  EXPECT_EQ(1, count);
}

// A cleanup that registers another cleanup on the Cleanable running it.
struct Reregister {
  Cleanable* owner = nullptr;
  int runs = 0;
  int later_runs = 0;
  static void Run(void* arg, void*) {
    auto* self = static_cast<Reregister*>(arg);
    self->runs++;
    self->owner->RegisterCleanup(&Count, &self->later_runs, nullptr);
  }
};

TEST(CleanableTest, CleanupRegisteredWhileRunningWaitsForTheNextReset) {
  Cleanable c;
  Reregister re;
  re.owner = &c;
  c.RegisterCleanup(&Reregister::Run, &re, nullptr);
  c.Reset();
  EXPECT_EQ(1, re.runs);
  EXPECT_EQ(0, re.later_runs);
  EXPECT_TRUE(c.HasCleanups());
  c.Reset();
  EXPECT_EQ(1, re.runs);
  EXPECT_EQ(1, re.later_runs);
}

}  // namespace
}  // namespace strata
