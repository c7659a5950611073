#include "test/db/fake_commit_env.h"

#include <chrono>
#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace strata {

Status FakeCommitEnv::PrepareGroup(WriteThread::WriteGroup* group) {
  Enter();
  GroupRecord r;
  for (WriteThread::Writer* w : *group) {
    r.members.push_back(w);
    r.counts.push_back(w->batch == nullptr ? 0 : w->batch->Count());
    r.bytes.push_back(w->batch == nullptr ? 0 : w->batch->GetDataSize());
    r.sync.push_back(w->sync);
    r.disable_wal.push_back(w->disable_wal);
    r.no_slowdown.push_back(w->no_slowdown);
  }
  EXPECT_EQ(group->size(), r.members.size());
  EXPECT_EQ(group->leader(), r.members.front());
  EXPECT_EQ(group->last_writer(), r.members.back());
  r.total_count = group->total_count();
  r.total_bytes = group->total_bytes();
  r.need_sync = group->need_sync();
  size_t index;
  {
    std::lock_guard<std::mutex> l(mu_);
    index = groups_.size();
    groups_.push_back(std::move(r));
  }
  HoldIfArmed();
  return Fault(index, CommitStep::kPrepare);
}

SequenceNumber FakeCommitEnv::AllocateSequence(uint64_t count) {
  const SequenceNumber first = last_allocated_ + 1;
  last_allocated_ += count;
  return first;
}

Status FakeCommitEnv::WriteWAL(WriteThread::WriteGroup* group) {
  EXPECT_FALSE(group->disable_wal());
  std::lock_guard<std::mutex> l(mu_);
  groups_.back().wal_written = true;
  return Fault(groups_.size() - 1, CommitStep::kWAL);
}

Status FakeCommitEnv::ApplyMemTable(WriteThread::WriteGroup* group) {
  std::lock_guard<std::mutex> l(mu_);
  GroupRecord& r = groups_.back();
  r.memtable_applied = true;
  r.first = group->first_sequence();
  r.last = group->last_sequence();
  for (WriteThread::Writer* w : *group) r.sequences.push_back(w->sequence);
  return Fault(groups_.size() - 1, CommitStep::kMemTable);
}

Status FakeCommitEnv::InsertMember(WriteThread::Writer* w) {
  std::lock_guard<std::mutex> l(mu_);
  inserts_.push_back(Insert{w, w->sequence, std::this_thread::get_id(),
                            published_.empty() ? 0 : published_.back()});
  return Status::OK();
}

std::vector<FakeCommitEnv::Insert> FakeCommitEnv::inserts() {
  std::lock_guard<std::mutex> l(mu_);
  return inserts_;
}

void FakeCommitEnv::Publish(SequenceNumber last_sequence) {
  std::lock_guard<std::mutex> l(mu_);
  groups_.back().published = true;
  published_.push_back(last_sequence);
  Leave();
}

void FakeCommitEnv::ArmHold() {
  std::lock_guard<std::mutex> l(hold_mu_);
  hold_armed_ = true;
}

bool FakeCommitEnv::WaitHeld() {
  std::unique_lock<std::mutex> l(hold_mu_);
  return hold_cv_.wait_for(l, std::chrono::seconds(60),
                           [this] { return holding_; });
}

void FakeCommitEnv::Release() {
  std::lock_guard<std::mutex> l(hold_mu_);
  released_ = true;
  hold_cv_.notify_all();
}

void FakeCommitEnv::FailGroup(size_t index, CommitStep step) {
  std::lock_guard<std::mutex> l(mu_);
  fail_index_ = index;
  fail_step_ = step;
}

std::vector<GroupRecord> FakeCommitEnv::groups() {
  std::lock_guard<std::mutex> l(mu_);
  return groups_;
}

std::vector<SequenceNumber> FakeCommitEnv::published() {
  std::lock_guard<std::mutex> l(mu_);
  return published_;
}

void FakeCommitEnv::Enter() {
  if (in_env_.fetch_add(1) != 0) overlapped_ = true;
}

void FakeCommitEnv::Leave() { in_env_.fetch_sub(1); }

Status FakeCommitEnv::Fault(size_t index, CommitStep step) {
  if (index == fail_index_ && step == fail_step_) {
    Leave();  // No Publish follows a failed step.
    return Status::IOError("injected", std::to_string(index));
  }
  return Status::OK();
}

void FakeCommitEnv::HoldIfArmed() {
  std::unique_lock<std::mutex> l(hold_mu_);
  if (!hold_armed_) return;
  hold_armed_ = false;
  holding_ = true;
  hold_cv_.notify_all();
  hold_cv_.wait(l, [this] { return released_; });
  holding_ = false;
}

}  // namespace strata
