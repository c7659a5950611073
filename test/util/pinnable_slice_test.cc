// Cleanable (each cleanup exactly once, newest first, through Reset,
// destruction, delegation and moves) and PinnableSlice (pinned and
// self-buffered values, moves, re-pinning, prefix and suffix removal).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "strata/cleanable.h"
#include "strata/slice.h"

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

// ---- PinnableSlice ----------------------------------------------------------

TEST(PinnableSliceTest, StartsEmptyAndSelfBuffered) {
  PinnableSlice ps;
  EXPECT_FALSE(ps.IsPinned());
  EXPECT_FALSE(ps.HasCleanups());
  EXPECT_EQ(0u, ps.size());
  EXPECT_NE(nullptr, ps.GetSelf());
  EXPECT_TRUE(ps.GetSelf()->empty());
}

TEST(PinnableSliceTest, PinViewsTheBytesWithoutCopying) {
  const std::string backing = "pinned value";
  int released = 0;
  {
    PinnableSlice ps;
    ps.PinSlice(backing, &Count, &released, nullptr);
    EXPECT_TRUE(ps.IsPinned());
    EXPECT_EQ(backing.data(), ps.data());
    EXPECT_EQ(backing, ps.ToString());
    EXPECT_TRUE(ps.GetSelf()->empty());
    EXPECT_EQ(0, released);
  }
  EXPECT_EQ(1, released);
}

TEST(PinnableSliceTest, ResetReleasesOnceThenReuse) {
  const std::string backing = "first";
  int released = 0;
  PinnableSlice ps;
  ps.PinSlice(backing, &Count, &released, nullptr);
  ps.Reset();
  EXPECT_EQ(1, released);
  EXPECT_FALSE(ps.IsPinned());
  EXPECT_EQ(0u, ps.size());
  ps.Reset();
  EXPECT_EQ(1, released);

  ps.PinSelf("second");
  EXPECT_FALSE(ps.IsPinned());
  EXPECT_EQ("second", ps.ToString());
  EXPECT_EQ(ps.GetSelf()->data(), ps.data());
  ps.Reset();
  EXPECT_EQ(0u, ps.size());
  EXPECT_EQ(1, released);

  int released_again = 0;
  ps.PinSlice(backing, &Count, &released_again, nullptr);
  EXPECT_EQ(backing.data(), ps.data());
  ps.Reset();
  EXPECT_EQ(1, released_again);
  EXPECT_EQ(1, released);
}

TEST(PinnableSliceTest, PinWithCleanableTakesItsCleanups) {
  const std::string backing = "block contents";
  int released = 0;
  PinnableSlice ps;
  {
    Cleanable holder;
    holder.RegisterCleanup(&Count, &released, nullptr);
    holder.RegisterCleanup(&Count, &released, nullptr);
    ps.PinSlice(Slice(backing.data() + 6, 8), &holder);
    EXPECT_FALSE(holder.HasCleanups());
  }
  EXPECT_EQ(0, released);
  EXPECT_TRUE(ps.IsPinned());
  EXPECT_EQ("contents", ps.ToString());
  ps.Reset();
  EXPECT_EQ(2, released);

  ps.PinSlice(backing, nullptr);  // Pinned memory with nothing to release.
  EXPECT_TRUE(ps.IsPinned());
  EXPECT_FALSE(ps.HasCleanups());
  EXPECT_EQ(backing.data(), ps.data());
}

// What a pin's cleanup saw when it ran.
struct ReleaseProbe {
  PinnableSlice* ps = nullptr;
  std::string* memory = nullptr;  // Scribbled over on release.
  std::string view_at_release;
  int runs = 0;
  static void Release(void* arg, void*) {
    auto* self = static_cast<ReleaseProbe*>(arg);
    self->runs++;
    self->view_at_release = self->ps->ToString();
    if (self->memory != nullptr) {
      self->memory->assign(self->memory->size(), 'X');
    }
  }
};

TEST(PinnableSliceTest, RepinReleasesThePreviousPinAfterTheNewView) {
  std::string first = "first";
  const std::string second = "second";
  PinnableSlice ps;
  ReleaseProbe probe;
  probe.ps = &ps;
  ps.PinSlice(first, &ReleaseProbe::Release, &probe, nullptr);
  int second_released = 0;
  ps.PinSlice(second, &Count, &second_released, nullptr);
  EXPECT_EQ(1, probe.runs);
  EXPECT_EQ("second", probe.view_at_release);
  EXPECT_EQ(second.data(), ps.data());
  EXPECT_EQ(0, second_released);
  ps.Reset();
  EXPECT_EQ(1, probe.runs);
  EXPECT_EQ(1, second_released);
}

TEST(PinnableSliceTest, RepinWithCleanableReleasesThePreviousPin) {
  const std::string first = "first";
  const std::string second = "second";
  int first_released = 0;
  int second_released = 0;
  PinnableSlice ps;
  ps.PinSlice(first, &Count, &first_released, nullptr);
  Cleanable holder;
  holder.RegisterCleanup(&Count, &second_released, nullptr);
  ps.PinSlice(second, &holder);
  EXPECT_EQ(1, first_released);
  EXPECT_EQ(0, second_released);
  EXPECT_EQ(second.data(), ps.data());
  ps.PinSlice(Slice(second.data(), 3), &ps);  // Keeps its own cleanups.
  EXPECT_EQ(0, second_released);
  EXPECT_EQ("sec", ps.ToString());
  ps.Reset();
  EXPECT_EQ(1, first_released);
  EXPECT_EQ(1, second_released);
}

TEST(PinnableSliceTest, PinSelfOfPinnedBytesCopiesBeforeReleasing) {
  std::string memory = "cached value";
  PinnableSlice ps;
  ReleaseProbe probe;
  probe.ps = &ps;
  probe.memory = &memory;
  ps.PinSlice(memory, &ReleaseProbe::Release, &probe, nullptr);
  ps.PinSelf(ps);  // The source is the memory the pin holds.
  EXPECT_EQ(1, probe.runs);
  EXPECT_EQ("XXXXXXXXXXXX", memory);
  EXPECT_FALSE(ps.IsPinned());
  EXPECT_FALSE(ps.HasCleanups());
  EXPECT_EQ("cached value", ps.ToString());
  EXPECT_EQ(ps.GetSelf()->data(), ps.data());
}

TEST(PinnableSliceTest, PinSelfIntoTheCallersString) {
  std::string value;
  {
    PinnableSlice ps(&value);
    EXPECT_EQ(&value, ps.GetSelf());
    ps.PinSelf("stored in the caller's string");
    EXPECT_FALSE(ps.IsPinned());
    EXPECT_EQ(value.data(), ps.data());
    EXPECT_EQ(value.size(), ps.size());

    // Filled directly, then viewed.
    ps.GetSelf()->assign("filled directly");
    ps.PinSelf();
    EXPECT_EQ(value.data(), ps.data());
    EXPECT_EQ("filled directly", ps.ToString());
  }
  EXPECT_EQ("filled directly", value);  // Outlives the PinnableSlice.
}

// Short values live inside the std::string object; long ones on the heap.
// Both must end up viewed in the destination's own buffer.
const char* const kSelfValues[] = {"short",
                                   "a value long enough to live on "
                                   "the heap, not inside the string"};

TEST(PinnableSliceTest, MoveConstructSelfBuffered) {
  for (const char* v : kSelfValues) {
    SCOPED_TRACE(v);
    auto source = std::make_unique<PinnableSlice>();
    source->PinSelf(v);
    PinnableSlice moved(std::move(*source));
    EXPECT_FALSE(moved.IsPinned());
    EXPECT_EQ(moved.GetSelf()->data(), moved.data());
    EXPECT_EQ(v, moved.ToString());
    EXPECT_FALSE(source->IsPinned());
    EXPECT_EQ(0u, source->size());
    EXPECT_TRUE(source->GetSelf()->empty());
    source.reset();  // Destroying the source leaves the value intact.
    EXPECT_EQ(v, moved.ToString());
    moved.remove_prefix(1);  // Still works on its own buffer.
    EXPECT_EQ(std::string(v + 1), moved.ToString());
    EXPECT_EQ(moved.GetSelf()->data(), moved.data());
  }
}

TEST(PinnableSliceTest, MoveAssignSelfBufferedOverPinned) {
  for (const char* v : kSelfValues) {
    SCOPED_TRACE(v);
    const std::string backing = "pinned";
    int released = 0;
    PinnableSlice target;
    target.PinSlice(backing, &Count, &released, nullptr);
    auto source = std::make_unique<PinnableSlice>();
    source->PinSelf(v);
    target = std::move(*source);
    EXPECT_EQ(1, released);  // The target's own pin was released.
    EXPECT_FALSE(target.IsPinned());
    EXPECT_FALSE(target.HasCleanups());
    EXPECT_EQ(target.GetSelf()->data(), target.data());
    EXPECT_EQ(v, target.ToString());
    EXPECT_EQ(0u, source->size());
    source.reset();
    EXPECT_EQ(v, target.ToString());
  }
}

TEST(PinnableSliceTest, MovePinnedTransfersTheCleanups) {
  const std::string backing = "pinned bytes";
  int released = 0;
  auto source = std::make_unique<PinnableSlice>();
  source->PinSlice(backing, &Count, &released, nullptr);
  PinnableSlice moved(std::move(*source));
  EXPECT_TRUE(moved.IsPinned());
  EXPECT_EQ(backing.data(), moved.data());
  EXPECT_EQ(backing.size(), moved.size());
  EXPECT_FALSE(source->IsPinned());
  EXPECT_FALSE(source->HasCleanups());
  EXPECT_EQ(0u, source->size());
  source.reset();
  EXPECT_EQ(0, released);

  int target_released = 0;
  PinnableSlice target;
  target.PinSlice(backing, &Count, &target_released, nullptr);
  target = std::move(moved);
  EXPECT_EQ(1, target_released);
  EXPECT_EQ(0, released);
  EXPECT_TRUE(target.IsPinned());
  EXPECT_EQ(backing.data(), target.data());
  EXPECT_FALSE(moved.HasCleanups());
  target.Reset();
  EXPECT_EQ(1, released);
  EXPECT_EQ(1, target_released);
}

TEST(PinnableSliceTest, MoveKeepsTheCallersBuffer) {
  std::string value;
  auto source = std::make_unique<PinnableSlice>(&value);
  source->PinSelf("in the caller's string");
  PinnableSlice moved(std::move(*source));
  EXPECT_EQ(&value, moved.GetSelf());
  EXPECT_EQ(value.data(), moved.data());
  EXPECT_NE(&value, source->GetSelf());
  source.reset();
  EXPECT_EQ("in the caller's string", value);
  moved.PinSelf("replaced");
  EXPECT_EQ("replaced", value);
}

TEST(PinnableSliceTest, SelfMoveAssignmentKeepsTheValue) {
  PinnableSlice ps;
  ps.PinSelf("value");
  PinnableSlice& alias = ps;
  ps = std::move(alias);
  EXPECT_EQ("value", ps.ToString());
  EXPECT_EQ(ps.GetSelf()->data(), ps.data());
}

TEST(PinnableSliceTest, RemovePrefixAndSuffixPinned) {
  const std::string backing = "[pinned]";
  int released = 0;
  PinnableSlice ps;
  std::string* self = ps.GetSelf();
  self->assign("untouched");
  ps.PinSlice(backing, &Count, &released, nullptr);
  ps.remove_prefix(1);
  ps.remove_suffix(1);
  EXPECT_EQ("pinned", ps.ToString());
  EXPECT_EQ(backing.data() + 1, ps.data());
  EXPECT_EQ("untouched", *self);
  EXPECT_EQ("[pinned]", backing);
  ps.remove_prefix(0);
  ps.remove_suffix(0);
  EXPECT_EQ("pinned", ps.ToString());
  EXPECT_TRUE(ps.IsPinned());
  EXPECT_EQ(0, released);
}

TEST(PinnableSliceTest, RemovePrefixAndSuffixSelfBuffered) {
  std::string value;
  PinnableSlice ps(&value);
  ps.PinSelf("[buffered]");
  ps.remove_prefix(1);
  EXPECT_EQ("buffered]", ps.ToString());
  EXPECT_EQ("buffered]", value);
  ps.remove_suffix(1);
  EXPECT_EQ("buffered", ps.ToString());
  EXPECT_EQ("buffered", value);
  EXPECT_EQ(value.data(), ps.data());
  ps.remove_prefix(ps.size());
  EXPECT_EQ(0u, ps.size());
  EXPECT_EQ("", value);
}

TEST(PinnableSliceTest, ResetKeepsTheBufferButEmptiesTheView) {
  std::string value;
  PinnableSlice ps(&value);
  ps.PinSelf("kept");
  ps.Reset();
  EXPECT_EQ(0u, ps.size());
  EXPECT_EQ("kept", value);
  // Neither brings the old bytes back into view nor changes the buffer.
  ps.remove_prefix(0);
  ps.remove_suffix(0);
  EXPECT_EQ(0u, ps.size());
  EXPECT_EQ("kept", value);
}

}  // namespace
}  // namespace strata
