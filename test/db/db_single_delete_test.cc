// SingleDelete of a key that is put, single-deleted and put again (what
// its contract allows: one Put since the previous SingleDelete) must stay
// deleted through flushes and compactions, also when a compaction under
// a snapshot sees the newer Put and the single deletion in one stripe and
// the Put that deletion was written for in the stripe below.
//
// Found by tools/db_crashtest.py (db_stress's no-overwrite keys): the
// compaction dropped the single deletion as hidden by the newer Put and
// kept the older Put for the snapshot; once the snapshot was gone, the
// next single deletion cancelled the newer Put and the old value came
// back.

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

TEST(DBSingleDeleteTest, HiddenSingleDeleteStillCancelsItsOlderPut) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  Options options;
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(options, dir.path() + "/db", &db).ok());
  const WriteOptions wo;

  ASSERT_TRUE(db->Put(wo, "k", "v1").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  // The snapshot reads v1: v1 is in an older stripe than what follows.
  const Snapshot* snapshot = db->GetSnapshot();
  ASSERT_TRUE(db->SingleDelete(wo, "k").ok());  // cancels v1
  ASSERT_TRUE(db->Put(wo, "k", "v2").ok());
  // v2 and the single deletion in one stripe, v2 on top, and v1 below
  // for the snapshot, all in one compaction.
  ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  db->ReleaseSnapshot(snapshot);
  ASSERT_TRUE(db->SingleDelete(wo, "k").ok());  // cancels v2
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());

  std::string value;
  EXPECT_TRUE(db->Get(ReadOptions(), "k", &value).IsNotFound()) << value;
  ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  Status s = db->Get(ReadOptions(), "k", &value);
  EXPECT_TRUE(s.IsNotFound())
      << "after the compaction k reads " << (s.ok() ? value : s.ToString());
}

}  // namespace
}  // namespace strata
