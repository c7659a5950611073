// WriteThread under contention: threads writing one small batch each
// through a CommitEnv whose WAL step checksums the group plus 16 KiB (a
// stand-in for the write system call, a few microseconds; no I/O), with
// and without adaptive yield. Besides writes/s it
// reports the average group size and how the waits ended, which shows
// whether waiters burn CPU the leader needs (2 cores, many threads).

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "db/write_thread.h"
#include "strata/write_batch.h"
#include "util/crc32c.h"

namespace strata {
namespace {

class BenchCommitEnv : public WriteThread::CommitEnv {
 public:
  Status PrepareGroup(WriteThread::WriteGroup* group) override {
    groups_++;
    members_ += group->size();
    return Status::OK();
  }
  SequenceNumber AllocateSequence(uint64_t count) override {
    const SequenceNumber first = last_ + 1;
    last_ += count;
    return first;
  }
  Status WriteWAL(WriteThread::WriteGroup* group) override {
    uint32_t crc =
        crc32c::Extend(0, syscall_cost_.data(), syscall_cost_.size());
    for (WriteThread::Writer* w : *group) {
      crc =
          crc32c::Extend(crc, w->batch->Data().data(), w->batch->Data().size());
    }
    benchmark::DoNotOptimize(crc);
    return Status::OK();
  }
  Status ApplyMemTable(WriteThread::WriteGroup*) override {
    return Status::OK();
  }
  // The benchmark runs the serial mode (WriteThread's default options).
  bool CanInsertInParallel(const WriteThread::WriteGroup&) override {
    return true;
  }
  Status InsertMember(WriteThread::Writer*) override { return Status::OK(); }
  void MemTableWritesPending(uint64_t) override {}
  void MemTableWriteDone() override {}
  void Publish(SequenceNumber last) override {
    published_.store(last, std::memory_order_release);
  }
  uint64_t NowMicros() override {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  uint64_t groups_ = 0;
  uint64_t members_ = 0;

 private:
  const std::string syscall_cost_ = std::string(16 << 10, 'w');
  SequenceNumber last_ = 0;
  std::atomic<SequenceNumber> published_{0};
};

BenchCommitEnv* env;
WriteThread* write_thread;

// range(0): adaptive_yield (0 or 1).
void BM_WriteThread(benchmark::State& state) {
  if (state.thread_index() == 0) {
    WriteThread::Options options;
    options.adaptive_yield = state.range(0) != 0;
    env = new BenchCommitEnv;
    write_thread = new WriteThread(options, env);
  }
  WriteBatch batch;
  if (!batch.Put("key0000000000000", std::string(100, 'v')).ok()) {
    state.SkipWithError("WriteBatch::Put failed");
  }
  for (auto _ : state) {
    WriteThread::Writer w(WriteOptions(), &batch);
    write_thread->Write(&w);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  if (state.thread_index() == 0) {
    WriteThread::WaitCounts counts = write_thread->GetWaitCounts();
    state.counters["group_size"] =
        env->groups_ == 0 ? 0.0
                          : static_cast<double>(env->members_) / env->groups_;
    state.counters["spin"] = static_cast<double>(counts.spin);
    state.counters["yield"] = static_cast<double>(counts.yield);
    state.counters["block"] = static_cast<double>(counts.block);
    delete write_thread;
    delete env;
  }
}

BENCHMARK(BM_WriteThread)
    ->ArgName("adaptive_yield")
    ->Arg(0)
    ->Arg(1)
    ->ThreadRange(1, 16)
    ->UseRealTime();

}  // namespace
}  // namespace strata
