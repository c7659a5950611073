// Load for the tests of live copies (checkpoints, backups): writers that
// put batches writing one key into each column family, each writer's keys
// numbered in order, and readers scanning a family meanwhile; and the
// check that a copy holds, for each writer, keys 0..n-1 in every family
// with the same n (a batch is all or nothing).

#ifndef STRATA_TEST_DB_UTILITIES_FAMILY_WRITERS_H_
#define STRATA_TEST_DB_UTILITIES_FAMILY_WRITERS_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "strata/db.h"

namespace strata {
namespace test {

// Writer writer's i-th key: "w<writer>-<i, six digits>".
std::string WriterKey(int writer, int i);

class FamilyWriters {
 public:
  // Starts writers writers, each putting its keys into every family of
  // handles, and readers readers scanning handles[1].
  FamilyWriters(DB* db, const std::vector<ColumnFamilyHandle*>& handles,
                int writers, int readers);
  ~FamilyWriters() { Stop(); }

  // Stops and joins the threads; returns how many writes and scans failed.
  int Stop();

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> failures_{0};
  std::vector<std::thread> threads_;
};

// How many batches of each of writers writers the copy db holds, in
// total. A test failure if a writer's keys in some family are not
// 0..n-1, or not the same n in every family of handles.
uint64_t CountWriterBatches(DB* db,
                            const std::vector<ColumnFamilyHandle*>& handles,
                            int writers);

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_UTILITIES_FAMILY_WRITERS_H_
