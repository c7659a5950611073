// Helpers of the WriteBatch suites (write_batch_test.cc, the API;
// write_batch_cf_test.cc, column families; write_batch_decode_test.cc,
// decoding damaged bytes): a handler that records every call as text, a
// column family handle, and batches with known contents.

#ifndef STRATA_TEST_DB_WRITE_BATCH_TEST_UTIL_H_
#define STRATA_TEST_DB_WRITE_BATCH_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/status.h"
#include "strata/write_batch.h"

namespace strata {
namespace test {

// Records every call as text, through the column-family forms.
class Recorder : public WriteBatch::Handler {
 public:
  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, "Put(" + key.ToString() + "," + value.ToString() + ")");
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, "Delete(" + key.ToString() + ")");
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, "SingleDelete(" + key.ToString() + ")");
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin,
                       const Slice& end) override {
    return Add(cf,
               "DeleteRange(" + begin.ToString() + "," + end.ToString() + ")");
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, "Merge(" + key.ToString() + "," + value.ToString() + ")");
  }
  void LogData(const Slice& blob) override {
    seen.push_back("LogData(" + blob.ToString() + ")");
  }
  Status MarkBeginPrepare(bool) override { return Marker("BeginPrepare"); }
  Status MarkEndPrepare(const Slice& xid) override {
    return Marker("EndPrepare(" + xid.ToString() + ")");
  }
  Status MarkCommit(const Slice& xid) override {
    return Marker("Commit(" + xid.ToString() + ")");
  }
  Status MarkRollback(const Slice& xid) override {
    return Marker("Rollback(" + xid.ToString() + ")");
  }
  Status MarkNoop(bool empty_batch) override {
    return Marker(empty_batch ? "Noop(empty)" : "Noop");
  }
  bool Continue() override {
    return stop_after < 0 || static_cast<int>(seen.size()) < stop_after;
  }

  std::vector<std::string> seen;
  int stop_after = -1;  // Continue() is false once this many were seen
  int fail_at = -1;     // this update returns Aborted

 private:
  Status Marker(std::string call) {
    seen.push_back(std::move(call));
    return Status::OK();
  }
  Status Add(uint32_t cf, std::string call) {
    if (cf != 0) call += "@" + std::to_string(cf);
    if (static_cast<int>(seen.size()) == fail_at) {
      return Status::Aborted("fail_at");
    }
    seen.push_back(std::move(call));
    return Status::OK();
  }
};

// A handle that only knows its id: all a WriteBatch asks of one.
class FakeHandle : public ColumnFamilyHandle {
 public:
  explicit FakeHandle(uint32_t id) : id_(id), name_(std::to_string(id)) {}
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return id_; }
  Status GetDescriptor(ColumnFamilyDescriptor*) override {
    return Status::NotSupported("FakeHandle");
  }
  const Comparator* GetComparator() const override {
    return BytewiseComparator();
  }

 private:
  const uint32_t id_;
  const std::string name_;
};

inline std::vector<std::string> Contents(const WriteBatch& b,
                                         Status* s = nullptr) {
  Recorder r;
  Status st = b.Iterate(&r);
  if (s != nullptr) {
    *s = st;
  } else {
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  return r.seen;
}

// A batch with every record type; the LogData is not last, so that every
// proper prefix of it is missing a counted record.
inline WriteBatch EveryType() {
  WriteBatch b;
  EXPECT_TRUE(b.Put("k1", "v1").ok());
  EXPECT_TRUE(b.Delete("k2").ok());
  EXPECT_TRUE(b.PutLogData("blob").ok());
  EXPECT_TRUE(b.SingleDelete("k3").ok());
  EXPECT_TRUE(b.DeleteRange("a", "z").ok());
  EXPECT_TRUE(b.Merge("k4", "m").ok());
  return b;
}

inline const std::vector<std::string> kEveryType = {
    "Put(k1,v1)",       "Delete(k2)",       "LogData(blob)",
    "SingleDelete(k3)", "DeleteRange(a,z)", "Merge(k4,m)"};

// Iterate of a batch holding bytes, which Validate must judge alike.
inline Status IterateBytes(const std::string& bytes) {
  WriteBatch b;
  Status s = WriteBatchInternal::SetContents(&b, bytes);
  if (!s.ok()) return s;
  Recorder r;
  s = b.Iterate(&r);
  EXPECT_EQ(s.ToString(), WriteBatchInternal::Validate(&b).ToString());
  return s;
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_WRITE_BATCH_TEST_UTIL_H_
