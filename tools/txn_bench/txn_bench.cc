// db_bench's randomtransaction as a RocksDB program, to compare engines
// where RocksDB 7.8.3's own db_bench cannot run it: Debian's build crashes
// on --optimistic_transaction_db (SIGSEGV) and fails an assertion with
// --transaction_db and several threads unless pipelined writes are off.
// Written against RocksDB's API; tools/txn_bench/run.sh builds it as is
// against Debian's librocksdb and, with "rocksdb" replaced by "strata"
// (as test/api_compat does), against strata, so both engines run the
// same code.
//
// The workload is strata db_bench's (docs/transactions.md, "db_bench
// randomtransaction"): a fill of --num random keys (16 bytes, values of
// 100), then --threads threads of --num transactions each over two sets
// (GetForUpdate, count + increment, Put; pessimistic transactions named
// and prepared nine times in ten), Busy/TimedOut/TryAgain counted as
// aborts; then the check that both sets sum alike. Prints
//   randomtransaction : <ops/s> ops/sec <seconds> seconds <ops> operations; (
//   transactions:N aborts:M)
// and exits 1 when the sums differ or an operation fails otherwise.
//
// Usage: txn_bench <db dir> <pessimistic|optimistic> [num] [threads]
// (the db dir is destroyed first).

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/optimistic_transaction_db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"

namespace {

constexpr int kSets = 2;

std::string SetKey(int set, uint64_t k) {
  char prefix[8];
  std::snprintf(prefix, sizeof(prefix), "%04d", set + 1);
  return prefix + std::to_string(k);
}

bool Failed(const rocksdb::Status& s) {
  return s.IsBusy() || s.IsTimedOut() || s.IsTryAgain();
}

struct Counts {
  std::atomic<int64_t> committed{0};
  std::atomic<int64_t> aborted{0};
  std::atomic<bool> error{false};
};

void Worker(rocksdb::TransactionDB* txn_db,
            rocksdb::OptimisticTransactionDB* occ_db, uint64_t num,
            uint64_t seed, Counts* counts) {
  std::mt19937_64 rand(seed);
  rocksdb::WriteOptions write_options;
  rocksdb::TransactionOptions txn_options;
  txn_options.lock_timeout = 100;
  rocksdb::Transaction* txn = nullptr;
  static std::atomic<uint64_t> next_name{0};
  std::string value;
  for (uint64_t i = 0; i < num; i++) {
    txn =
        txn_db != nullptr
            ? txn_db->BeginTransaction(write_options, txn_options, txn)
            : occ_db->BeginTransaction(
                  write_options, rocksdb::OptimisticTransactionOptions(), txn);
    const bool two_phase = txn_db != nullptr && rand() % 10 != 0;
    rocksdb::Status s;
    if (two_phase) s = txn->SetName("t" + std::to_string(next_name++));
    const uint64_t increment = rand() % 100 + 1;
    for (int set = 0; s.ok() && set < kSets; set++) {
      const std::string key = SetKey(set, rand() % num);
      s = txn->GetForUpdate(rocksdb::ReadOptions(), key, &value);
      uint64_t count = 0;
      if (s.IsNotFound()) {
        s = rocksdb::Status::OK();
      } else if (s.ok()) {
        count = std::strtoull(value.c_str(), nullptr, 10);
      }
      if (s.ok()) s = txn->Put(key, std::to_string(count + increment));
    }
    if (s.ok() && two_phase) s = txn->Prepare();
    if (s.ok()) s = txn->Commit();
    if (s.ok()) {
      counts->committed++;
    } else if (Failed(s)) {
      txn->Rollback();
      counts->aborted++;
    } else {
      std::fprintf(stderr, "transaction: %s\n", s.ToString().c_str());
      counts->error = true;
      break;
    }
  }
  delete txn;
}

uint64_t SumOfSet(rocksdb::DB* db, const rocksdb::Snapshot* snapshot, int set) {
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  const std::string prefix = SetKey(set, 0).substr(0, 4);
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(options));
  uint64_t sum = 0;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
       it->Next()) {
    sum += std::strtoull(it->value().ToString().c_str(), nullptr, 10);
  }
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: txn_bench <db> <pessimistic|optimistic> [num] "
                 "[threads]\n");
    return 2;
  }
  const std::string path = argv[1];
  const bool pessimistic = std::string(argv[2]) == "pessimistic";
  const uint64_t num = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 100000;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;

  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kNoCompression;
  rocksdb::DestroyDB(path, options);
  rocksdb::TransactionDB* txn_db = nullptr;
  rocksdb::OptimisticTransactionDB* occ_db = nullptr;
  rocksdb::Status s;
  rocksdb::DB* base = nullptr;
  if (pessimistic) {
    rocksdb::TransactionDBOptions txn_db_options;
    txn_db_options.transaction_lock_timeout = 100;
    s = rocksdb::TransactionDB::Open(options, txn_db_options, path, &txn_db);
    if (s.ok()) base = txn_db->GetBaseDB();
  } else {
    s = rocksdb::OptimisticTransactionDB::Open(options, path, &occ_db);
    if (s.ok()) base = occ_db->GetBaseDB();
  }
  if (!s.ok()) {
    std::fprintf(stderr, "open: %s\n", s.ToString().c_str());
    return 1;
  }

  // fillrandom's keys and values, on the base DB.
  std::mt19937_64 fill_rand(1);
  const std::string fill_value(100, 'v');
  for (uint64_t i = 0; i < num && s.ok(); i++) {
    char key[32];
    std::snprintf(key, sizeof(key), "%016" PRIu64, fill_rand() % num);
    s = base->Put(rocksdb::WriteOptions(), key, fill_value);
  }

  Counts counts;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; t++) {
    workers.emplace_back(Worker, txn_db, occ_db, num, 100 + t, &counts);
  }
  for (std::thread& w : workers) w.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const int64_t ops = counts.committed + counts.aborted;
  std::printf("randomtransaction : %.0f ops/sec %.3f seconds %" PRId64
              " operations; ( transactions:%" PRId64 " aborts:%" PRId64 ")\n",
              static_cast<double>(ops) / seconds, seconds, ops,
              counts.committed.load(), counts.aborted.load());

  const rocksdb::Snapshot* snapshot = base->GetSnapshot();
  const uint64_t sum0 = SumOfSet(base, snapshot, 0);
  const uint64_t sum1 = SumOfSet(base, snapshot, 1);
  base->ReleaseSnapshot(snapshot);
  std::printf("sums %" PRIu64 " %" PRIu64 "\n", sum0, sum1);
  delete txn_db;
  delete occ_db;
  return counts.error || sum0 != sum1 ? 1 : 0;
}
