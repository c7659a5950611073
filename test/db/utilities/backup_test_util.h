// Shared by the backup engine's suites: a DB with three column families
// in a temp directory, a backup directory beside it, an Env that counts
// the files written under a path, and readers of a DB's contents.

#ifndef STRATA_TEST_DB_UTILITIES_BACKUP_TEST_UTIL_H_
#define STRATA_TEST_DB_UTILITIES_BACKUP_TEST_UTIL_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/utilities/backup/backup_meta.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/utilities/backup_engine.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {

// "default", "lock", "write".
const std::vector<std::string>& BackupFamilies();

// Records the name of every file created for writing.
class WriteRecordingEnv : public EnvWrapper {
 public:
  explicit WriteRecordingEnv(Env* target) : EnvWrapper(target) {}
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override;
  // How many files whose path contains part (and also part2) were
  // created since the last Reset.
  int Count(const std::string& part, const std::string& part2 = "");
  void Reset();

 private:
  std::mutex mu_;
  std::vector<std::string> written_;
};

class BackupTestBase : public ::testing::Test {
 protected:
  BackupTestBase();

  void SetUp() override;
  void TearDown() override;

  // Opens (creating) the DB name with every family of BackupFamilies().
  Status OpenDB(const std::string& name, std::unique_ptr<DB>* db,
                std::vector<ColumnFamilyHandle*>* handles);
  static void CloseDB(std::unique_ptr<DB>* db,
                      std::vector<ColumnFamilyHandle*>* handles);
  void ReopenDB();

  // Writes key=value into every family of db_ in one batch.
  Status PutAll(const std::string& key, const std::string& value);
  Status FlushAll();

  std::string DBName() const { return dir_.File("db"); }
  std::string BackupDir() const { return dir_.File("backups"); }
  BackupEngineOptions EngineOptions() const;
  Status OpenEngine(const BackupEngineOptions& options,
                    std::unique_ptr<BackupEngine>* engine);
  Status OpenEngine(std::unique_ptr<BackupEngine>* engine) {
    return OpenEngine(EngineOptions(), engine);
  }

  // Every family's entries, as "<family>/<key>" -> value; an error is
  // reported as the key "<error>".
  static std::map<std::string, std::string> Contents(
      DB* db, const std::vector<ColumnFamilyHandle*>& handles);
  // Contents of the DB in dir (opened and closed again); "<open>" maps to
  // the error if it does not open.
  std::map<std::string, std::string> ContentsOf(const std::string& dir);
  std::map<std::string, std::string> Contents() {
    return Contents(db_.get(), handles_);
  }

  // The metadata file of backup id, parsed (a test failure if it does not
  // parse).
  backup::BackupMeta ReadBackupMeta(BackupID id);

  // The names in backup_dir/sub (empty if it is missing).
  std::vector<std::string> BackupChildren(const std::string& sub);
  // Every path under backup_dir with its size, for comparing states.
  std::map<std::string, uint64_t> BackupTree();

  WriteRecordingEnv env_;
  TempDir dir_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::vector<ColumnFamilyHandle*> handles_;
};

// Changes byte offset of fname (XOR 0x55).
Status FlipByte(Env* env, const std::string& fname, uint64_t offset);

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_UTILITIES_BACKUP_TEST_UTIL_H_
