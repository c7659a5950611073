// Env::Default()'s pools at process exit on Windows (env_win.cc): where
// strata is part of the EXE, a job still running when main returns
// finishes before the process ends; in a DLL (strata_testing.dll in the
// shared build) ExitProcess ends the pool threads first, and the exit
// neither hangs nor fails.

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "gtest/gtest.h"
#include "port/module_ref.h"
#include "strata/env.h"
#include "test/util/subprocess.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

constexpr int kMarkerLines = 200;

// Shared by the child's job and its atexit handler; never destroyed, since
// the job may still use it while static objects are torn down.
struct ExitState {
  std::mutex mu;
  std::condition_variable cv;
  bool started = false;
  bool main_returned = false;
  std::string marker;
};

ExitState* state() {
  static ExitState* s = new ExitState;
  return s;
}

// Runs on a pool thread: waits until main has returned, then writes the
// marker a line at a time, reopening the file for each, so that a process
// ending while the job runs leaves it short.
void SlowJob(void*) {
  ExitState* s = state();
  {
    std::unique_lock<std::mutex> l(s->mu);
    s->started = true;
    s->cv.notify_all();
    s->cv.wait(l, [s] { return s->main_returned; });
  }
  for (int i = 0; i < kMarkerLines; i++) {
    std::FILE* f = std::fopen(s->marker.c_str(), "ab");
    if (f == nullptr) return;
    std::fprintf(f, "line %d\n", i);
    std::fclose(f);
  }
}

// Registered after Env::Default() registered its own handler, so it runs
// first (atexit handlers run last registered, first run).
void ReleaseJob() {
  ExitState* s = state();
  std::lock_guard<std::mutex> l(s->mu);
  s->main_returned = true;
  s->cv.notify_all();
}

STRATA_TEST_CHILD(ExitWhileJobRuns) {
  ExitState* s = state();
  s->marker = args.at(0);
  Env* env = Env::Default();
  if (std::atexit(&ReleaseJob) != 0) return 3;
  env->Schedule(&SlowJob, nullptr, Env::LOW);
  std::unique_lock<std::mutex> l(s->mu);
  s->cv.wait(l, [s] { return s->started; });
  return 0;  // main returns while the job runs
}

std::string Expected() {
  std::string lines;
  for (int i = 0; i < kMarkerLines; i++) {
    lines += "line " + std::to_string(i) + "\n";
  }
  return lines;
}

TEST(ExitJoinTest, JobRunningAtExit) {
  test::TempDir dir(Env::Default(), "exit_join");
  const std::string marker = dir.File("marker");
  EXPECT_EQ(0, test::RunChild("ExitWhileJobRuns", {marker}));
  std::string written;
  Status s = ReadFileToString(Env::Default(), marker, &written);
  if (port::CodeInMainExecutable()) {
    // The exit waited for the job.
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(Expected(), written);
  } else {
    // strata_testing.dll: the thread was ended by ExitProcess, most likely
    // before it wrote anything; the exit code above is what is promised.
    EXPECT_LE(written.size(), Expected().size());
  }
}

}  // namespace
}  // namespace strata
