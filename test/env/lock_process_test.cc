// The DB lock against other processes: held while another process has it,
// released when that process is killed (SIGKILL / TerminateProcess), not
// only when it unlocks.

#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/subprocess.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// Exit codes of the child routines.
constexpr int kLockHeldByAnother = 0;
constexpr int kGotTheLock = 1;
constexpr int kOtherError = 2;

// args[0]: the lock file. Tries once.
STRATA_TEST_CHILD(TryLock) {
  FileLock* lock = nullptr;
  Status s = Env::Default()->LockFile(args.at(0), &lock);
  if (s.ok()) {
    Env::Default()->UnlockFile(lock);
    return kGotTheLock;
  }
  const std::string msg = s.ToString();
  return s.IsLockHeld() && s.IsIOError() &&
                 msg.find("lock held by another process") !=
                     std::string::npos &&
                 msg.find(args.at(0)) != std::string::npos
             ? kLockHeldByAnother
             : kOtherError;
}

// args[0]: the lock file, args[1]: a marker file written once it is held.
// Holds the lock until killed.
STRATA_TEST_CHILD(HoldLock) {
  Env* env = Env::Default();
  FileLock* lock = nullptr;
  if (!env->LockFile(args.at(0), &lock).ok()) return kOtherError;
  if (!WriteStringToFile(env, "held", args.at(1), true).ok())
    return kOtherError;
  for (;;) env->SleepForMicroseconds(100000);
}

TEST(LockProcessTest, LockHeldBySecondProcessIsRefusedClearly) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  const std::string name = dir.File("LOCK");
  FileLock* lock = nullptr;
  ASSERT_TRUE(env->LockFile(name, &lock).ok());
  // Opening and closing the file again in this process keeps the lock.
  std::string contents;
  ASSERT_TRUE(ReadFileToString(env, name, &contents).ok());
  EXPECT_EQ(kLockHeldByAnother, test::RunChild("TryLock", {name}));
  ASSERT_TRUE(env->UnlockFile(lock).ok());
  EXPECT_EQ(kGotTheLock, test::RunChild("TryLock", {name}));
}

TEST(LockProcessTest, KilledHolderReleasesTheLock) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  const std::string name = dir.File("LOCK");
  const std::string marker = dir.File("held");
  std::unique_ptr<test::Subprocess> child;
  ASSERT_TRUE(test::Subprocess::Start("HoldLock", {name, marker}, &child).ok());
  for (int i = 0; i < 3000 && !env->FileExists(marker).ok(); i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(env->FileExists(marker).ok()) << "the child never took the lock";

  FileLock* lock = nullptr;
  Status s = env->LockFile(name, &lock);
  EXPECT_TRUE(s.IsLockHeld()) << s.ToString();

  child->Kill();  // no unlock, no exit handlers: as a crash
  EXPECT_EQ(-1, child->Wait());
  // The OS releases a dead process's locks, on Windows after a delay that
  // "depends upon available system resources": allow it some seconds.
  for (int i = 0; i < 1000; i++) {
    s = env->LockFile(name, &lock);
    if (!s.IsLockHeld()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(env->UnlockFile(lock).ok());
}

}  // namespace
}  // namespace strata
