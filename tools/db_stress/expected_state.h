// db_stress's expected state: what every key of every column family must
// read as, kept in a file that survives the process being killed at any
// instruction. The file is memory-mapped (Env::NewMemoryMappedFileBuffer)
// and each slot is an atomic 32-bit word of the mapping: a change is in
// the file once its store is done, before the DB operation it describes
// starts or right after it is acknowledged, and the OS keeps the mapped
// pages through a kill. (Through a crash of the machine it need not: the
// crash test simulates power loss in-process, below the DB only.)
//
// Layout: a 16-byte header (magic, number of families, max_key; little
// endian), then the slots in host byte order, family-major.
//
// One 32-bit slot per (family, key):
//
//   bits  0-12  durable base    the state the key is known to have on disk
//   bit   13    durable deleted
//   bits 14-26  latest base     the state of the last write (in flight or
//   bit   27    latest deleted  acknowledged)
//   bit   28    pending         a write of "latest" is in flight
//   bit   29    unsynced        "latest" is acknowledged but may be lost
//                               (sync=false under power loss, or
//                               disable_wal); "durable" is what survives
//   bit   30    many            more than one write since "durable": the
//                               intermediate states are not recorded
//
// The rules (SlotAccepts) after a crash, for the state found in the DB:
// - the durable state is always accepted;
// - with pending or unsynced, the latest state is accepted too;
// - with many, anything well formed for the key is (a value of this key
//   with any base, or no value).
// A key not written since its last sync point (no flag set) must read as
// exactly its durable state. Once verified, the slot is set to what was
// found (Adopt), so every rule starts again from the truth.
//
// Thread safety: ExpectedState's slot accessors are safe from many threads
// for different slots; a slot is read and changed only under its key's
// lock (KeyLocks).

#ifndef STRATA_TOOLS_DB_STRESS_EXPECTED_STATE_H_
#define STRATA_TOOLS_DB_STRESS_EXPECTED_STATE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/env.h"
#include "strata/status.h"

namespace strata {
namespace stress {

struct KeyState {
  uint32_t base = 0;
  bool deleted = true;
  bool operator==(const KeyState& o) const {
    return deleted == o.deleted && (deleted || base == o.base);
  }
};

// ---- Slot rules (pure functions, unit-tested) -------------------------------

// A never-written key: durable and latest deleted, no flags.
constexpr uint32_t kInitialSlot = (1u << 13) | (1u << 27);

KeyState DurableState(uint32_t slot);
KeyState LatestState(uint32_t slot);
bool SlotPending(uint32_t slot);
bool SlotUnsynced(uint32_t slot);
bool SlotMany(uint32_t slot);

// The slot while a write that makes the key next is in flight.
uint32_t SlotBeginWrite(uint32_t slot, KeyState next);
// The slot once that write is acknowledged. durable: the write survives a
// crash now (WAL on, and sync=true or no power loss to simulate).
uint32_t SlotCommitWrite(uint32_t slot, bool durable);
// The slot after a sync point (SyncWAL, or Flush with disable_wal) that
// followed the write's acknowledgement.
uint32_t SlotMarkDurable(uint32_t slot);
// Whether found (found_wellformed false: a value that is not this key's)
// is allowed by slot.
bool SlotAccepts(uint32_t slot, KeyState found, bool found_wellformed);
// The slot of a key verified to be in state found.
uint32_t SlotAdopt(KeyState found);
// For messages: "base 12", "deleted", "pending: base 3 or deleted", ...
std::string DescribeSlot(uint32_t slot);
std::string DescribeState(KeyState s);

// ---- The file ---------------------------------------------------------------

class ExpectedState {
 public:
  // Opens (or creates, or with reset rewrites) dir/EXPECTED for
  // num_families x max_key slots. An existing file of another shape is
  // InvalidArgument (run with --destroy_db_initially).
  static Status Open(Env* env, const std::string& dir, int num_families,
                     int64_t max_key, bool reset,
                     std::unique_ptr<ExpectedState>* result);

  uint32_t Get(int family, int64_t key) const {
    return slots_[Index(family, key)].load(std::memory_order_relaxed);
  }
  // Sets the slot (in the file).
  void Set(int family, int64_t key, uint32_t slot) {
    slots_[Index(family, key)].store(slot, std::memory_order_relaxed);
  }

  int num_families() const { return num_families_; }
  int64_t max_key() const { return max_key_; }

 private:
  ExpectedState(std::unique_ptr<MemoryMappedFileBuffer> mapping,
                int num_families, int64_t max_key);
  size_t Index(int family, int64_t key) const {
    return static_cast<size_t>(family) * static_cast<size_t>(max_key_) +
           static_cast<size_t>(key);
  }

  const std::unique_ptr<MemoryMappedFileBuffer> mapping_;
  const int num_families_;
  const int64_t max_key_;
  std::atomic<uint32_t>* const slots_;  // in the mapping, after the header
};

// ---- Per-key locks ----------------------------------------------------------

// One mutex per 2^log2_keys_per_lock consecutive keys of a family. A
// thread that needs several takes them in ascending (family, group) order,
// so two threads never wait on each other in a cycle.
class KeyLocks {
 public:
  KeyLocks(int num_families, int64_t max_key, int log2_keys_per_lock);

  // The locks covering keys (family, key) of the list, held until the
  // guard goes.
  class Guard {
   public:
    Guard(KeyLocks* locks,
          std::vector<std::pair<int, int64_t>> keys) NO_THREAD_SAFETY_ANALYSIS;
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    ~Guard() NO_THREAD_SAFETY_ANALYSIS;

   private:
    std::vector<port::Mutex*> held_;
  };

 private:
  const int64_t groups_per_family_;
  const int shift_;
  std::vector<port::Mutex> mutexes_;
};

}  // namespace stress
}  // namespace strata

#endif  // STRATA_TOOLS_DB_STRESS_EXPECTED_STATE_H_
