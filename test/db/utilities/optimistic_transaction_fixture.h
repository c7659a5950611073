// The fixture of the OptimisticTransactionDB suites: an open DB (a
// string-append merge operator) in a fresh directory, and helpers that
// read through it and through a transaction.

#ifndef STRATA_TEST_DB_UTILITIES_OPTIMISTIC_TRANSACTION_FIXTURE_H_
#define STRATA_TEST_DB_UTILITIES_OPTIMISTIC_TRANSACTION_FIXTURE_H_

#include <string>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {

class OptimisticTransactionTest : public testing::Test {
 protected:
  OptimisticTransactionTest() : dir_(Env::Default(), "otxn") {
    options_.create_if_missing = true;
    options_.merge_operator = MergeOperators::CreateStringAppendOperator(',');
    EXPECT_TRUE(
        OptimisticTransactionDB::Open(options_, dir_.path(), &db_).ok());
  }
  ~OptimisticTransactionTest() override { delete db_; }

  Transaction* Begin(bool set_snapshot = false) {
    OptimisticTransactionOptions txn_options;
    txn_options.set_snapshot = set_snapshot;
    return db_->BeginTransaction(WriteOptions(), txn_options);
  }

  std::string DbGet(const std::string& key, ColumnFamilyHandle* cf = nullptr) {
    std::string value;
    Status s = db_->Get(ReadOptions(), cf ? cf : db_->DefaultColumnFamily(),
                        key, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }

  static std::string TxnGet(Transaction* txn, const std::string& key,
                            const ReadOptions& ro = ReadOptions()) {
    std::string value;
    Status s = txn->Get(ro, key, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }

  // "k=v k=v" through it in the direction asked.
  static std::string Scan(Iterator* it, bool forward) {
    std::string out;
    for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
         forward ? it->Next() : it->Prev()) {
      if (!out.empty()) out += " ";
      out += it->key().ToString() + "=" + it->value().ToString();
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return out;
  }

  void Put(const std::string& key, const std::string& value) {
    ASSERT_TRUE(db_->Put(WriteOptions(), key, value).ok());
  }

  TempDir dir_;
  Options options_;
  OptimisticTransactionDB* db_ = nullptr;
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_UTILITIES_OPTIMISTIC_TRANSACTION_FIXTURE_H_
