#include "test/db/write_thread_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace strata {

std::unique_ptr<WriteBatch> BatchWithPuts(int puts) {
  auto batch = std::make_unique<WriteBatch>();
  for (int i = 0; i < puts; i++) {
    EXPECT_TRUE(batch->Put("key" + std::to_string(i), "value").ok());
  }
  return batch;
}

WriteThread::Options ParallelOptions() {
  WriteThread::Options options;
  options.parallel_memtable = true;
  return options;
}

WriteThread::Options PipelinedOptions() {
  // As the DB's defaults with enable_pipelined_write: concurrent memtable
  // writes stay allowed.
  WriteThread::Options options;
  options.parallel_memtable = true;
  options.pipelined = true;
  return options;
}

WriteThread::Options UnorderedOptions() {
  WriteThread::Options options;
  options.parallel_memtable = true;
  options.unordered = true;
  return options;
}

WriteThread::Options SnapshotSafeOptions() {
  WriteThread::Options options = UnorderedOptions();
  options.unordered_snapshot_safe = true;
  return options;
}

InsertPark::InsertPark(WriterRun& run, const WriteThread::Writer* w) {
  run.thread().TEST_SetBeforeInsertCallback([this, w](WriteThread::Writer* at) {
    if (at != w) return;
    arrived_.Increment();
    EXPECT_TRUE(let_go_.WaitFor(1));
  });
}

WriterRun::WriterRun(const WriteThread::Options& options)
    : thread_(options, &env_) {
  thread_.TEST_SetJoinCallback(joined_.Callback());
  env_.set_publish_covers_groups(options.unordered_snapshot_safe);
}

WriterRun::~WriterRun() { JoinAll(); }

WriteThread::Writer* WriterRun::Add(std::unique_ptr<WriteBatch> batch,
                                    const WriteOptions& options) {
  batches_.push_back(std::move(batch));
  writers_.push_back(
      std::make_unique<WriteThread::Writer>(options, batches_.back().get()));
  threads_.emplace_back();
  ids_.emplace_back();
  std::lock_guard<std::mutex> l(mu_);
  returned_.push_back(false);
  inserted_at_return_.push_back(false);
  published_at_return_.push_back(0);
  return writers_.back().get();
}

void WriterRun::AddWriters(const std::vector<int>& puts) {
  for (int n : puts) Add(n < 0 ? nullptr : BatchWithPuts(n));
}

void ExpectMemberInserts(WriterRun& run, size_t group, size_t first,
                         size_t last) {
  using Event = FakeCommitEnv::Event;
  const std::vector<FakeCommitEnv::Insert> inserts = run.env().inserts();
  const std::vector<Event> events = run.env().events();
  for (size_t i = first; i <= last; i++) {
    size_t calls = 0;
    for (const Event& e : events) {
      if (e.kind == Event::kInsertBegin && e.writer == &run.writer(i)) calls++;
    }
    EXPECT_EQ(run.count(i) > 0 ? 1u : 0u, calls) << "writer " << i;
    for (const FakeCommitEnv::Insert& insert : inserts) {
      if (insert.writer != &run.writer(i)) continue;
      EXPECT_TRUE(insert.by_member) << i;
      EXPECT_EQ(group, insert.group) << i;
      EXPECT_EQ(run.thread_id(i), insert.thread) << i;
      EXPECT_EQ(run.writer(i).sequence, insert.sequence) << i;
      EXPECT_EQ(run.count(i), insert.count) << i;
    }
  }
}

void WriterRun::StartQueued(size_t n) {
  n = std::min(n, writers_.size());
  env_.ArmHold();
  const int joined_before = joined_.value();
  Start(0);
  ASSERT_TRUE(env_.WaitHeld());
  for (size_t i = 1; i < n; i++) {
    Start(i);
    ASSERT_TRUE(joined_.WaitFor(joined_before + static_cast<int>(i) + 1));
  }
}

void WriterRun::Start(size_t i) {
  WriteThread::Writer* w = writers_[i].get();
  threads_[i] = std::thread([this, w, i] {
    thread_.Write(w);
    bool inserted = false;
    for (const FakeCommitEnv::Insert& insert : env_.inserts()) {
      if (insert.writer == w) inserted = true;
    }
    const std::vector<SequenceNumber> published = env_.published();
    std::lock_guard<std::mutex> l(mu_);
    returned_[i] = true;
    inserted_at_return_[i] = inserted;
    published_at_return_[i] = published.empty() ? 0 : published.back();
    cv_.notify_all();
  });
  ids_[i] = threads_[i].get_id();
}

bool WriterRun::WaitReturned(size_t i) {
  std::unique_lock<std::mutex> l(mu_);
  return cv_.wait_for(l, std::chrono::seconds(60),
                      [&] { return static_cast<bool>(returned_[i]); });
}

void WriterRun::JoinAll() {
  for (size_t i = 0; i < threads_.size(); i++) {
    if (!threads_[i].joinable()) continue;
    if (!WaitReturned(i)) {
      // Joining would hang the test binary: fail it loudly instead.
      std::fprintf(stderr, "writer %zu did not return within a minute\n", i);
      std::abort();
    }
    threads_[i].join();
  }
}

uint64_t WriterRun::count(size_t i) const {
  return batches_[i] == nullptr ? 0 : batches_[i]->Count();
}

bool WriterRun::returned(size_t i) {
  std::lock_guard<std::mutex> l(mu_);
  return returned_[i];
}

bool WriterRun::inserted_at_return(size_t i) {
  std::lock_guard<std::mutex> l(mu_);
  return inserted_at_return_[i];
}

SequenceNumber WriterRun::published_at_return(size_t i) {
  std::lock_guard<std::mutex> l(mu_);
  return published_at_return_[i];
}

int WriterRun::IndexOf(const WriteThread::Writer* w) const {
  for (size_t i = 0; i < writers_.size(); i++) {
    if (writers_[i].get() == w) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace strata
