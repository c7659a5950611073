#include "db/filename.h"

#include <cinttypes>
#include <cstdio>
#include <memory>

#include "strata/env.h"
#include "util/kill_point.h"
#include "util/logging.h"

namespace strata {

namespace {

std::string NumberedName(const std::string& dbname, uint64_t number,
                         const char* suffix) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "/%06" PRIu64 ".%s", number, suffix);
  return dbname + buf;
}

std::string PrefixedName(const std::string& dbname, const char* prefix,
                         uint64_t number) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "/%s-%06" PRIu64, prefix, number);
  return dbname + buf;
}

// Consumes "<prefix>" then a decimal number that ends the name.
bool ParseNumberAfter(Slice rest, const Slice& prefix, uint64_t* number) {
  if (!rest.starts_with(prefix)) return false;
  rest.remove_prefix(prefix.size());
  return ConsumeDecimalNumber(&rest, number) && rest.empty();
}

}  // namespace

std::string LogFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, "log");
}

std::string TableFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, "sst");
}

std::string DescriptorFileName(const std::string& dbname, uint64_t number) {
  return PrefixedName(dbname, "MANIFEST", number);
}

std::string OptionsFileName(const std::string& dbname, uint64_t number) {
  return PrefixedName(dbname, "OPTIONS", number);
}

std::string TempFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, "dbtmp");
}

std::string CurrentFileName(const std::string& dbname) {
  return dbname + "/CURRENT";
}

std::string LockFileName(const std::string& dbname) { return dbname + "/LOCK"; }

std::string InfoLogFileName(const std::string& dbname) {
  return dbname + "/LOG";
}

std::string OldInfoLogFileName(const std::string& dbname, uint64_t micros) {
  return dbname + "/LOG.old." + NumberToString(micros);
}

std::string IdentityFileName(const std::string& dbname) {
  return dbname + "/IDENTITY";
}

bool ParseFileName(const std::string& filename, uint64_t* number,
                   FileType* type) {
  Slice rest(filename);
  if (rest == "CURRENT") {
    *number = 0;
    *type = FileType::kCurrentFile;
  } else if (rest == "LOCK") {
    *number = 0;
    *type = FileType::kDBLockFile;
  } else if (rest == "IDENTITY") {
    *number = 0;
    *type = FileType::kIdentityFile;
  } else if (rest == "LOG") {
    *number = 0;
    *type = FileType::kInfoLogFile;
  } else if (ParseNumberAfter(rest, "LOG.old.", number)) {
    *type = FileType::kInfoLogFile;
  } else if (ParseNumberAfter(rest, "MANIFEST-", number)) {
    *type = FileType::kDescriptorFile;
  } else if (ParseNumberAfter(rest, "OPTIONS-", number)) {
    *type = FileType::kOptionsFile;
  } else {
    uint64_t num;
    if (!ConsumeDecimalNumber(&rest, &num)) return false;
    if (rest == ".log") {
      *type = FileType::kWalFile;
    } else if (rest == ".sst") {
      *type = FileType::kTableFile;
    } else if (rest == ".dbtmp") {
      *type = FileType::kTempFile;
    } else {
      return false;
    }
    *number = num;
  }
  return true;
}

Status SyncDBDirectory(Env* env, const std::string& dbname) {
  std::unique_ptr<Directory> dir;
  Status s = env->NewDirectory(dbname, &dir);
  if (s.ok()) s = dir->Fsync();
  return s;
}

Status WriteFileAtomically(Env* env, const std::string& dbname,
                           uint64_t temp_number, const std::string& fname,
                           const Slice& contents, bool* renamed) {
  const std::string tmp = TempFileName(dbname, temp_number);
  if (renamed != nullptr) *renamed = false;
  Status s = WriteStringToFile(env, contents, tmp, /*should_sync=*/true);
  TEST_KILL_POINT("AtomicFile::Rename");
  if (s.ok()) s = env->RenameFile(tmp, fname);
  if (s.ok() && renamed != nullptr) *renamed = true;
  TEST_KILL_POINT("AtomicFile::SyncDir");
  if (s.ok()) s = SyncDBDirectory(env, dbname);
  if (!s.ok()) env->RemoveFile(tmp);  // best effort; the error is s
  return s;
}

}  // namespace strata
