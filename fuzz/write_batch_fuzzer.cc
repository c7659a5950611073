// WriteBatch from bytes (include/strata/write_batch.h): the constructor
// from a rep, Iterate, and DB::Write into an in-memory DB, which must
// refuse a malformed batch or apply a well-formed one.
//
// Input: the batch's rep.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "db/write_batch_internal.h"
#include "fuzz/fuzz_util.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/write_batch.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  const std::string rep(reinterpret_cast<const char*>(data), size);
  fuzz::ParseWriteBatch(rep);

  WriteBatch batch(rep);
  batch.Count();
  batch.HasMerge();
  batch.HasDeleteRange();
  // A batch from outside may be extended only if it is counted right.
  batch.Put("appended", "value");

  std::unique_ptr<Env> env = fuzz::NewEnvWithFiles(fuzz::FreshDbFiles());
  Options options;
  options.env = env.get();
  options.disable_auto_compactions = true;
  // The smallest memtable: its arena is allocated (and under ASan filled)
  // for every input, and recovery flushes sooner.
  options.write_buffer_size = 64 << 10;
  std::unique_ptr<DB> db;
  if (!DB::Open(options, fuzz::kDbName, &db).ok()) abort();
  const Status s = db->Write(WriteOptions(), &batch);
  if (!s.ok() && !s.IsCorruption() && !s.IsNotSupported() &&
      !s.IsInvalidArgument()) {
    fprintf(stderr, "DB::Write: %s\n", s.ToString().c_str());
    abort();
  }
  {
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
  }
  // What the WAL holds recovers.
  db->Close();
  db.reset();
  const Status reopen =
      fuzz::OpenAndReadDb(env.get(), WALRecoveryMode::kAbsoluteConsistency);
  if (!reopen.ok()) {
    fprintf(stderr, "reopen after DB::Write %s: %s\n", s.ToString().c_str(),
            reopen.ToString().c_str());
    abort();
  }
  return 0;
}
