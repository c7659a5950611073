#include "test/db/fake_commit_env.h"

#include <chrono>
#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace strata {

namespace {

uint64_t CountOf(const WriteThread::Writer* w) {
  return w->batch == nullptr ? 0 : w->batch->Count();
}

uint64_t SteadyMicros() {
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::microseconds>(now).count();
}

}  // namespace

void PrintTo(CommitStep step, std::ostream* os) {
  static const char* const kNames[] = {"kNone", "kPrepare", "kWAL",
                                       "kMemTable"};
  *os << kNames[static_cast<int>(step)];
}

void Counter::Increment() {
  std::lock_guard<std::mutex> l(mu_);
  n_++;
  cv_.notify_all();
}

bool Counter::WaitFor(int n) {
  std::unique_lock<std::mutex> l(mu_);
  return cv_.wait_for(l, std::chrono::seconds(60), [&] { return n_ >= n; });
}

int Counter::value() {
  std::lock_guard<std::mutex> l(mu_);
  return n_;
}

Status FakeCommitEnv::PrepareGroup(WriteThread::WriteGroup* group) {
  Enter();
  GroupRecord r;
  for (WriteThread::Writer* w : *group) {
    r.members.push_back(w);
    r.counts.push_back(CountOf(w));
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
    Log(Event::kPrepare, index, nullptr, 0);
  }
  HoldIfArmed();
  std::lock_guard<std::mutex> l(mu_);
  return Fault(index, CommitStep::kPrepare);
}

SequenceNumber FakeCommitEnv::AllocateSequence(uint64_t count) {
  const SequenceNumber first = last_allocated_ + 1;
  last_allocated_ += count;
  // Called right after the group's PrepareGroup, before the next group
  // can start: the newest record is this group's.
  std::lock_guard<std::mutex> l(mu_);
  groups_.back().first = first;
  groups_.back().last = last_allocated_;
  return first;
}

uint64_t FakeCommitEnv::NowMicros() {
  clock_reads_.Increment();
  uint64_t base = stopped_at_micros_.load();
  if (base == 0) base = SteadyMicros();
  return base + advanced_micros_.load() + synced_micros_.load();
}

void FakeCommitEnv::StopClock() { stopped_at_micros_ = SteadyMicros(); }

Status FakeCommitEnv::WriteWAL(WriteThread::WriteGroup* group) {
  EXPECT_FALSE(group->disable_wal());
  std::lock_guard<std::mutex> l(mu_);
  const size_t index = GroupOfLeader(group->leader());
  groups_[index].wal_written = true;
  if (group->need_sync()) synced_micros_ += sync_micros_.load();
  Log(Event::kWAL, index, nullptr, 0);
  return Fault(index, CommitStep::kWAL);
}

Status FakeCommitEnv::ApplyMemTable(WriteThread::WriteGroup* group) {
  size_t index;
  {
    std::lock_guard<std::mutex> l(mu_);
    index = GroupOfLeader(group->leader());
    GroupRecord& r = groups_[index];
    r.memtable_applied = true;
    r.first = group->first_sequence();
    r.last = group->last_sequence();
    for (WriteThread::Writer* w : *group) r.sequences.push_back(w->sequence);
    Log(Event::kApplyBegin, index, nullptr, 0);
  }
  if (apply_hook_) apply_hook_(index);
  std::lock_guard<std::mutex> l(mu_);
  Status s = Fault(index, CommitStep::kMemTable);
  if (s.ok()) {
    const SequenceNumber published = published_.empty() ? 0 : published_.back();
    for (WriteThread::Writer* w : *group) {
      if (CountOf(w) == 0) continue;
      inserts_.push_back(Insert{w, w->sequence, CountOf(w),
                                std::this_thread::get_id(), published, index,
                                /*by_member=*/false});
      inserted_ += CountOf(w);
    }
  }
  Log(Event::kApplyEnd, index, nullptr, 0);
  return s;
}

bool FakeCommitEnv::CanInsertInParallel(const WriteThread::WriteGroup& group) {
  for (WriteThread::Writer* w : group) {
    if (w->batch != nullptr && w->batch->HasMerge()) return false;
  }
  return parallel_allowed_.load();
}

Status FakeCommitEnv::InsertMember(WriteThread::Writer* w) {
  EXPECT_GT(CountOf(w), 0u);
  size_t index;
  {
    std::lock_guard<std::mutex> l(mu_);
    index = GroupOfMember(w);
    Log(Event::kInsertBegin, index, w, w->sequence);
  }
  if (insert_hook_) insert_hook_(w);
  std::lock_guard<std::mutex> l(mu_);
  Status s;
  if (w == fail_insert_) {
    GroupRecord& r = groups_[index];
    if (!r.published) {
      r.failed = true;
      Leave();  // No Publish follows.
    }
    s = Status::IOError("injected insert");
  } else {
    inserts_.push_back(Insert{
        w, w->sequence, CountOf(w), std::this_thread::get_id(),
        published_.empty() ? 0 : published_.back(), index, /*by_member=*/true});
    inserted_ += CountOf(w);
  }
  Log(Event::kInsertEnd, index, w, w->sequence);
  return s;
}

std::vector<FakeCommitEnv::Insert> FakeCommitEnv::inserts() {
  std::lock_guard<std::mutex> l(mu_);
  return inserts_;
}

std::vector<FakeCommitEnv::Event> FakeCommitEnv::events() {
  std::lock_guard<std::mutex> l(mu_);
  return events_;
}

bool FakeCommitEnv::WaitForEvents(
    std::function<bool(const std::vector<Event>&)> done) {
  std::unique_lock<std::mutex> l(mu_);
  return events_cv_.wait_for(l, std::chrono::seconds(60),
                             [&] { return done(events_); });
}

bool FakeCommitEnv::WaitForEvent(Event::Kind kind, size_t group) {
  return WaitForEvents([=](const std::vector<Event>& events) {
    return Has(events, kind, group);
  });
}

bool FakeCommitEnv::Has(const std::vector<Event>& events, Event::Kind kind,
                        size_t group) {
  return Find(events, kind, group) < events.size();
}

size_t FakeCommitEnv::Find(const std::vector<Event>& events, Event::Kind kind,
                           size_t group) {
  for (size_t i = 0; i < events.size(); i++) {
    if (events[i].kind == kind && events[i].group == group) return i;
  }
  return events.size();
}

size_t FakeCommitEnv::Count(const std::vector<Event>& events, Event::Kind kind,
                            size_t group) {
  size_t n = 0;
  for (const Event& e : events) {
    if (e.kind == kind && e.group == group) n++;
  }
  return n;
}

void FakeCommitEnv::Publish(SequenceNumber last_sequence) {
  std::lock_guard<std::mutex> l(mu_);
  EXPECT_TRUE(published_.empty() || published_.back() <= last_sequence);
  published_.push_back(last_sequence);
  // Groups publish in commit order; failed ones never do. One publish is
  // one group's, or (publish_covers_) every group its number reaches.
  size_t covered = 0;
  for (; first_unpublished_ < groups_.size(); first_unpublished_++) {
    GroupRecord& r = groups_[first_unpublished_];
    if (r.published || r.failed) continue;
    if (covered > 0 &&
        (!publish_covers_ || r.last > last_sequence || r.first == 0)) {
      break;
    }
    r.published = true;
    Log(Event::kPublish, first_unpublished_, nullptr, last_sequence);
    Leave();
    covered++;
  }
  EXPECT_GT(covered, 0u);
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

size_t FakeCommitEnv::GroupOfLeader(WriteThread::Writer* leader) {
  for (size_t i = groups_.size(); i > 0; i--) {
    if (groups_[i - 1].members.front() == leader) return i - 1;
  }
  ADD_FAILURE() << "no group led by this writer";
  return 0;
}

size_t FakeCommitEnv::GroupOfMember(WriteThread::Writer* w) {
  for (size_t i = groups_.size(); i > 0; i--) {
    for (WriteThread::Writer* m : groups_[i - 1].members) {
      if (m == w) return i - 1;
    }
  }
  ADD_FAILURE() << "no group holds this writer";
  return 0;
}

void FakeCommitEnv::Log(Event::Kind kind, size_t group, WriteThread::Writer* w,
                        SequenceNumber sequence) {
  events_.push_back(
      Event{kind, group, w, sequence, inserted_, pending_.load()});
  events_cv_.notify_all();
}

Status FakeCommitEnv::Fault(size_t index, CommitStep step) {
  if (index == fail_index_ && step == fail_step_) {
    groups_[index].failed = true;
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
