// randomtransaction: read-modify-write transactions over the sets of
// transaction_sets.h, on a TransactionDB or an OptimisticTransactionDB,
// and the check that they stayed atomic.
//
// Each operation is one transaction: for every set, a random key of the
// set read with GetForUpdate, a random increment (the same for every
// set) added to its count (a missing key counts 0) and written back. A
// pessimistic transaction is named and prepared before its commit nine
// times in ten (two-phase commit, as RocksDB's db_bench exercises it).
// A transaction that fails as transactions may — Busy (a conflict, a
// deadlock, a lock limit), TimedOut (a lock wait), TryAgain (the history a
// conflict check needs is gone) — is rolled back, counted as an abort and
// not retried; any other error stops the benchmark.

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "tools/db_bench/transaction_sets.h"
#include "tools/db_bench/workloads.h"

namespace strata {
namespace bench {

namespace {

bool IsTransactionFailure(const Status& s) {
  return s.IsBusy() || s.IsTimedOut() || s.IsTryAgain();
}

// The largest increment; any positive bound keeps the sets' sums equal.
constexpr uint64_t kMaxIncrement = 100;

}  // namespace

void Benchmark::RandomTransaction(ThreadState* thread) {
  Duration duration(env_, flags_.duration, readwrites_);
  WriteOptions write_options = write_options_;
  TransactionOptions txn_options;
  txn_options.lock_timeout =
      static_cast<int64_t>(flags_.transaction_lock_timeout);
  Transaction* txn = nullptr;
  int64_t bytes = 0;
  int64_t transactions = 0;
  int64_t aborts = 0;
  while (!duration.Done(1)) {
    DrawDbChoice(thread);
    // The previous transaction's object is reused, as RocksDB's db_bench.
    txn = txn_db_ != nullptr
              ? txn_db_->BeginTransaction(write_options, txn_options, txn)
              : opt_txn_db_->BeginTransaction(
                    write_options, OptimisticTransactionOptions(), txn);
    Status error;
    const bool committed = DoRandomTransaction(thread, txn, &bytes, &error);
    thread->stats.FinishedOps(1, OpType::kOthers);
    if (!error.ok()) {
      Fail(thread, "randomtransaction", error);
      break;
    }
    if (committed) {
      transactions++;
    } else {
      aborts++;
    }
  }
  delete txn;
  thread->stats.AddBytes(bytes);
  thread->shared->transactions.fetch_add(transactions);
  thread->shared->aborts.fetch_add(aborts);
}

bool Benchmark::DoRandomTransaction(ThreadState* thread, Transaction* txn,
                                    int64_t* bytes, Status* error) {
  if (flags_.transaction_set_snapshot) txn->SetSnapshot();
  const bool two_phase = txn_db_ != nullptr && thread->rand.Next() % 10 != 0;
  Status s;
  if (two_phase) {
    // Names must be unique among live transactions: a process-wide count.
    static std::atomic<uint64_t> next_name{0};
    s = txn->SetName("rtxn" + std::to_string(next_name.fetch_add(1)));
  }
  const uint64_t increment = thread->rand.Next() % kMaxIncrement + 1;
  std::string value;
  int64_t written = 0;
  for (uint64_t set = 0; s.ok() && set < flags_.transaction_sets; set++) {
    const std::string key = TransactionSetKey(
        set, thread->rand.Next() % static_cast<uint64_t>(num_));
    s = txn->GetForUpdate(read_options_, key, &value);
    uint64_t count = 0;
    if (s.IsNotFound()) {
      s = Status::OK();
    } else if (s.ok() && !ParseTransactionSetValue(value, &count)) {
      s = Status::Corruption("randomtransaction: key " + key +
                             " does not hold a count");
    }
    if (!s.ok()) break;
    if (flags_.transaction_sleep > 0) {
      env_->SleepForMicroseconds(
          static_cast<int>(thread->rand.Next() %
                           static_cast<uint64_t>(flags_.transaction_sleep)));
    }
    value = TransactionSetValue(count + increment);
    s = txn->Put(key, value);
    written += static_cast<int64_t>(key.size() + value.size());
  }
  if (s.ok() && two_phase) s = txn->Prepare();
  if (s.ok()) s = txn->Commit();
  if (s.ok()) {
    *bytes += written;
    return true;
  }
  if (IsTransactionFailure(s)) {
    // The transaction is over either way; a failed rollback leaves
    // nothing written, which the verification would notice otherwise.
    const Status rollback = txn->Rollback();
    (void)rollback;
  } else {
    *error = s;
  }
  return false;
}

Status Benchmark::VerifyRandomTransaction() {
  std::vector<uint64_t> sums;
  const Status s = VerifyTransactionSets(db_, flags_.transaction_sets, &sums);
  if (!s.ok()) {
    std::fprintf(stdout, "RandomTransactionVerify FAILED: %s\n",
                 s.ToString().c_str());
    std::fflush(stdout);
    return s;
  }
  std::fprintf(stdout, "RandomTransactionVerify Success.\n");
  std::fflush(stdout);
  return s;
}

}  // namespace bench
}  // namespace strata
