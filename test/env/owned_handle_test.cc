// OwnedHandle, the owner of one OS handle behind ScopedFd and ScopedHandle:
// exactly one close per handle owned, none for a released or empty one,
// and Close reporting what the OS said.

#include "env/owned_handle.h"

#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

// Handles are ints; -1 and -2 both mean "none" (as Win32 has two such
// values). Every close is recorded; handle 13 fails to close.
struct FakeTraits {
  using Handle = int;
  static std::vector<int>* closed;
  static int Invalid() { return -1; }
  static bool IsValid(int h) { return h >= 0; }
  static bool Close(int h) {
    closed->push_back(h);
    return h != 13;
  }
};
std::vector<int>* FakeTraits::closed = nullptr;

using FakeHandle = OwnedHandle<FakeTraits>;

class OwnedHandleTest : public testing::Test {
 protected:
  OwnedHandleTest() { FakeTraits::closed = &closed_; }
  ~OwnedHandleTest() override { FakeTraits::closed = nullptr; }

  std::vector<int> closed_;
};

TEST_F(OwnedHandleTest, DestructorClosesOnce) {
  { FakeHandle h(3); }
  EXPECT_EQ(std::vector<int>({3}), closed_);
}

TEST_F(OwnedHandleTest, NoneIsNeverClosed) {
  {
    FakeHandle empty;
    FakeHandle minus_two(-2);
    EXPECT_FALSE(empty.is_valid());
    EXPECT_FALSE(minus_two.is_valid());
    EXPECT_TRUE(empty.Close());
  }
  EXPECT_TRUE(closed_.empty());
}

TEST_F(OwnedHandleTest, ReleaseGivesUpOwnership) {
  {
    FakeHandle h(4);
    EXPECT_EQ(4, h.Release());
    EXPECT_FALSE(h.is_valid());
    EXPECT_EQ(-1, h.get());
  }
  EXPECT_TRUE(closed_.empty());
}

TEST_F(OwnedHandleTest, CloseReportsTheOutcomeAndOwnsNothingAfter) {
  FakeHandle good(5);
  EXPECT_TRUE(good.Close());
  EXPECT_FALSE(good.is_valid());
  FakeHandle bad(13);
  EXPECT_FALSE(bad.Close());
  EXPECT_FALSE(bad.is_valid());
  // Closed once each, whatever the outcome; a second Close does nothing.
  EXPECT_TRUE(bad.Close());
  EXPECT_EQ(std::vector<int>({5, 13}), closed_);
}

TEST_F(OwnedHandleTest, MovesTransferOwnership) {
  {
    FakeHandle a(6);
    FakeHandle b(std::move(a));
    EXPECT_FALSE(a.is_valid());
    EXPECT_EQ(6, b.get());
    FakeHandle c(7);
    c = std::move(b);  // 7 is closed, c now owns 6
    EXPECT_EQ(std::vector<int>({7}), closed_);
    EXPECT_EQ(6, c.get());
  }
  EXPECT_EQ(std::vector<int>({7, 6}), closed_);
}

TEST_F(OwnedHandleTest, ResetClosesTheOldHandle) {
  FakeHandle h(8);
  h.Reset(9);
  EXPECT_EQ(std::vector<int>({8}), closed_);
  h.Reset();
  EXPECT_EQ(std::vector<int>({8, 9}), closed_);
  EXPECT_FALSE(h.is_valid());
}

}  // namespace
}  // namespace strata
