// Shared by the crash tests: a writable file that ends the process at a
// chosen point (as a kill would: nothing more reaches the disk), and an
// Env whose background jobs know which pool runs them, so a file can tell
// whether a flush (HIGH) or a compaction (LOW) is writing it.

#ifndef STRATA_TEST_DB_CRASH_TEST_UTIL_H_
#define STRATA_TEST_DB_CRASH_TEST_UTIL_H_

#include <cstdlib>
#include <functional>
#include <memory>
#include <utility>

#include "strata/env.h"

namespace strata {
namespace test {

// The exit code of a child that ended itself on purpose.
constexpr int kDiedOnPurpose = 9;

// The pool of the background job running on this thread (TOTAL: none).
inline thread_local Env::Priority g_job_pool = Env::TOTAL;

// Ends the process at its first Sync, or at its first Append when
// at_append; die_now (if set) is asked first and may say "not yet".
class DyingFile : public WritableFile {
 public:
  DyingFile(std::unique_ptr<WritableFile> target, bool at_append,
            std::function<bool()> die_now = nullptr)
      : target_(std::move(target)),
        at_append_(at_append),
        die_now_(std::move(die_now)) {}
  Status Append(const Slice& data) override {
    if (at_append_) MaybeDie();
    return target_->Append(data);
  }
  Status PositionedAppend(const Slice& data, uint64_t offset) override {
    if (at_append_) MaybeDie();
    return target_->PositionedAppend(data, offset);
  }
  Status Truncate(uint64_t size) override { return target_->Truncate(size); }
  Status Close() override { return target_->Close(); }
  Status Flush() override { return target_->Flush(); }
  Status Sync() override {
    if (!at_append_) MaybeDie();
    return target_->Sync();
  }
  Status Fsync() override {
    if (!at_append_) MaybeDie();
    return target_->Fsync();
  }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  uint64_t GetFileSize() override { return target_->GetFileSize(); }

 private:
  void MaybeDie() {
    if (die_now_ == nullptr || die_now_()) std::_Exit(kDiedOnPurpose);
  }

  std::unique_ptr<WritableFile> target_;
  const bool at_append_;
  const std::function<bool()> die_now_;
};

// Runs every scheduled job with g_job_pool set to its pool.
class JobPoolEnv : public EnvWrapper {
 public:
  explicit JobPoolEnv(Env* target) : EnvWrapper(target) {}
  void Schedule(void (*function)(void*), void* arg, Priority pri, void* tag,
                void (*unschedule)(void*)) override {
    target()->Schedule(&RunJob, new Job{function, arg, unschedule, pri}, pri,
                       tag, &DropJob);
  }

 private:
  struct Job {
    void (*function)(void*);
    void* arg;
    void (*unschedule)(void*);
    Priority pool;
  };
  static void RunJob(void* j) {
    std::unique_ptr<Job> job(static_cast<Job*>(j));
    g_job_pool = job->pool;
    job->function(job->arg);
    g_job_pool = TOTAL;
  }
  static void DropJob(void* j) {
    std::unique_ptr<Job> job(static_cast<Job*>(j));
    if (job->unschedule != nullptr) job->unschedule(job->arg);
  }
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_CRASH_TEST_UTIL_H_
