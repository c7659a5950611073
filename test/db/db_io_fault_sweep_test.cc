// The I/O-fault sweep, after SQLite's I/O-error tests: a fixed workload
// (create, writes some of them synced, two flushes, a compaction, close,
// reopen, reads, more writes, close) runs once to count its I/Os; then,
// for every n of them and for each of two errors (IOError and NoSpace), it
// runs again on a fresh DB with the n-th I/O failing once. Each run must
// end with every step either done or refused with an error, and every read
// must fail or return what the DB may hold; then the DB, reopened with the
// failures gone, must open, hold every acknowledged write (synced or not,
// flushed or not: no power is lost) and no failed one — except the first
// failed write after a session's last acknowledged one (Candidates) — and
// take writes again.
//
// The environment can narrow it, to look into a finding:
//   STRATA_IO_SWEEP_STRIDE=k   every k-th n only (the default is every n)
//   STRATA_IO_SWEEP_ONLY=n     that n alone
//   STRATA_IO_SWEEP_VERBOSE=1  the I/Os of the workload, the errors each
//                              run's steps saw, and the runs that saw none

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/write_batch.h"
#include "test/util/fault_injection_env.h"
#include "util/random.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

// One put (deleted == false) or delete of a write batch.
struct Op {
  std::string key;
  std::string value;
  bool deleted = false;
};

// One DB::Write and whether it was acknowledged.
struct WriteRecord {
  std::vector<Op> ops;
  bool acked = false;
};

// The writes between one open and the next close.
using Session = std::vector<WriteRecord>;

void Apply(const WriteRecord& w, Model* m) {
  for (const Op& op : w.ops) {
    if (op.deleted) {
      m->erase(op.key);
    } else {
      (*m)[op.key] = op.value;
    }
  }
}

// Every state the DB may be in after sessions: in each session the
// acknowledged writes, and perhaps the first failed write after the last
// acknowledged one. That write's record may have reached the WAL (a sync
// failed after it, or the write-out did and the writer kept the record to
// write at close); the failure then stopped writes, so no later write of
// the session reached the WAL.
std::vector<Model> Candidates(const std::vector<Session>& sessions) {
  std::vector<Model> states{Model()};
  for (const Session& session : sessions) {
    size_t tail = 0;  // the first write after the last acknowledged one
    for (size_t i = 0; i < session.size(); i++) {
      if (session[i].acked) tail = i + 1;
    }
    std::vector<Model> next;
    for (const Model& start : states) {
      Model m = start;
      for (size_t i = 0; i < tail; i++) {
        if (session[i].acked) Apply(session[i], &m);
      }
      next.push_back(m);
      if (tail < session.size()) {
        Apply(session[tail], &m);
        next.push_back(m);
      }
    }
    states.clear();
    for (Model& m : next) {
      bool seen = false;
      for (const Model& s : states) seen = seen || s == m;
      if (!seen) states.push_back(std::move(m));
    }
  }
  return states;
}

std::string Describe(const Model& m) {
  std::string out = "{";
  for (const auto& kv : m) {
    // The values are "<id>:<padding>": the id names the write.
    out += " " + kv.first + "=" + kv.second.substr(0, kv.second.find(':'));
  }
  return out + " }";
}

// The workload. Every step that returns an error is recorded and the
// workload goes on with what it still can: a step that needs the DB is
// skipped while it is not open.
class Workload {
 public:
  Workload(Env* env, std::string dbname) : dbname_(std::move(dbname)) {
    options_.env = env;
    options_.create_if_missing = true;
    // Only the workload's own flushes and compaction: nothing in the
    // background that could reorder the I/Os from one run to the next.
    options_.write_buffer_size = 4 << 20;
    options_.disable_auto_compactions = true;
    // Write-back hints, so that range syncs are among the I/Os.
    options_.bytes_per_sync = 4096;
  }

  void Run() {
    Open("open (create)");
    for (int i = 0; i < 12; i++) {
      const bool sync = i % 4 == 3;
      if (i == 5) {
        Write({Del("a02")}, sync);
      } else if (i == 8) {
        Write({Put("a08"), Put("a09"), Del("a03")}, sync);
      } else if (i == 10) {
        Write({Put("a01")}, sync);  // overwrites
      } else {
        Write({Put(Key('a', i))}, sync);
      }
    }
    Flush("first flush");
    for (int i = 0; i < 8; i++) {
      const bool sync = i % 3 == 2;
      if (i == 3) {
        Write({Del("a04")}, sync);  // a key now in a table
      } else if (i == 6) {
        Write({Put("a00")}, sync);
      } else {
        Write({Put(Key('b', i))}, sync);
      }
    }
    Flush("second flush");
    if (db_ != nullptr) {
      Step("compact range",
           db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    }
    for (int i = 0; i < 6; i++) {
      Write({i == 2 ? Del("b01") : Put(Key('c', i))}, i == 1);
    }
    Close("first close");

    Open("reopen");
    CheckReads();
    Write({Put("d00")}, true);
    Write({Del("c00")}, false);
    Write({Put("a05"), Put("d01")}, false);
    Close("second close");
  }

  const std::vector<Session>& sessions() const { return sessions_; }
  const std::vector<std::string>& errors() const { return errors_; }
  // Reads that returned OK but not what any allowed state holds.
  const std::vector<std::string>& wrong_reads() const { return wrong_reads_; }

 private:
  static std::string Key(char prefix, int i) {
    char buf[8];
    std::snprintf(buf, sizeof(buf), "%c%02d", prefix, i);
    return buf;
  }
  Op Put(const std::string& key) {
    // Unique per write, and long and random enough (compression) for
    // tables of several blocks.
    Op op;
    op.key = key;
    const int id = next_id_++;
    Random rnd(static_cast<uint32_t>(id) + 1);
    op.value = std::to_string(id) + ":";
    for (int i = 0; i < 700; i++) {
      op.value.push_back(static_cast<char>('a' + rnd.Uniform(26)));
    }
    return op;
  }
  Op Del(const std::string& key) {
    Op op;
    op.key = key;
    op.deleted = true;
    next_id_++;
    return op;
  }

  void Step(const std::string& what, const Status& s) {
    if (!s.ok()) errors_.push_back(what + ": " + s.ToString());
  }

  void Open(const char* what) {
    std::unique_ptr<DB> db;
    Status s = DB::Open(options_, dbname_, &db);
    Step(what, s);
    if (s.ok()) {
      db_ = std::move(db);
      sessions_.emplace_back();
    }
  }

  void Close(const char* what) {
    if (db_ == nullptr) return;
    Step(what, db_->Close());
    db_.reset();
  }

  void Flush(const char* what) {
    if (db_ == nullptr) return;
    Step(what, db_->Flush(FlushOptions()));
    Settle(what);
  }

  // Waits until the background work a flush or compaction leaves behind
  // (closing and deleting obsolete files) is done, so that the next
  // step's I/Os never interleave with it: the n-th I/O is the same one in
  // every run.
  void Settle(const char* what) {
    Step(std::string(what) + " (settling)",
         static_cast<DBImpl*>(db_.get())->WaitForBackgroundWork());
  }

  void Write(std::vector<Op> ops, bool sync) {
    if (db_ == nullptr) return;
    WriteBatch batch;
    for (const Op& op : ops) {
      if (op.deleted) {
        batch.Delete(op.key);
      } else {
        batch.Put(op.key, op.value);
      }
    }
    WriteOptions wo;
    wo.sync = sync;
    Status s = db_->Write(wo, &batch);
    Step("write " + ops[0].key + (sync ? " (sync)" : ""), s);
    WriteRecord record;
    record.ops = std::move(ops);
    record.acked = s.ok();
    sessions_.back().push_back(std::move(record));
  }

  // Point reads and a scan: each either fails or returns what one of the
  // allowed states holds.
  void CheckReads() {
    if (db_ == nullptr) return;
    const std::vector<Model> allowed = Candidates(sessions_);
    for (const char* key :
         {"a00", "a01", "a02", "a04", "a07", "b00", "b01", "c03", "zz"}) {
      std::string value;
      Status s = db_->Get(ReadOptions(), key, &value);
      if (!s.ok() && !s.IsNotFound()) {
        Step(std::string("get ") + key, s);
        continue;
      }
      bool ok = false;
      for (const Model& m : allowed) {
        auto it = m.find(key);
        ok = ok || (s.IsNotFound() ? it == m.end()
                                   : it != m.end() && it->second == value);
      }
      if (!ok) {
        wrong_reads_.push_back(
            std::string("get ") + key + " returned " +
            (s.ok() ? value.substr(0, value.find(':')) : s.ToString()));
      }
    }
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    Model seen;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      seen[it->key().ToString()] = it->value().ToString();
    }
    if (!it->status().ok()) {
      Step("scan", it->status());
      return;
    }
    bool ok = false;
    for (const Model& m : allowed) ok = ok || m == seen;
    if (!ok) wrong_reads_.push_back("scan returned " + Describe(seen));
  }

  const std::string dbname_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::vector<Session> sessions_;
  std::vector<std::string> errors_;
  std::vector<std::string> wrong_reads_;
  int next_id_ = 0;
};

// Aborts the process, naming the run, if one run takes longer than a
// minute: a hang is a finding, and a hung test would only time out.
class Watchdog {
 public:
  Watchdog() : thread_([this] { Watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> l(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void Start(const std::string& run) {
    std::lock_guard<std::mutex> l(mu_);
    run_ = run;
    generation_++;
  }

 private:
  void Watch() {
    std::unique_lock<std::mutex> l(mu_);
    while (!done_) {
      const uint64_t generation = generation_;
      if (cv_.wait_for(l, std::chrono::seconds(60),
                       [&] { return done_ || generation_ != generation; })) {
        continue;
      }
      std::fprintf(stderr, "io fault sweep: %s hangs\n", run_.c_str());
      std::abort();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  uint64_t generation_ = 0;
  std::string run_ = "the counting run";
  std::thread thread_;
};

struct RunOutcome {
  bool error_surfaced = false;
  bool reopened = false;
  bool failed_write_recovered = false;
  std::vector<std::string> problems;
};

// Runs the workload on a fresh DB with the n-th I/O failing with error
// (n == 0: nothing fails), then checks the DB with the failures gone.
RunOutcome RunOnce(Env* base, const std::string& dbname, uint64_t n,
                   const Status& error, std::vector<test::IOEvent>* ios) {
  RunOutcome out;
  test::FaultInjectionEnv fault(base);
  if (ios != nullptr) fault.RecordIOs(true);
  if (n > 0) fault.FailNthIO(n, error);
  Workload w(&fault, dbname);
  w.Run();
  if (ios != nullptr) *ios = fault.TakeRecordedIOs();
  fault.ClearFailures();
  out.error_surfaced = !w.errors().empty();
  if (std::getenv("STRATA_IO_SWEEP_VERBOSE")) {
    for (const std::string& e : w.errors()) std::printf("  %s\n", e.c_str());
  }
  for (const std::string& bad : w.wrong_reads()) {
    out.problems.push_back("wrong read: " + bad);
  }

  // The check: the plain Env, no failures.
  Options options;
  options.env = base;
  options.create_if_missing = true;
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, dbname, &db);
  out.reopened = s.ok();
  if (!s.ok()) {
    out.problems.push_back("the DB does not reopen: " + s.ToString());
  } else {
    Model recovered;
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      recovered[it->key().ToString()] = it->value().ToString();
    }
    if (!it->status().ok()) {
      out.problems.push_back("the scan fails: " + it->status().ToString());
    }
    it.reset();
    const std::vector<Model> allowed = Candidates(w.sessions());
    bool ok = false;
    for (size_t i = 0; i < allowed.size(); i++) {
      if (allowed[i] == recovered) {
        ok = true;
        // allowed[0] has no failed write in it.
        out.failed_write_recovered = i > 0 && allowed[i] != allowed[0];
      }
    }
    if (!ok) {
      std::string msg = "recovered " + Describe(recovered) + ", allowed:";
      for (const Model& m : allowed) msg += "\n    " + Describe(m);
      out.problems.push_back(msg);
    }
    // And it takes writes again.
    WriteOptions sync;
    sync.sync = true;
    s = db->Put(sync, "after", "1");
    std::string v;
    if (s.ok()) s = db->Get(ReadOptions(), "after", &v);
    if (!s.ok()) {
      out.problems.push_back("no write after reopen: " + s.ToString());
    }
    s = db->Close();
    if (!s.ok()) out.problems.push_back("clean close fails: " + s.ToString());
  }
  db.reset();
  if (!w.errors().empty() && !out.problems.empty()) {
    std::string steps;
    for (const std::string& e : w.errors()) steps += "\n    " + e;
    out.problems.push_back("the steps that failed:" + steps);
  }
  Status destroyed = DestroyDB(dbname, options);
  if (!destroyed.ok()) {
    out.problems.push_back("DestroyDB: " + destroyed.ToString());
  }
  return out;
}

TEST(DBIOFaultSweepTest, EveryIOFailingOnceLosesNothingAcknowledged) {
  std::unique_ptr<Env> base(NewMemEnv(Env::Default()));
  const std::string dbname = "/io_fault_sweep/db";
  ASSERT_TRUE(base->CreateDirIfMissing("/io_fault_sweep").ok());
  uint64_t stride = 1;
  if (const char* e = std::getenv("STRATA_IO_SWEEP_STRIDE")) {
    stride = std::max<uint64_t>(1, std::strtoull(e, nullptr, 10));
  }
  uint64_t only = 0;
  if (const char* e = std::getenv("STRATA_IO_SWEEP_ONLY")) {
    only = std::strtoull(e, nullptr, 10);
  }
  Watchdog watchdog;
  const auto start = std::chrono::steady_clock::now();

  // The counting run: nothing fails, and the workload must be all OK.
  std::vector<test::IOEvent> ios;
  RunOutcome clean = RunOnce(base.get(), dbname, 0, Status::OK(), &ios);
  ASSERT_FALSE(clean.error_surfaced);
  ASSERT_TRUE(clean.problems.empty()) << clean.problems[0];
  const uint64_t total = ios.size();
  ASSERT_GT(total, 100u);
  // The same workload does the same I/Os each time, or "the n-th" would
  // mean different things in different runs.
  std::vector<test::IOEvent> again;
  RunOnce(base.get(), dbname, 0, Status::OK(), &again);
  ASSERT_EQ(total, again.size());
  for (size_t i = 0; i < total; i++) {
    ASSERT_EQ(ios[i].kind, again[i].kind) << "I/O " << i + 1;
    ASSERT_EQ(ios[i].op, again[i].op) << "I/O " << i + 1;
    ASSERT_EQ(ios[i].path, again[i].path) << "I/O " << i + 1;
  }
  if (std::getenv("STRATA_IO_SWEEP_VERBOSE")) {
    for (size_t i = 0; i < total; i++) {
      std::printf("%llu %s %s %s\n", static_cast<unsigned long long>(i + 1),
                  test::IOKindName(ios[i].kind), ios[i].op.c_str(),
                  ios[i].path.c_str());
    }
  }
  uint64_t by_kind[static_cast<int>(test::IOKind::kNumKinds)] = {};
  for (const test::IOEvent& io : ios) by_kind[static_cast<int>(io.kind)]++;
  std::string kinds;
  for (int k = 0; k < static_cast<int>(test::IOKind::kNumKinds); k++) {
    if (by_kind[k] == 0) continue;
    kinds += std::string(kinds.empty() ? "" : ", ") +
             test::IOKindName(static_cast<test::IOKind>(k)) + " " +
             std::to_string(by_kind[k]);
  }
  std::printf("io fault sweep: %llu I/Os (%s), stride %llu\n",
              static_cast<unsigned long long>(total), kinds.c_str(),
              static_cast<unsigned long long>(stride));

  const uint64_t first = only > 0 ? only : 1;
  const uint64_t last = only > 0 ? std::min(only, total) : total;
  const Status errors[] = {Status::IOError("injected"),
                           Status::NoSpace("injected")};
  uint64_t runs = 0, surfaced = 0, reopened = 0, recovered_failed = 0;
  uint64_t broken = 0;
  // By the failing I/O: the runs where no step saw the error, and those
  // where a failed write came back.
  std::map<std::string, int> absorbed, came_back;
  for (const Status& error : errors) {
    for (uint64_t n = first; n <= last; n += stride) {
      const test::IOEvent& io = ios[n - 1];
      const std::string run = "I/O " + std::to_string(n) + " (" +
                              test::IOKindName(io.kind) + " " + io.op + " " +
                              io.path + ") failing with " + error.ToString();
      watchdog.Start(run);
      RunOutcome out = RunOnce(base.get(), dbname, n, error, nullptr);
      runs++;
      surfaced += out.error_surfaced ? 1 : 0;
      reopened += out.reopened ? 1 : 0;
      recovered_failed += out.failed_write_recovered ? 1 : 0;
      const std::string what =
          std::string(test::IOKindName(io.kind)) + " (" + io.op + ")";
      if (!out.error_surfaced) absorbed[what]++;
      if (!out.error_surfaced && std::getenv("STRATA_IO_SWEEP_VERBOSE")) {
        std::printf("absorbed: %s\n", run.c_str());
      }
      if (out.failed_write_recovered) came_back[what]++;
      if (!out.problems.empty()) {
        broken++;
        std::string msg = run + ":";
        for (const std::string& p : out.problems) msg += "\n  " + p;
        ADD_FAILURE() << msg;
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf(
      "io fault sweep: %llu runs, %llu surfaced an error, %llu absorbed it, "
      "%llu reopened, %llu recovered a failed write, %llu broke; %.1f s\n",
      static_cast<unsigned long long>(runs),
      static_cast<unsigned long long>(surfaced),
      static_cast<unsigned long long>(runs - surfaced),
      static_cast<unsigned long long>(reopened),
      static_cast<unsigned long long>(recovered_failed),
      static_cast<unsigned long long>(broken), seconds);
  for (const auto& tally :
       {std::make_pair("absorbed", &absorbed),
        std::make_pair("a failed write came back", &came_back)}) {
    std::string line;
    for (const auto& kv : *tally.second) {
      line += (line.empty() ? "" : ", ") + kv.first + " " +
              std::to_string(kv.second);
    }
    std::printf("io fault sweep: %s: %s\n", tally.first, line.c_str());
  }
  EXPECT_GT(surfaced, runs / 2);
}

}  // namespace
}  // namespace strata
