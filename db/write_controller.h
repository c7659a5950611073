// Write stalls (docs/write_path.md, "Stalls"): when flushes or compactions
// fall behind, writes are slowed to a delayed write rate or stopped until
// they catch up.
//
// ComputeWriteStall decides, from the state of the memtables and of L0,
// whether writes run normally, are delayed, or stop, and why.
// WriteController turns a delay into sleeps: with a delay in force, the
// writes it is told about are paced so that they average the delayed
// write rate (a zero-burst token bucket: each write of n bytes takes
// n / rate seconds of a virtual clock; the caller sleeps until the clock
// catches up). The first write after a quiet spell is not delayed.
//
// Thread safety: WriteController is used under the DB mutex (one write
// group leader at a time); ComputeWriteStall is a pure function.

#ifndef STRATA_DB_WRITE_CONTROLLER_H_
#define STRATA_DB_WRITE_CONTROLLER_H_

#include <cstdint>
#include <string>

#include "strata/listener.h"  // WriteStallCondition

namespace strata {

struct WriteStallInputs {
  int num_unflushed_memtables = 0;  // active full ones and immutable ones
  int max_write_buffer_number = 2;
  int num_l0_files = 0;
  int level0_slowdown_writes_trigger = 20;
  int level0_stop_writes_trigger = 36;
  bool disable_auto_compactions = false;
};

// RocksDB's rules: stop when max_write_buffer_number memtables wait for
// flush, or (with auto compactions) at level0_stop_writes_trigger L0
// files; delay when all but one memtable are full (only with more than 3
// memtables, so that the default of 2 does not delay every flush), or
// (with auto compactions) at level0_slowdown_writes_trigger L0 files.
// *reason says which, for logs and statistics.
WriteStallCondition ComputeWriteStall(const WriteStallInputs& in,
                                      std::string* reason);

class WriteController {
 public:
  // rate: bytes per second while delayed (0: 16 MiB/s).
  explicit WriteController(uint64_t delayed_write_rate);

  void SetCondition(WriteStallCondition condition);
  WriteStallCondition condition() const { return condition_; }

  // Microseconds the writer of num_bytes at now_micros must sleep first;
  // 0 unless delayed. Accounts for the write as done after that sleep.
  uint64_t GetDelay(uint64_t now_micros, uint64_t num_bytes);

  uint64_t delayed_write_rate() const { return rate_; }

 private:
  const uint64_t rate_;
  WriteStallCondition condition_ = WriteStallCondition::kNormal;
  // The virtual clock: when the writes accounted so far are paid for.
  uint64_t paid_until_micros_ = 0;
};

}  // namespace strata

#endif  // STRATA_DB_WRITE_CONTROLLER_H_
