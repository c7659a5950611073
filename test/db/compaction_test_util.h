// Helpers shared by the compaction and stall suites: level properties,
// table bytes on disk, waiting for background work, and the tiny options
// that build a deep tree from little data (keys: test::Key, in
// db_test_util.h).

#ifndef STRATA_TEST_DB_COMPACTION_TEST_UTIL_H_
#define STRATA_TEST_DB_COMPACTION_TEST_UTIL_H_

#include <cstdio>
#include <string>

#include "db/db_impl.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace test {

inline uint64_t IntProperty(DB* db, const std::string& name) {
  uint64_t v = 0;
  EXPECT_TRUE(db->GetIntProperty(name, &v)) << name;
  return v;
}

inline uint64_t FilesAtLevel(DB* db, int level) {
  return IntProperty(db, "strata.num-files-at-level" + std::to_string(level));
}

inline uint64_t TableBytes(const DBHolder& h) {
  uint64_t total = 0;
  for (uint64_t number : ListDBFiles(h.env(), h.name()).tables) {
    uint64_t size = 0;
    EXPECT_TRUE(
        h.env()->GetFileSize(TableFileName(h.name(), number), &size).ok());
    total += size;
  }
  return total;
}

// Table files in the directory; once compactions are done, exactly the
// ones the current version holds (no obsolete input is left behind).
inline uint64_t TableFilesOnDisk(const DBHolder& h) {
  return ListDBFiles(h.env(), h.name()).tables.size();
}

inline uint64_t LiveTableFiles(DBHolder& h) {
  uint64_t total = 0;
  for (int level = 0; level < h.options().num_levels; level++) {
    total += FilesAtLevel(h.db(), level);
  }
  return total;
}

inline Status Settle(DB* db) {
  return static_cast<DBImpl*>(db)->WaitForBackgroundWork();
}

// Tiny buffers and files: a few hundred KB of writes make several levels.
inline void UseTinyOptions(Options* o) {
  o->write_buffer_size = 4 << 10;
  o->level0_file_num_compaction_trigger = 2;
  o->target_file_size_base = 64 << 10;
  o->max_bytes_for_level_base = 128 << 10;
  o->max_bytes_for_level_multiplier = 4;
  o->compression = kNoCompression;
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_COMPACTION_TEST_UTIL_H_
