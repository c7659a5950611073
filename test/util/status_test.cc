#include "strata/status.h"

#include <utility>

#include "gtest/gtest.h"
#include "strata/io_status.h"

namespace strata {
namespace {

TEST(StatusTest, OkIsDefaultAndCheap) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(Status::kOk, s.code());
  EXPECT_EQ("OK", s.ToString());
  EXPECT_STREQ("", s.getState());
}

TEST(StatusTest, EachCodeHasItsPredicate) {
  struct Case {
    Status s;
    bool (Status::*pred)() const;
    const char* prefix;
  };
  const Case cases[] = {
      {Status::NotFound("m"), &Status::IsNotFound, "NotFound: m"},
      {Status::Corruption("m"), &Status::IsCorruption, "Corruption: m"},
      {Status::NotSupported("m"), &Status::IsNotSupported,
       "Not implemented: m"},
      {Status::InvalidArgument("m"), &Status::IsInvalidArgument,
       "Invalid argument: m"},
      {Status::IOError("m"), &Status::IsIOError, "IO error: m"},
      {Status::Incomplete("m"), &Status::IsIncomplete, "Result incomplete: m"},
      {Status::TimedOut("m"), &Status::IsTimedOut, "Operation timed out: m"},
      {Status::Busy("m"), &Status::IsBusy, "Resource busy: m"},
      {Status::Aborted("m"), &Status::IsAborted, "Operation aborted: m"},
  };
  for (const Case& c : cases) {
    EXPECT_FALSE(c.s.ok());
    EXPECT_TRUE((c.s.*c.pred)()) << c.s.ToString();
    EXPECT_EQ(c.prefix, c.s.ToString());
    // No other predicate claims it.
    int claimed = c.s.IsNotFound() + c.s.IsCorruption() + c.s.IsNotSupported() +
                  c.s.IsInvalidArgument() + c.s.IsIOError() +
                  c.s.IsIncomplete() + c.s.IsTimedOut() + c.s.IsBusy() +
                  c.s.IsAborted();
    EXPECT_EQ(1, claimed) << c.s.ToString();
  }
}

TEST(StatusTest, SubcodesKeepTheirCodePredicate) {
  Status no_space = Status::NoSpace("/db/000001.log", "append");
  EXPECT_TRUE(no_space.IsIOError());
  EXPECT_TRUE(no_space.IsNoSpace());
  EXPECT_FALSE(no_space.IsPathNotFound());
  EXPECT_EQ("IO error: No space left on device: /db/000001.log: append",
            no_space.ToString());

  Status missing = Status::PathNotFound("/db/CURRENT", "open");
  EXPECT_TRUE(missing.IsNotFound());
  EXPECT_TRUE(missing.IsPathNotFound());
  EXPECT_FALSE(missing.IsIOError());

  Status held = Status::LockHeld("/db/LOCK");
  EXPECT_TRUE(held.IsIOError());
  EXPECT_TRUE(held.IsBusy());
  EXPECT_TRUE(held.IsLockHeld());
  EXPECT_FALSE(held.IsNoSpace());
  EXPECT_EQ("IO error: Lock held: /db/LOCK", held.ToString());
  EXPECT_FALSE(Status::Busy("x").IsLockHeld());

  EXPECT_FALSE(Status::IOError("x").IsNoSpace());
  EXPECT_FALSE(Status::NotFound("x").IsPathNotFound());
}

// The transaction sub-codes read as RocksDB prints them, each under its
// own code's predicate.
TEST(StatusTest, TransactionSubcodes) {
  Status timeout = Status::TimedOut(Status::kLockTimeout);
  EXPECT_TRUE(timeout.IsTimedOut());
  EXPECT_EQ(Status::kLockTimeout, timeout.subcode());
  EXPECT_EQ("Operation timed out: Timeout waiting to lock key",
            timeout.ToString());

  Status deadlock = Status::Busy(Status::kDeadlock);
  EXPECT_TRUE(deadlock.IsBusy());
  EXPECT_TRUE(deadlock.IsDeadlock());
  EXPECT_EQ("Resource busy: Deadlock", deadlock.ToString());
  EXPECT_FALSE(Status::Busy().IsDeadlock());
  EXPECT_FALSE(Status::TimedOut(Status::kDeadlock).IsDeadlock());

  Status limit = Status::Aborted(Status::kLockLimit, "key k");
  EXPECT_TRUE(limit.IsLockLimit());
  EXPECT_EQ(
      "Operation aborted: Failed to acquire lock due to max_num_locks limit: "
      "key k",
      limit.ToString());
  EXPECT_FALSE(Status::Busy(Status::kLockLimit).IsLockLimit());
  EXPECT_EQ("Operation failed. Try again.", Status::TryAgain().ToString());
  EXPECT_EQ(Status::kNone, Status::Expired().subcode());
}

TEST(StatusTest, TwoPartMessage) {
  EXPECT_EQ("Corruption: file 7: bad block",
            Status::Corruption("file 7", "bad block").ToString());
  EXPECT_EQ("Corruption: only second",
            Status::Corruption(Slice(), "only second").ToString());
  EXPECT_EQ("NotFound", Status::NotFound().ToString());
  EXPECT_STREQ("a: b", Status::IOError("a", "b").getState());
}

TEST(StatusTest, CopyAndMoveKeepEverything) {
  Status a = Status::NoSpace("disk", "full");
  Status b(a);
  EXPECT_EQ(a.ToString(), b.ToString());
  EXPECT_TRUE(b.IsNoSpace());
  Status c;
  c = b;
  EXPECT_EQ(a.ToString(), c.ToString());
  const Status& same = c;  // through a reference: clang warns on c = c
  c = same;                // self-assignment leaves it intact
  EXPECT_EQ(a.ToString(), c.ToString());
  Status d(std::move(c));
  EXPECT_EQ(a.ToString(), d.ToString());
  Status e;
  e = std::move(d);
  EXPECT_EQ(a.ToString(), e.ToString());
  e = Status::OK();
  EXPECT_TRUE(e.ok());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, Status::IOError("disk"));
}

// Severity and the retryable mark travel with copies and moves, through
// Status and back to IOStatus; equality ignores them, as RocksDB's.
TEST(StatusTest, SeverityAndRetryableMarkTravel) {
  IOStatus io = IOStatus::IOError("net", "reconnecting");
  EXPECT_FALSE(io.GetRetryable());
  io.SetRetryable(true);
  Status marked = io;
  const Status graded(marked, Status::kHardError);
  EXPECT_EQ(Status::kNoError, marked.severity());
  EXPECT_EQ(Status::kHardError, graded.severity());
  EXPECT_EQ(marked.ToString(), graded.ToString());
  Status copy;
  copy = graded;
  Status moved(std::move(copy));
  EXPECT_EQ(Status::kHardError, moved.severity());
  EXPECT_TRUE(status_to_io_status(std::move(moved)).GetRetryable());
  EXPECT_FALSE(status_to_io_status(Status::IOError("x")).GetRetryable());
  EXPECT_EQ(Status::IOError("other"), graded);
  Status reset = graded;
  reset = Status::NotFound();
  EXPECT_EQ(Status::kNoError, reset.severity());
  EXPECT_FALSE(status_to_io_status(std::move(reset)).GetRetryable());
  EXPECT_TRUE(IOStatus::NoSpace().IsNoSpace());
  EXPECT_TRUE(IOStatus::OK().ok());
}

}  // namespace
}  // namespace strata
