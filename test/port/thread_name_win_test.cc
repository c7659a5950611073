// Thread names on Windows: port::SetCurrentThreadName goes through
// SetThreadDescription (looked up in KernelBase.dll, then kernel32.dll) and
// is read back with GetThreadDescription, found the same way. Wine 8 has
// both, so the names must round-trip here.

#include <future>
#include <string>
#include <thread>

#include "env/thread_pool.h"
#include "gtest/gtest.h"
#include "port/port.h"

namespace strata {
namespace {

TEST(ThreadNameTest, NameIsReadBack) {
  bool found = false;
  std::string name;
  std::thread t([&] {
    port::SetCurrentThreadName("strata:t\xc3\xa9st");  // UTF-8 "tést"
    found = port::GetCurrentThreadName(&name);
  });
  t.join();
  ASSERT_TRUE(found) << "no GetThreadDescription on this system";
  EXPECT_EQ("strata:t\xc3\xa9st", name);
}

TEST(ThreadNameTest, PoolThreadsAreNamed) {
  // The job reports its thread's name, or "" if it could not be read.
  std::promise<std::string> seen;
  ThreadPool pool("named", 1);
  pool.Schedule(
      [](void* arg) {
        std::string name;
        if (!port::GetCurrentThreadName(&name)) name.clear();
        static_cast<std::promise<std::string>*>(arg)->set_value(name);
      },
      &seen, nullptr, nullptr);
  EXPECT_EQ("strata:named0", seen.get_future().get());
}

}  // namespace
}  // namespace strata
