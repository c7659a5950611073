// EventListener (strata/listener.h, docs/operations.md "Listeners"): what
// each callback is told, checked against the DB's own view of its files
// (GetLiveFilesMetaData before and after); the callbacks run without the
// DB mutex (a listener calling into the DB must not deadlock); stall
// changes arrive in order; a listener suppresses a background error.

#include <algorithm>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/listener.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

// Records every callback it gets (copies, under its own lock).
class RecordingListener : public EventListener {
 public:
  template <typename T>
  void Record(std::vector<T>* list, const T& info) {
    std::lock_guard<std::mutex> l(mu_);
    list->push_back(info);
    cv_.notify_all();
  }

  const char* Name() const override { return "RecordingListener"; }
  void OnFlushBegin(DB*, const FlushJobInfo& info) override {
    Record(&flush_begin, info);
  }
  void OnFlushCompleted(DB* db, const FlushJobInfo& info) override {
    if (on_flush_completed) on_flush_completed(db, info);
    Record(&flush_completed, info);
  }
  void OnCompactionBegin(DB*, const CompactionJobInfo& info) override {
    Record(&compaction_begin, info);
  }
  void OnCompactionCompleted(DB* db, const CompactionJobInfo& info) override {
    if (on_compaction_completed) on_compaction_completed(db, info);
    Record(&compaction_completed, info);
  }
  void OnTableFileCreationStarted(
      const TableFileCreationBriefInfo& info) override {
    Record(&creation_started, info);
  }
  void OnTableFileCreated(const TableFileCreationInfo& info) override {
    Record(&created, info);
  }
  void OnTableFileDeleted(const TableFileDeletionInfo& info) override {
    Record(&deleted, info);
  }
  void OnStallConditionsChanged(const WriteStallInfo& info) override {
    Record(&stalls, info);
  }
  void OnBackgroundError(BackgroundErrorReason reason,
                         Status* bg_error) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      errors.emplace_back(reason, *bg_error);
    }
    if (on_background_error) on_background_error(bg_error);
  }

  // Waits (up to a minute: a deadline, not a timing) until n compactions
  // have completed.
  bool AwaitCompactions(size_t n) {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, std::chrono::seconds(60),
                        [&] { return compaction_completed.size() >= n; });
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<FlushJobInfo> flush_begin, flush_completed;
  std::vector<CompactionJobInfo> compaction_begin, compaction_completed;
  std::vector<TableFileCreationBriefInfo> creation_started;
  std::vector<TableFileCreationInfo> created;
  std::vector<TableFileDeletionInfo> deleted;
  std::vector<WriteStallInfo> stalls;
  std::vector<std::pair<BackgroundErrorReason, Status>> errors;
  std::function<void(DB*, const FlushJobInfo&)> on_flush_completed;
  std::function<void(DB*, const CompactionJobInfo&)> on_compaction_completed;
  std::function<void(Status*)> on_background_error;
};

// The live table files of the default family: full path -> level.
std::map<std::string, int> LiveTables(DB* db, const std::string& dbname) {
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::map<std::string, int> result;
  for (const LiveFileMetaData& f : files) {
    if (f.column_family_name == kDefaultColumnFamilyName) {
      result[dbname + f.name] = f.level;
    }
  }
  return result;
}

class DBListenerTest : public testing::Test {
 protected:
  DBListenerTest() : listener_(std::make_shared<RecordingListener>()) {
    h_.options().listeners.push_back(listener_);
  }

  test::DBHolder h_;
  std::shared_ptr<RecordingListener> listener_;
};

TEST_F(DBListenerTest, FlushReportsItsTableAndFamily) {
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(h_.Open().ok());
  ASSERT_TRUE(
      h_.db()->CreateColumnFamily(ColumnFamilyOptions(), "other", &cf).ok());
  ASSERT_TRUE(h_.Put("a", "1").ok());
  ASSERT_TRUE(h_.Put("b", "2").ok());
  const uint64_t caller = h_.env()->GetThreadID();
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h_.db()->Put(WriteOptions(), cf, "c", "3").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions(), cf).ok());

  const std::map<std::string, int> live = LiveTables(h_.db(), h_.name());
  std::lock_guard<std::mutex> l(listener_->mu_);
  ASSERT_EQ(2u, listener_->flush_begin.size());
  ASSERT_EQ(2u, listener_->flush_completed.size());
  const FlushJobInfo& begin = listener_->flush_begin[0];
  const FlushJobInfo& done = listener_->flush_completed[0];
  EXPECT_EQ(kDefaultColumnFamilyName, done.cf_name);
  EXPECT_EQ(0u, done.cf_id);
  EXPECT_EQ(begin.file_number, done.file_number);
  EXPECT_EQ(begin.job_id, done.job_id);
  ASSERT_EQ(1u, live.size());
  EXPECT_EQ(live.begin()->first, done.file_path);
  EXPECT_EQ(0, live.begin()->second);
  EXPECT_EQ(1u, done.smallest_seqno);  // the two puts
  EXPECT_EQ(2u, done.largest_seqno);
  // On the background flush thread, not Flush's caller.
  EXPECT_NE(caller, done.thread_id);
  EXPECT_EQ(done.thread_id, begin.thread_id);
  EXPECT_FALSE(done.triggered_writes_stop);

  const FlushJobInfo& other = listener_->flush_completed[1];
  EXPECT_EQ("other", other.cf_name);
  EXPECT_EQ(cf->GetID(), other.cf_id);
  EXPECT_GT(other.file_number, done.file_number);

  // Each flush created its table, which the creation callbacks name.
  ASSERT_EQ(2u, listener_->created.size());
  ASSERT_EQ(2u, listener_->creation_started.size());
  const TableFileCreationInfo& table = listener_->created[0];
  EXPECT_TRUE(table.status.ok());
  EXPECT_EQ(TableFileCreationReason::kFlush, table.reason);
  EXPECT_EQ(done.file_path, table.file_path);
  EXPECT_EQ(done.job_id, table.job_id);
  EXPECT_EQ(h_.name(), table.db_name);
  uint64_t size = 0;
  ASSERT_TRUE(h_.env()->GetFileSize(table.file_path, &size).ok());
  EXPECT_EQ(size, table.file_size);
  EXPECT_EQ("other", listener_->created[1].cf_name);
  ASSERT_TRUE(h_.db()->DestroyColumnFamilyHandle(cf).ok());
}

TEST_F(DBListenerTest, CompactionReportsInputsOutputsAndDeletions) {
  h_.options().disable_auto_compactions = true;
  ASSERT_TRUE(h_.Open().ok());
  for (int round = 0; round < 3; round++) {
    for (int i = round; i < 30; i += 2) {
      ASSERT_TRUE(h_.Put(test::Key(i), "v" + std::to_string(round)).ok());
    }
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }
  const std::map<std::string, int> before = LiveTables(h_.db(), h_.name());
  ASSERT_EQ(3u, before.size());
  const uint64_t caller = h_.env()->GetThreadID();
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  const std::map<std::string, int> after = LiveTables(h_.db(), h_.name());

  std::lock_guard<std::mutex> l(listener_->mu_);
  ASSERT_EQ(1u, listener_->compaction_begin.size());
  ASSERT_EQ(1u, listener_->compaction_completed.size());
  const CompactionJobInfo& begin = listener_->compaction_begin[0];
  const CompactionJobInfo& done = listener_->compaction_completed[0];
  EXPECT_TRUE(begin.output_files.empty());
  EXPECT_TRUE(done.status.ok()) << done.status.ToString();
  EXPECT_EQ(begin.job_id, done.job_id);
  EXPECT_EQ(CompactionReason::kManualCompaction, done.compaction_reason);
  EXPECT_EQ(kDefaultColumnFamilyName, done.cf_name);
  // CompactRange does the work on its caller's thread.
  EXPECT_EQ(caller, done.thread_id);
  EXPECT_EQ(0, done.base_input_level);

  std::map<std::string, int> inputs;
  ASSERT_EQ(done.input_files.size(), done.input_file_infos.size());
  for (size_t i = 0; i < done.input_files.size(); i++) {
    inputs[done.input_files[i]] = done.input_file_infos[i].level;
  }
  EXPECT_EQ(before, inputs);
  std::map<std::string, int> outputs;
  ASSERT_EQ(done.output_files.size(), done.output_file_infos.size());
  for (size_t i = 0; i < done.output_files.size(); i++) {
    outputs[done.output_files[i]] = done.output_file_infos[i].level;
    EXPECT_EQ(done.output_level, done.output_file_infos[i].level);
  }
  EXPECT_EQ(after, outputs);

  // The outputs were created by the compaction's job; the inputs deleted.
  std::set<std::string> compaction_tables;
  for (const TableFileCreationInfo& c : listener_->created) {
    if (c.reason == TableFileCreationReason::kCompaction) {
      EXPECT_EQ(done.job_id, c.job_id);
      EXPECT_TRUE(c.status.ok());
      compaction_tables.insert(c.file_path);
    }
  }
  std::set<std::string> output_paths(done.output_files.begin(),
                                     done.output_files.end());
  EXPECT_EQ(output_paths, compaction_tables);
  std::set<std::string> deleted;
  for (const TableFileDeletionInfo& d : listener_->deleted) {
    EXPECT_TRUE(d.status.ok());
    deleted.insert(d.file_path);
  }
  std::set<std::string> input_paths(done.input_files.begin(),
                                    done.input_files.end());
  EXPECT_EQ(input_paths, deleted);
}

TEST_F(DBListenerTest, AutomaticCompactionRunsOnBackgroundThread) {
  h_.options().level0_file_num_compaction_trigger = 2;
  ASSERT_TRUE(h_.Open().ok());
  for (int round = 0; round < 2; round++) {
    ASSERT_TRUE(h_.Put("k", std::to_string(round)).ok());
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }
  ASSERT_TRUE(listener_->AwaitCompactions(1));
  std::lock_guard<std::mutex> l(listener_->mu_);
  const CompactionJobInfo& done = listener_->compaction_completed[0];
  EXPECT_EQ(CompactionReason::kLevelL0FilesNum, done.compaction_reason);
  EXPECT_NE(h_.env()->GetThreadID(), done.thread_id);
  EXPECT_EQ(2u, done.input_files.size());
}

// A listener calling into the DB from the callbacks: no deadlock, and
// what it writes is there.
TEST_F(DBListenerTest, CallbacksMayCallIntoTheDB) {
  h_.options().disable_auto_compactions = true;
  int flushes = 0, compactions = 0;
  listener_->on_flush_completed = [&](DB* db, const FlushJobInfo& info) {
    std::string value;
    EXPECT_TRUE(db->GetProperty("strata.num-files-at-level0", &value));
    EXPECT_NE("0", value);
    EXPECT_TRUE(db->Get(ReadOptions(), "a", &value).ok());
    EXPECT_TRUE(db->Put(WriteOptions(),
                        "flushed" + std::to_string(info.file_number), "x")
                    .ok());
    flushes++;
  };
  listener_->on_compaction_completed = [&](DB* db, const CompactionJobInfo&) {
    std::string value;
    EXPECT_TRUE(db->GetProperty("strata.num-files-at-level0", &value));
    EXPECT_EQ("0", value);
    EXPECT_TRUE(db->Put(WriteOptions(), "compacted", "y").ok());
    compactions++;
  };
  ASSERT_TRUE(h_.Open().ok());
  ASSERT_TRUE(h_.Put("a", "1").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(1, compactions);
  EXPECT_GE(flushes, 1);  // CompactRange flushed the listener's put too
  EXPECT_EQ("y", h_.Get("compacted"));
  std::lock_guard<std::mutex> l(listener_->mu_);
  EXPECT_EQ("x",
            h_.Get("flushed" +
                   std::to_string(listener_->flush_completed[0].file_number)));
}

// With kCompactionStyleNone the L0 triggers still stall writes; the
// changes are reported in order, per family, and end once the
// application compacts L0 away.
TEST_F(DBListenerTest, StallChangesArriveInOrder) {
  h_.options().compaction_style = kCompactionStyleNone;
  h_.options().level0_file_num_compaction_trigger = 1;
  h_.options().level0_slowdown_writes_trigger = 2;
  h_.options().level0_stop_writes_trigger = 3;
  ASSERT_TRUE(h_.Open().ok());
  for (int i = 0; i < 3; i++) {
    ASSERT_TRUE(h_.Put("k" + std::to_string(i), "v").ok());
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }
  WriteOptions no_slowdown;
  no_slowdown.no_slowdown = true;
  EXPECT_TRUE(h_.db()->Put(no_slowdown, "x", "y").IsIncomplete());
  std::vector<std::string> names;
  for (const auto& t : LiveTables(h_.db(), h_.name())) {
    names.push_back(t.first);
  }
  ASSERT_EQ(3u, names.size());
  ASSERT_TRUE(h_.db()->CompactFiles(CompactionOptions(), names, 1).ok());
  EXPECT_TRUE(h_.db()->Put(no_slowdown, "x", "y").ok());

  std::lock_guard<std::mutex> l(listener_->mu_);
  using C = WriteStallCondition;
  const std::vector<std::pair<C, C>> expected = {
      {C::kNormal, C::kDelayed},
      {C::kDelayed, C::kStopped},
      {C::kStopped, C::kNormal},
  };
  std::vector<std::pair<C, C>> got;
  for (const WriteStallInfo& s : listener_->stalls) {
    EXPECT_EQ(kDefaultColumnFamilyName, s.cf_name);
    got.emplace_back(s.condition.prev, s.condition.cur);
  }
  EXPECT_EQ(expected, got);
  ASSERT_EQ(3u, listener_->flush_completed.size());
  EXPECT_TRUE(listener_->flush_completed[1].triggered_writes_slowdown);
  EXPECT_TRUE(listener_->flush_completed[2].triggered_writes_stop);
}

class DBListenerErrorTest : public testing::Test {
 protected:
  DBListenerErrorTest()
      : base_(NewMemEnv(Env::Default())),
        fault_(base_.get()),
        gate_(&fault_),
        h_(&gate_),
        listener_(std::make_shared<RecordingListener>()) {
    h_.options().listeners.push_back(listener_);
    h_.options().max_bgerror_resume_count = 0;
  }

  Status FailFlush(const Status& failure) {
    return test::FailNextFlush(h_.db(), &gate_, &fault_, failure);
  }

  std::unique_ptr<Env> base_;
  test::FaultInjectionEnv fault_;
  test::TableGateEnv gate_;
  test::DBHolder h_;
  std::shared_ptr<RecordingListener> listener_;
};

TEST_F(DBListenerErrorTest, UnsuppressedErrorStopsWrites) {
  ASSERT_TRUE(h_.Open().ok());
  ASSERT_TRUE(h_.Put("a", "1").ok());
  const Status s = FailFlush(Status::IOError("injected"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  fault_.ClearFailures();
  EXPECT_FALSE(h_.Put("b", "2").ok());
  std::lock_guard<std::mutex> l(listener_->mu_);
  ASSERT_EQ(1u, listener_->errors.size());
  EXPECT_EQ(BackgroundErrorReason::kFlush, listener_->errors[0].first);
  EXPECT_TRUE(listener_->errors[0].second.IsIOError());
  // The failed table was reported, failed.
  ASSERT_FALSE(listener_->created.empty());
  EXPECT_FALSE(listener_->created.back().status.ok());
  EXPECT_TRUE(listener_->flush_completed.empty());
}

TEST_F(DBListenerErrorTest, SuppressedErrorLetsTheDBGoOn) {
  listener_->on_background_error = [this](Status* error) {
    // The cause is gone: the flush the DB retries succeeds.
    fault_.ClearFailures();
    *error = Status::OK();
  };
  ASSERT_TRUE(h_.Open().ok());
  ASSERT_TRUE(h_.Put("a", "1").ok());
  const Status s = FailFlush(Status::IOError("injected"));
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(h_.Put("b", "2").ok());
  EXPECT_EQ("1", h_.Get("a"));
  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ("1", h_.Get("a"));
  EXPECT_EQ("2", h_.Get("b"));
  std::lock_guard<std::mutex> l(listener_->mu_);
  ASSERT_EQ(1u, listener_->errors.size());
  EXPECT_TRUE(listener_->errors[0].second.IsIOError());
  EXPECT_FALSE(listener_->flush_completed.empty());
}

// A compaction's failure reaches the listener (kCompaction) on the
// thread of the CompactFiles call; suppressed, writes go on.
TEST_F(DBListenerErrorTest, CompactionErrorSuppressedOrNot) {
  h_.options().disable_auto_compactions = true;
  for (bool suppress : {false, true}) {
    SCOPED_TRACE(suppress ? "suppressed" : "not suppressed");
    listener_->on_background_error = [suppress](Status* error) {
      if (suppress) *error = Status::OK();
    };
    if (suppress) {
      ASSERT_TRUE(h_.Destroy().ok());  // the first run's DB
    }
    ASSERT_TRUE(h_.Open().ok());
    for (int t = 0; t < 2; t++) {
      ASSERT_TRUE(h_.Put("k", std::to_string(t)).ok());
      ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
    }
    std::vector<LiveFileMetaData> files;
    h_.db()->GetLiveFilesMetaData(&files);
    std::vector<std::string> names;
    for (const LiveFileMetaData& f : files) names.push_back(f.name);
    ASSERT_EQ(2u, names.size());
    fault_.FailAll(test::IOKind::kWrite, Status::IOError("injected"));
    const Status s = h_.db()->CompactFiles(CompactionOptions(), names, 1);
    fault_.ClearFailures();
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_EQ(suppress, h_.Put("after", "x").ok());
    EXPECT_EQ("1", h_.Get("k"));
    {
      std::lock_guard<std::mutex> l(listener_->mu_);
      ASSERT_EQ(1u, listener_->errors.size());
      EXPECT_EQ(BackgroundErrorReason::kCompaction, listener_->errors[0].first);
      // As RocksDB 7.8, CompactFiles makes no compaction callbacks; its
      // failed output is reported.
      EXPECT_TRUE(listener_->compaction_completed.empty());
      ASSERT_FALSE(listener_->created.empty());
      EXPECT_TRUE(listener_->created.back().status.IsIOError());
      EXPECT_EQ(TableFileCreationReason::kCompaction,
                listener_->created.back().reason);
      listener_->errors.clear();
      listener_->created.clear();
    }
    h_.Close();
  }
}

}  // namespace
}  // namespace strata
