// The child side of the transaction crash test (transaction_crash_test.cc):
// eight threads moving money in named, prepared, then committed
// transactions until the process is killed, acknowledging each Prepare
// and each Commit in the thread's side file once it returns.

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "strata/env.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/transaction_db.h"
#include "test/db/utilities/transaction_crash_util.h"
#include "test/util/subprocess.h"

namespace strata {
namespace test {
namespace {

// Thread t's transfers until the process is killed. Any unexpected
// status ends the process with a code the parent reports.
void TransferUntilKilled(TransactionDB* db, const WriteOptions& write_options,
                         int round, int t, unsigned seed,
                         const std::string& ack_name) {
  std::unique_ptr<WritableFile> ack;
  if (!Env::Default()->NewWritableFile(ack_name, &ack, EnvOptions()).ok()) {
    std::_Exit(3);
  }
  auto acknowledge = [&ack](char what, int n) {
    const std::string line = what + std::to_string(n) + "\n";
    if (!ack->Append(line).ok() || !ack->Flush().ok()) std::_Exit(4);
  };
  std::string counter;
  Status s = db->Get(ReadOptions(), CounterKey(t), &counter);
  if (!s.ok() && !s.IsNotFound()) std::_Exit(5);
  int n = s.ok() ? std::stoi(counter) + 1 : 1;
  std::mt19937 rng(seed + t);
  TransactionOptions txn_options;
  txn_options.deadlock_detect = true;
  txn_options.lock_timeout = 1000;
  Transaction* txn = nullptr;
  for (int attempt = 0;; attempt++) {
    const int from = rng() % kAccounts;
    const int to = (from + 1 + rng() % (kAccounts - 1)) % kAccounts;
    const int amount = 1 + rng() % 50;  // never 0: each write changes
    txn = db->BeginTransaction(write_options, txn_options, txn);
    s = txn->SetName(TransferName(round, t, n, attempt));
    std::string a, b;
    if (s.ok()) s = txn->GetForUpdate(ReadOptions(), AccountKey(from), &a);
    if (s.ok()) s = txn->GetForUpdate(ReadOptions(), AccountKey(to), &b);
    if (s.ok()) {
      s = txn->Put(AccountKey(from), std::to_string(std::stoll(a) - amount));
    }
    if (s.ok()) {
      s = txn->Put(AccountKey(to), std::to_string(std::stoll(b) + amount));
    }
    if (s.ok()) s = txn->Put(CounterKey(t), CounterValue(n));
    if (s.IsBusy() || s.IsTimedOut()) {  // a deadlock or a lock timeout
      if (!txn->Rollback().ok()) std::_Exit(6);
      continue;
    }
    if (s.ok()) s = txn->Prepare();
    if (!s.ok()) std::_Exit(7);
    acknowledge('p', n);
    if (t >= kThreads - kPausers) {
      // The last one's pauses span flushes (and WAL switches): the WAL
      // holding its section must be kept.
      const int ms = t == kThreads - 1 ? 100 + rng() % 200 : 20 + rng() % 40;
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    }
    if (!txn->Commit().ok()) std::_Exit(8);
    acknowledge('c', n);
    n++;
  }
}

// args: DB, ack directory, round, sync (0/1), seed.
STRATA_TEST_CHILD(TransfersUntilKilled) {
  TransactionDB* raw = nullptr;
  if (!TransactionDB::Open(BankOptions(), TransactionDBOptions(), args.at(0),
                           &raw)
           .ok()) {
    return 2;
  }
  std::unique_ptr<TransactionDB> db(raw);
  std::vector<Transaction*> prepared;
  db->GetAllPreparedTransactions(&prepared);
  if (!prepared.empty()) return 10;  // the parent resolved them all
  WriteOptions write_options;
  write_options.sync = args.at(3) == "1";
  const int round = std::stoi(args.at(2));
  const unsigned seed = std::stoul(args.at(4));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back(TransferUntilKilled, db.get(), write_options, round, t,
                         seed, AckName(args.at(1), t));
  }
  for (std::thread& t : threads) t.join();
  return 0;
}

}  // namespace
}  // namespace test
}  // namespace strata
