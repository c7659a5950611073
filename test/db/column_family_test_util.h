// Shared by the column family tests: a DB in a temp directory opened with
// named families, its handles (index 0: the default family's, then the
// others in the order opened or created), and per-family helpers.

#ifndef STRATA_TEST_DB_COLUMN_FAMILY_TEST_UTIL_H_
#define STRATA_TEST_DB_COLUMN_FAMILY_TEST_UTIL_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {

class FamilyDB {
 public:
  explicit FamilyDB(Env* env = Env::Default())
      : dir_(env, "cfdb"), name_(dir_.File("db")) {
    options_.env = env;
    options_.create_if_missing = true;
  }
  ~FamilyDB() { Close(); }

  // Opens with the default family and names (asserting success).
  void Open(const std::vector<std::string>& names) {
    Status s = OpenStatus(names);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  Status OpenStatus(const std::vector<std::string>& names) {
    Close();
    std::vector<ColumnFamilyDescriptor> families = {
        ColumnFamilyDescriptor(kDefaultColumnFamilyName, options_)};
    for (const std::string& n : names) {
      const auto it = family_options_.find(n);
      families.emplace_back(n, it == family_options_.end()
                                   ? ColumnFamilyOptions(options_)
                                   : it->second);
    }
    return DB::Open(options_, name_, families, &handles_, &db_);
  }
  void Reopen(const std::vector<std::string>& names) { Open(names); }
  // Destroys the handles and deletes the DB.
  void Close() {
    if (db_ == nullptr) return;
    for (ColumnFamilyHandle* h : handles_) {
      EXPECT_TRUE(db_->DestroyColumnFamilyHandle(h).ok());
    }
    handles_.clear();
    delete db_;
    db_ = nullptr;
  }
  // Creates families (appended to handles_).
  void Create(const std::vector<std::string>& names) {
    for (const std::string& n : names) {
      ColumnFamilyHandle* h = nullptr;
      Status s = db_->CreateColumnFamily(options_, n, &h);
      ASSERT_TRUE(s.ok()) << s.ToString();
      handles_.push_back(h);
    }
  }

  Status Put(size_t cf, const std::string& k, const std::string& v) {
    return db_->Put(WriteOptions(), handles_[cf], k, v);
  }
  // The value, "NOT_FOUND", or the error.
  std::string Get(size_t cf, const std::string& k) {
    std::string value;
    Status s = db_->Get(ReadOptions(), handles_[cf], k, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    return s.ok() ? value : s.ToString();
  }
  // "k1,k2," in iteration order.
  std::string Keys(size_t cf) {
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), handles_[cf]));
    std::string r;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      r += it->key().ToString() + ",";
    }
    if (!it->status().ok()) r += it->status().ToString();
    return r;
  }
  Status WaitForBackgroundWork() {
    return static_cast<DBImpl*>(db_)->WaitForBackgroundWork();
  }

  TempDir dir_;
  std::string name_;
  Options options_;
  // Options of named families other than options_.
  std::map<std::string, ColumnFamilyOptions> family_options_;
  DB* db_ = nullptr;
  std::vector<ColumnFamilyHandle*> handles_;
};

class ColumnFamilyTest : public testing::Test, public FamilyDB {};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_COLUMN_FAMILY_TEST_UTIL_H_
