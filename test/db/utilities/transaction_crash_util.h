// Shared by the two sides of the transaction crash test
// (transaction_crash_test.cc, the parent; transaction_crash_child.cc, the
// child it kills): the bank's accounts and threads, the keys, and the
// options both open the DB with.

#ifndef STRATA_TEST_DB_UTILITIES_TRANSACTION_CRASH_UTIL_H_
#define STRATA_TEST_DB_UTILITIES_TRANSACTION_CRASH_UTIL_H_

#include <cstdio>
#include <string>

#include "strata/options.h"

namespace strata {
namespace test {

constexpr int kAccounts = 32;
constexpr int kThreads = 8;
constexpr int kPausers = 2;  // the last threads pause after Prepare
constexpr int kInitialBalance = 1000;

inline std::string AccountKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "acct%03d", i);
  return buf;
}

inline std::string CounterKey(int thread) {
  return "ctr" + std::to_string(thread);
}

// The counter's value: n, padded so that memtables fill (and flush, and
// WALs switch) every few transfers, many times during a long pause.
inline std::string CounterValue(int n) {
  return std::to_string(n) + ":" + std::string(1000, 'x');
}

inline std::string AckName(const std::string& dir, int thread) {
  return dir + "/ack" + std::to_string(thread);
}

// Thread t's transfer n of a round, at its attempt-th try (a try that
// meets a deadlock or a lock timeout is rolled back, its name freed).
inline std::string TransferName(int round, int t, int n, int attempt) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "r%d-t%d-n%d-a%d", round, t, n, attempt);
  return buf;
}

// A tree that flushes and compacts all the time.
inline Options BankOptions() {
  Options options;
  options.create_if_missing = true;
  options.allow_2pc = true;
  options.write_buffer_size = 8 << 10;
  options.level0_file_num_compaction_trigger = 2;
  options.target_file_size_base = 64 << 10;
  options.max_bytes_for_level_base = 128 << 10;
  options.max_bytes_for_level_multiplier = 2;
  options.compression = kNoCompression;
  return options;
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_UTILITIES_TRANSACTION_CRASH_UTIL_H_
