#include "tools/db_bench/transaction_sets.h"

#include <cinttypes>
#include <cstdio>
#include <limits>
#include <memory>

#include "strata/iterator.h"
#include "strata/options.h"

namespace strata {
namespace bench {

namespace {

std::string SetPrefix(uint64_t set) {
  char prefix[24];
  std::snprintf(prefix, sizeof(prefix), "%04" PRIu64, set + 1);
  return prefix;
}

// Releases the snapshot when the verification returns.
class SnapshotHolder {
 public:
  explicit SnapshotHolder(DB* db) : db_(db), snapshot_(db->GetSnapshot()) {}
  ~SnapshotHolder() { db_->ReleaseSnapshot(snapshot_); }
  SnapshotHolder(const SnapshotHolder&) = delete;
  SnapshotHolder& operator=(const SnapshotHolder&) = delete;
  const Snapshot* get() const { return snapshot_; }

 private:
  DB* const db_;
  const Snapshot* const snapshot_;
};

}  // namespace

std::string TransactionSetKey(uint64_t set, uint64_t k) {
  return SetPrefix(set) + std::to_string(k);
}

std::string TransactionSetValue(uint64_t n) { return std::to_string(n); }

bool ParseTransactionSetValue(const Slice& value, uint64_t* n) {
  if (value.empty()) return false;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t v = 0;
  for (size_t i = 0; i < value.size(); i++) {
    const char c = value[i];
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (kMax - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *n = v;
  return true;
}

Status VerifyTransactionSets(DB* db, uint64_t sets,
                             std::vector<uint64_t>* sums) {
  sums->assign(sets, 0);
  SnapshotHolder snapshot(db);
  ReadOptions options;
  options.snapshot = snapshot.get();
  for (uint64_t set = 0; set < sets; set++) {
    const std::string prefix = SetPrefix(set);
    std::unique_ptr<Iterator> it(db->NewIterator(options));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      uint64_t n = 0;
      if (!ParseTransactionSetValue(it->value(), &n)) {
        return Status::Corruption("randomtransaction: key " +
                                      it->key().ToString() +
                                      " does not hold a count",
                                  it->value().ToString(/*hex=*/true));
      }
      (*sums)[set] += n;
    }
    if (!it->status().ok()) return it->status();
  }
  for (uint64_t set = 1; set < sets; set++) {
    if ((*sums)[set] != (*sums)[0]) {
      char msg[160];
      std::snprintf(msg, sizeof(msg),
                    "set %" PRIu64 " sums to %" PRIu64 ", set 1 to %" PRIu64,
                    set + 1, (*sums)[set], (*sums)[0]);
      return Status::Corruption("randomtransaction: the sets' sums differ",
                                msg);
    }
  }
  return Status::OK();
}

}  // namespace bench
}  // namespace strata
