// Helpers shared by the whole-DB suites: a DB in a temp directory that can
// be reopened with changed options, and small readers of its contents.

#ifndef STRATA_TEST_DB_DB_TEST_UTIL_H_
#define STRATA_TEST_DB_DB_TEST_UTIL_H_

#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {

class DBHolder {
 public:
  explicit DBHolder(Env* env = Env::Default());
  ~DBHolder();

  Options& options() { return options_; }
  const std::string& name() const { return name_; }
  DB* db() const { return db_.get(); }
  Env* env() const { return env_; }

  Status Open();
  Status Reopen() {
    Close();
    return Open();
  }
  void Close() { db_.reset(); }
  Status Destroy();

  Status Put(const std::string& k, const std::string& v) {
    return db_->Put(WriteOptions(), k, v);
  }
  Status Delete(const std::string& k) { return db_->Delete(WriteOptions(), k); }
  // The value, "NOT_FOUND", or the error.
  std::string Get(const std::string& k, const Snapshot* snapshot = nullptr);
  // Every key/value through a forward iterator.
  std::map<std::string, std::string> Contents(
      const Snapshot* snapshot = nullptr);

 private:
  Env* const env_;
  TempDir dir_;
  std::string name_;
  Options options_;
  std::unique_ptr<DB> db_;
};

// Holds every table file's creation (a flush's or a compaction's) while
// the gate is closed.
class TableGateEnv : public EnvWrapper {
 public:
  explicit TableGateEnv(Env* target) : EnvWrapper(target) {}
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override;
  void Open(bool open);
  // Until a table creation waits at the closed gate.
  void AwaitWaiter();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = true;
  int waiting_ = 0;
};

class FaultInjectionEnv;

// Makes db's next flush fail with failure: the memtable is retired, the
// flush held at gate, fault's writes set to fail, and the flush let go.
// Returns what a waiting Flush reports (fault keeps failing writes until
// its ClearFailures).
Status FailNextFlush(DB* db, TableGateEnv* gate, FaultInjectionEnv* fault,
                     const Status& failure);

// "key000042": keys that sort as their numbers do.
inline std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// The numbered files in a DB's directory, by kind.
struct DBFiles {
  std::vector<uint64_t> logs, manifests, tables;
  bool current = false;
};
DBFiles ListDBFiles(Env* env, const std::string& dbname);

// Cuts the clean close's marker off the end of the WAL fname, leaving it
// as a crash after the close's MANIFEST edit would; Corruption if the WAL
// does not end with a marker.
Status DropCloseMarker(Env* env, const std::string& fname);

// The table files of a family, at every level.
uint64_t TableCount(DB* db, ColumnFamilyHandle* cf);

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_DB_TEST_UTIL_H_
