// Point lookups over memtables through a ReadView with no tables — the
// path every DB Get takes — for the memtable suites.

#ifndef STRATA_TEST_DB_READ_VIEW_TEST_UTIL_H_
#define STRATA_TEST_DB_READ_VIEW_TEST_UTIL_H_

#include <string>

#include "db/dbformat.h"
#include "db/read_view.h"
#include "db/version.h"
#include "memtable/memtable.h"
#include "memtable/memtable_list.h"
#include "strata/merge_operator.h"

namespace strata {
namespace test {

// Holds references on the memtables it reads for its lifetime, as the
// DB's read view does. Get may run on many threads at once (construction
// and destruction Ref and Unref: one thread, no other Ref/Unref at once).
class MemTableReader {
 public:
  // active: the active memtable (null: an empty one); imm: the immutable
  // memtables, newest first (null: none).
  MemTableReader(const InternalKeyComparator& icmp, MemTable* active,
                 MemTableListVersion* imm = nullptr)
      : version_(new Version(&icmp, 1)) {
    view_.mem = active != nullptr ? active : new MemTable(icmp);
    view_.mem->Ref();
    view_.imm = imm != nullptr ? imm : empty_list_.current();
    view_.imm->Ref();
    view_.version = version_;
    view_.version->Ref();
  }
  MemTableReader(const MemTableReader&) = delete;
  MemTableReader& operator=(const MemTableReader&) = delete;
  ~MemTableReader() {
    view_.mem->Unref();
    view_.imm->Unref();
    view_.version->Unref();
  }

  // The value of key at sequence seq, "NOT_FOUND", or the error.
  std::string Get(const std::string& key, SequenceNumber seq,
                  const MergeOperator* merge_operator = nullptr) const {
    ReadView view = view_;
    view.sequence = seq;
    PinnableSlice value;
    const Status s =
        view.Get(ReadOptions(), nullptr, merge_operator, key, &value, nullptr);
    if (s.IsNotFound()) return "NOT_FOUND";
    return s.ok() ? value.ToString() : "ERROR: " + s.ToString();
  }

 private:
  MemTableList empty_list_;
  Version* const version_;
  ReadView view_;
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_READ_VIEW_TEST_UTIL_H_
