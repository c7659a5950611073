// BlockIter (table/block_iter.h); the checks it makes on each entry are
// listed at the top of table/block.cc.

#include "table/block_iter.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "db/dbformat.h"
#include "port/port.h"
#include "strata/comparator.h"
#include "table/block.h"
#include "util/coding.h"

namespace strata {

namespace {

constexpr size_t kRestartSize = sizeof(uint32_t);

// How much of a restart interval a Seek asks the CPU to fetch ahead of
// its scan, and how small a range of restart points its binary search
// fetches whole (see Seek).
constexpr uint32_t kScanPrefetchBytes = 1024;
constexpr uint32_t kRestartPrefetchCount = 8;
constexpr uint32_t kCacheLine = 64;

// Asks for the cache lines of [p, p + n) without waiting for them.
void PrefetchLines(const char* p, uint32_t n) {
  for (uint32_t off = 0; off < n; off += kCacheLine) port::Prefetch(p + off);
}

}  // namespace

Status BlockCorruption(const char* file_name, uint64_t block_offset,
                       const char* what, uint64_t offset) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), "block at %" PRIu64 ": %s at offset %" PRIu64,
                block_offset, what, offset);
  return Status::Corruption(file_name != nullptr ? file_name : "block", buf);
}

void BlockKey::Grow(size_t total, size_t keep) {
  const size_t capacity = std::max(total, 2 * capacity_);
  std::unique_ptr<char[]> bigger(new char[capacity]);
  if (keep > 0) std::memcpy(bigger.get(), data_, keep);
  heap_ = std::move(bigger);
  data_ = heap_.get();
  capacity_ = capacity;
}

BlockIter::BlockIter(const Block& block, const Comparator* cmp,
                     const char* file_name, uint64_t block_offset)
    : cmp_(cmp),
      data_(block.contents_.data.data()),
      restarts_(block.restart_offset_),
      num_restarts_(block.num_restarts_),
      prefixes_(block.prefixes_.get()),
      prefix_common_(block.prefix_common_),
      prefix_skip_(block.prefix_skip_),
      prefix_last_apart_(block.prefix_last_apart_),
      prefix_trailer_(block.prefix_trailer_),
      file_name_(file_name),
      block_offset_(block_offset),
      current_(block.restart_offset_),
      next_(block.restart_offset_),
      restart_index_(block.num_restarts_) {
  if (!block.status().ok()) {
    // The constructor's finding, named with the caller's file and offset.
    // (restarts_ is 0 then: never Valid.)
    status_ = BlockCorruption(file_name, block_offset, block.corruption_what_,
                              block.corruption_offset_);
  }
}

void BlockIter::SeekToFirst() {
  if (!status_.ok()) return;
  SeekToRestart(0);
  ParseNext();
}

void BlockIter::SeekToLast() {
  if (!status_.ok()) return;
  SeekToRestart(num_restarts_ - 1);
  while (ParseNext() && next_ < restarts_) {
  }
}

void BlockIter::Seek(const Slice& target) {
  if (!status_.ok()) return;
  uint32_t index;
  if (!FindRestartBefore(target, &index)) return;
  SeekToRestart(index);
  // The scan reads the interval's entries in turn, each a cache miss in a
  // block that is cold in the CPU's caches (a block cache much larger
  // than them): asked for together, the misses overlap.
  const uint32_t end =
      index + 1 < num_restarts_ ? Restart(index + 1) : restarts_;
  PrefetchLines(data_ + next_, std::min(end - next_, kScanPrefetchBytes));
  while (ParseNext() && cmp_->Compare(key_.slice(), target) < 0) {
  }
}

void BlockIter::SeekForPrev(const Slice& target) {
  Seek(target);
  if (!status_.ok()) return;
  if (!Valid()) {
    SeekToLast();  // every key is < target
  } else if (cmp_->Compare(key_.slice(), target) > 0) {
    Prev();
  }
}

void BlockIter::Prev() {
  const uint32_t original = current_;
  // The last restart point strictly before the current entry; the entry
  // just before it is reached by scanning forward from there.
  while (Restart(restart_index_) >= original) {
    if (restart_index_ == 0) {
      MakeInvalid();  // was the first entry
      return;
    }
    restart_index_--;
  }
  SeekToRestart(restart_index_);
  while (ParseNext() && next_ < original) {
  }
  if (Valid() && next_ != original) {
    Corrupt("entry boundaries disagree with restart points", current_);
  }
}

uint32_t BlockIter::Restart(uint32_t index) const {
  return DecodeFixed32(data_ + restarts_ + index * kRestartSize);
}

void BlockIter::SeekToRestart(uint32_t index) {
  key_.Clear();
  restart_index_ = index;
  next_ = Restart(index);
}

void BlockIter::MakeInvalid() {
  current_ = next_ = restarts_;
  restart_index_ = num_restarts_;
  key_.Clear();
  value_ = Slice();
}

void BlockIter::Corrupt(const char* what, uint64_t offset) {
  MakeInvalid();
  status_ = BlockCorruption(file_name_, block_offset_, what, offset);
}

bool BlockIter::FindRestartBefore(const Slice& target, uint32_t* index) {
  if (prefixes_ == nullptr || target.size() < prefix_trailer_) {
    return FindRestartBetween(target, 0, num_restarts_ - 1, index);
  }
  const Slice user(target.data(), target.size() - prefix_trailer_);
  // The restart keys begin with the common bytes (the last perhaps not,
  // but it sorts above those that do): a target below them is below every
  // restart key, one above them above every one but perhaps the last.
  const size_t n = std::min<size_t>(user.size(), prefix_skip_);
  int r = n == 0 ? 0 : std::memcmp(user.data(), prefix_common_, n);
  if (r == 0 && user.size() < prefix_skip_) r = -1;  // a proper prefix
  if (r < 0) {
    *index = 0;
    return true;
  }
  if (r > 0) {
    if (!prefix_last_apart_) {
      *index = num_restarts_ - 1;
      return true;
    }
    return FindRestartBetween(target, num_restarts_ - 2, num_restarts_ - 1,
                              index);
  }
  // Restart keys with a smaller prefix are < target, those with a larger
  // one > target: only the run [lo, hi) of equal prefixes needs the keys.
  const uint32_t prefix = UserKeyPrefix(user, prefix_skip_);
  const uint32_t* const end = prefixes_ + num_restarts_;
  const uint32_t* lo = std::lower_bound(prefixes_, end, prefix);
  const uint32_t* hi = std::upper_bound(lo, end, prefix);
  const uint32_t first = static_cast<uint32_t>(lo - prefixes_);
  const uint32_t last = static_cast<uint32_t>(hi - prefixes_);
  if (first == last) {
    *index = first > 0 ? first - 1 : 0;
    return true;
  }
  // Search [first - 1, last - 1]: restart first - 1 (if any) is < target.
  return FindRestartBetween(target, first > 0 ? first - 1 : 0, last - 1, index);
}

bool BlockIter::FindRestartBetween(const Slice& target, uint32_t left,
                                   uint32_t right, uint32_t* index) {
  // Invariant: restart left is < target, or left is where the search began.
  if (right - left <= kRestartPrefetchCount) {
    // A data block has a few restart points: their keys' misses overlap.
    for (uint32_t i = left + 1; i <= right; i++) {
      port::Prefetch(data_ + Restart(i));
    }
  }
  while (left < right) {
    const uint32_t mid = left + (right - left + 1) / 2;
    const uint32_t offset = Restart(mid);
    uint32_t shared, unshared, value_len;
    const char* key = DecodeEntry(data_ + offset, data_ + restarts_, &shared,
                                  &unshared, &value_len);
    if (key == nullptr || shared != 0) {
      Corrupt("bad restart entry", offset);
      return false;
    }
    if (cmp_->Compare(Slice(key, unshared), target) < 0) {
      left = mid;
    } else {
      right = mid - 1;
    }
  }
  *index = left;
  return true;
}

bool BlockIter::ParseNext() {
  current_ = next_;
  if (current_ >= restarts_) {
    // Past the last entry: a restart point never met at an entry
    // boundary lies inside an entry.
    if (restart_index_ + 1 < num_restarts_) {
      Corrupt("entry straddles a restart point", Restart(restart_index_ + 1));
      return false;
    }
    MakeInvalid();
    return false;
  }
  const char* const limit = data_ + restarts_;
  uint32_t shared, unshared, value_len;
  const char* p =
      DecodeEntry(data_ + current_, limit, &shared, &unshared, &value_len);
  if (p == nullptr) {
    Corrupt("truncated entry", current_);
    return false;
  }
  // Keep restart_index_ on the restart region holding current_.
  while (restart_index_ + 1 < num_restarts_ &&
         Restart(restart_index_ + 1) <= current_) {
    restart_index_++;
    if (Restart(restart_index_) < current_) {
      Corrupt("entry straddles a restart point", Restart(restart_index_));
      return false;
    }
  }
  if (shared != 0 && Restart(restart_index_) == current_) {
    Corrupt("restart entry with a shared prefix", current_);
    return false;
  }
  if (shared > key_.size()) {
    Corrupt("shared prefix longer than the previous key", current_);
    return false;
  }
  key_.Update(shared, p, unshared);
  value_ = Slice(p + unshared, value_len);
  next_ = static_cast<uint32_t>((p + unshared + value_len) - data_);
  return true;
}

}  // namespace strata
