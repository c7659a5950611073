#include "tools/db_stress/expected_state.h"

#include <algorithm>
#include <utility>

#include "tools/db_stress/values.h"
#include "util/coding.h"

namespace strata {
namespace stress {

namespace {

constexpr uint32_t kBaseMask = kValueBaseLimit - 1;
constexpr int kLatestShift = 14;
constexpr uint32_t kStateMask = (1u << 14) - 1;  // base + deleted
constexpr uint32_t kDeletedBit = 1u << 13;
constexpr uint32_t kPendingBit = 1u << 28;
constexpr uint32_t kUnsyncedBit = 1u << 29;
constexpr uint32_t kManyBit = 1u << 30;

// Header: magic, then the shape the slots were laid out for.
constexpr uint32_t kMagic = 0x53545253;  // "SRTS"
constexpr size_t kHeaderSize = 16;

uint32_t Encode(KeyState s) {
  return s.deleted ? kDeletedBit : (s.base & kBaseMask);
}

KeyState Decode(uint32_t bits) {
  KeyState s;
  s.deleted = (bits & kDeletedBit) != 0;
  s.base = s.deleted ? 0 : (bits & kBaseMask);
  return s;
}

}  // namespace

KeyState DurableState(uint32_t slot) { return Decode(slot & kStateMask); }
KeyState LatestState(uint32_t slot) {
  return Decode((slot >> kLatestShift) & kStateMask);
}
bool SlotPending(uint32_t slot) { return (slot & kPendingBit) != 0; }
bool SlotUnsynced(uint32_t slot) { return (slot & kUnsyncedBit) != 0; }
bool SlotMany(uint32_t slot) { return (slot & kManyBit) != 0; }

uint32_t SlotBeginWrite(uint32_t slot, KeyState next) {
  uint32_t flags = slot & (kUnsyncedBit | kManyBit);
  // An unsynced latest state that is overwritten becomes an intermediate
  // state nobody records.
  if ((slot & kUnsyncedBit) != 0) flags |= kManyBit;
  return (slot & kStateMask) | (Encode(next) << kLatestShift) | flags |
         kPendingBit;
}

uint32_t SlotCommitWrite(uint32_t slot, bool durable) {
  slot &= ~kPendingBit;
  if (durable) return SlotAdopt(LatestState(slot));
  return slot | kUnsyncedBit;
}

uint32_t SlotMarkDurable(uint32_t slot) {
  if ((slot & kPendingBit) != 0) return slot;
  return SlotAdopt(LatestState(slot));
}

bool SlotAccepts(uint32_t slot, KeyState found, bool found_wellformed) {
  if (SlotMany(slot)) return found_wellformed;
  if (!found_wellformed) return false;
  if (found == DurableState(slot)) return true;
  return (SlotPending(slot) || SlotUnsynced(slot)) &&
         found == LatestState(slot);
}

uint32_t SlotAdopt(KeyState found) {
  return Encode(found) | (Encode(found) << kLatestShift);
}

std::string DescribeState(KeyState s) {
  return s.deleted ? "deleted" : "base " + std::to_string(s.base);
}

std::string DescribeSlot(uint32_t slot) {
  std::string d = DescribeState(DurableState(slot));
  if (SlotPending(slot) || SlotUnsynced(slot)) {
    d = std::string(SlotPending(slot) ? "write in flight" : "unsynced") + ": " +
        d + " or " + DescribeState(LatestState(slot));
  }
  if (SlotMany(slot)) d += " or any earlier unsynced state";
  return d;
}

static_assert(sizeof(std::atomic<uint32_t>) == 4 &&
                  alignof(std::atomic<uint32_t>) <= 4,
              "a slot is a 32-bit word of the mapped file");

ExpectedState::ExpectedState(std::unique_ptr<MemoryMappedFileBuffer> mapping,
                             int num_families, int64_t max_key)
    : mapping_(std::move(mapping)),
      num_families_(num_families),
      max_key_(max_key),
      slots_(reinterpret_cast<std::atomic<uint32_t>*>(
          static_cast<char*>(mapping_->GetBase()) + kHeaderSize)) {}

Status ExpectedState::Open(Env* env, const std::string& dir, int num_families,
                           int64_t max_key, bool reset,
                           std::unique_ptr<ExpectedState>* result) {
  Status s = env->CreateDirIfMissing(dir);
  if (!s.ok()) return s;
  const std::string fname = dir + "/EXPECTED";
  const size_t n =
      static_cast<size_t>(num_families) * static_cast<size_t>(max_key);
  std::string header;
  PutFixed32(&header, kMagic);
  PutFixed32(&header, static_cast<uint32_t>(num_families));
  PutFixed64(&header, static_cast<uint64_t>(max_key));
  uint64_t size = 0;
  if (reset || !env->FileExists(fname).ok() ||
      (env->GetFileSize(fname, &size).ok() && size == 0)) {
    // Written whole, then mapped: the slots start as never written.
    std::string contents = header;
    contents.reserve(kHeaderSize + 4 * n);
    for (size_t i = 0; i < n; i++) {
      const uint32_t slot = kInitialSlot;
      contents.append(reinterpret_cast<const char*>(&slot), 4);
    }
    s = WriteStringToFile(env, contents, fname, /*should_sync=*/true);
    if (!s.ok()) return s;
  }
  std::unique_ptr<MemoryMappedFileBuffer> mapping;
  s = env->NewMemoryMappedFileBuffer(fname, &mapping);
  if (!s.ok()) return s;
  if (mapping->GetLen() != kHeaderSize + 4 * n ||
      Slice(static_cast<const char*>(mapping->GetBase()), kHeaderSize) !=
          Slice(header)) {
    return Status::InvalidArgument(
        fname,
        "expected state of another shape (--max_key, --column_families) or "
        "damaged; run with --destroy_db_initially=1");
  }
  result->reset(new ExpectedState(std::move(mapping), num_families, max_key));
  return Status::OK();
}

KeyLocks::KeyLocks(int num_families, int64_t max_key, int log2_keys_per_lock)
    : groups_per_family_((max_key >> log2_keys_per_lock) + 1),
      shift_(log2_keys_per_lock),
      mutexes_(static_cast<size_t>(num_families) *
               static_cast<size_t>(groups_per_family_)) {}

KeyLocks::Guard::Guard(KeyLocks* locks,
                       std::vector<std::pair<int, int64_t>> keys) {
  std::vector<size_t> ids;
  ids.reserve(keys.size());
  for (const auto& k : keys) {
    ids.push_back(static_cast<size_t>(k.first) *
                      static_cast<size_t>(locks->groups_per_family_) +
                  static_cast<size_t>(k.second >> locks->shift_));
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (size_t id : ids) held_.push_back(&locks->mutexes_[id]);
  for (port::Mutex* mu : held_) mu->Lock();
}

KeyLocks::Guard::~Guard() {
  for (auto it = held_.rbegin(); it != held_.rend(); ++it) (*it)->Unlock();
}

}  // namespace stress
}  // namespace strata
