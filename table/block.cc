// Block reading (format: table/block_builder.cc, docs/formats/table.md).
//
// Validation is split between the two places that see the bytes first:
//   - the constructor checks the trailer: num_restarts fits the block, the
//     restart offsets are strictly increasing, start at 0 and lie inside
//     the entry area;
//   - the iterator checks each entry it decodes: its varints and bytes end
//     inside the entry area, a restart entry shares nothing, a shared
//     prefix is no longer than the previous key, and no entry straddles a
//     restart point.
// With those, every read stays inside [data, data + restart_offset) and
// the scans from different restart points agree on entry boundaries, which
// Prev() relies on.

#include "table/block.h"

#include <cinttypes>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "strata/comparator.h"
#include "util/coding.h"

namespace strata {

namespace {

constexpr size_t kRestartSize = sizeof(uint32_t);

// "<file or 'block'>: block at <offset>: <what> at offset <n>"
Status BlockCorruption(const char* file_name, uint64_t block_offset,
                       const char* what, uint64_t offset) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), "block at %" PRIu64 ": %s at offset %" PRIu64,
                block_offset, what, offset);
  return Status::Corruption(file_name != nullptr ? file_name : "block", buf);
}

// Decodes the three varints of the entry at p (limit: end of the entry
// area). Returns the start of its key bytes, or nullptr if the header or
// the key and value bytes it announces do not fit before limit.
const char* DecodeEntry(const char* p, const char* limit, uint32_t* shared,
                        uint32_t* unshared, uint32_t* value_len) {
  if (limit - p >= 3 &&
      (static_cast<unsigned char>(p[0]) | static_cast<unsigned char>(p[1]) |
       static_cast<unsigned char>(p[2])) < 128) {
    // The common case: all three lengths fit in one byte each.
    *shared = static_cast<unsigned char>(p[0]);
    *unshared = static_cast<unsigned char>(p[1]);
    *value_len = static_cast<unsigned char>(p[2]);
    p += 3;
  } else {
    if ((p = GetVarint32Ptr(p, limit, shared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, unshared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, value_len)) == nullptr) return nullptr;
  }
  const size_t left = static_cast<size_t>(limit - p);
  // Two comparisons instead of a sum: no overflow for hostile lengths.
  if (*unshared > left || *value_len > left - *unshared) return nullptr;
  return p;
}

class BlockIter final : public InternalIterator {
 public:
  BlockIter(const Comparator* cmp, const char* data, uint32_t restart_offset,
            uint32_t num_restarts, const char* file_name, uint64_t block_offset)
      : cmp_(cmp),
        data_(data),
        restarts_(restart_offset),
        num_restarts_(num_restarts),
        file_name_(file_name),
        block_offset_(block_offset),
        current_(restart_offset),
        next_(restart_offset),
        restart_index_(num_restarts) {}

  bool Valid() const override { return current_ < restarts_; }
  Status status() const override { return status_; }
  Slice key() const override { return key_; }
  Slice value() const override { return value_; }

  void SeekToFirst() override {
    if (!status_.ok()) return;
    SeekToRestart(0);
    ParseNext();
  }

  void SeekToLast() override {
    if (!status_.ok()) return;
    SeekToRestart(num_restarts_ - 1);
    while (ParseNext() && next_ < restarts_) {
    }
  }

  void Seek(const Slice& target) override {
    if (!status_.ok()) return;
    uint32_t index;
    if (!FindRestartBefore(target, &index)) return;
    SeekToRestart(index);
    while (ParseNext() && cmp_->Compare(key_, target) < 0) {
    }
  }

  void SeekForPrev(const Slice& target) override {
    Seek(target);
    if (!status_.ok()) return;
    if (!Valid()) {
      SeekToLast();  // every key is < target
    } else if (cmp_->Compare(key_, target) > 0) {
      Prev();
    }
  }

  void Next() override { ParseNext(); }

  void Prev() override {
    const uint32_t original = current_;
    // The last restart point strictly before the current entry; the
    // entry just before it is reached by scanning forward from there.
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

 private:
  uint32_t Restart(uint32_t index) const {
    return DecodeFixed32(data_ + restarts_ + index * kRestartSize);
  }

  // Positions before the entry at restart point index.
  void SeekToRestart(uint32_t index) {
    key_.clear();
    restart_index_ = index;
    next_ = Restart(index);
  }

  void MakeInvalid() {
    current_ = next_ = restarts_;
    restart_index_ = num_restarts_;
    key_.clear();
    value_ = Slice();
  }

  void Corrupt(const char* what, uint64_t offset) {
    MakeInvalid();
    status_ = BlockCorruption(file_name_, block_offset_, what, offset);
  }

  // Binary search: the last restart point whose key is < target (0 if
  // none is), so that scanning forward from it reaches the first entry
  // >= target. False on a damaged restart entry.
  bool FindRestartBefore(const Slice& target, uint32_t* index) {
    uint32_t left = 0;
    uint32_t right = num_restarts_ - 1;
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

  // Decodes the entry at next_. False at the end of the block or on
  // damage (then status_ says what).
  bool ParseNext() {
    current_ = next_;
    if (current_ >= restarts_) {
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
    key_.resize(shared);
    key_.append(p, unshared);
    value_ = Slice(p + unshared, value_len);
    next_ = static_cast<uint32_t>((p + unshared + value_len) - data_);
    return true;
  }

  const Comparator* const cmp_;
  const char* const data_;
  const uint32_t restarts_;  // offset of the restart array = entry area end
  const uint32_t num_restarts_;
  const char* const file_name_;
  const uint64_t block_offset_;

  // Invariant: Valid() iff current_ < restarts_; then key_/value_ are the
  // entry at current_, next_ the offset after it, and restart_index_ the
  // last restart point <= current_.
  uint32_t current_;
  uint32_t next_;
  uint32_t restart_index_;
  std::string key_;
  Slice value_;
  Status status_;  // sticky: a damaged block stays unusable
};

}  // namespace

Block::Block(BlockContents&& contents) : contents_(std::move(contents)) {
  const char* const data = contents_.data.data();
  const size_t size = contents_.data.size();
  if (size < kRestartSize) {
    SetCorruption("block too short for its trailer", 0);
    return;
  }
  if (size > std::numeric_limits<uint32_t>::max()) {
    SetCorruption("block larger than 4 GiB", 0);
    return;
  }
  const uint32_t count_offset = static_cast<uint32_t>(size - kRestartSize);
  const uint32_t num_restarts = DecodeFixed32(data + count_offset);
  // Division, not multiplication: a hostile count must not overflow.
  if (num_restarts == 0 || num_restarts > count_offset / kRestartSize) {
    SetCorruption("bad restart count", count_offset);
    return;
  }
  const uint32_t restart_offset =
      count_offset - num_restarts * static_cast<uint32_t>(kRestartSize);
  uint32_t previous = 0;
  for (uint32_t i = 0; i < num_restarts; i++) {
    const uint32_t slot =
        restart_offset + i * static_cast<uint32_t>(kRestartSize);
    const uint32_t offset = DecodeFixed32(data + slot);
    // Restart 0 is the first entry (offset 0, also in an empty block);
    // the others follow it strictly inside the entry area.
    const bool ok =
        i == 0 ? offset == 0 : offset > previous && offset < restart_offset;
    if (!ok) {
      SetCorruption("bad restart offset", slot);
      return;
    }
    previous = offset;
  }
  restart_offset_ = restart_offset;
  num_restarts_ = num_restarts;
}

void Block::SetCorruption(const char* what, uint32_t offset) {
  corruption_what_ = what;
  corruption_offset_ = offset;
  status_ = BlockCorruption(nullptr, 0, what, offset);
}

size_t Block::usable_size() const {
  return sizeof(Block) + contents_.usable_size();
}

InternalIterator* Block::NewIterator(const Comparator* cmp,
                                     const char* file_name,
                                     uint64_t block_offset) const {
  if (!status_.ok()) {
    // The constructor's finding, named with the caller's file and offset.
    return NewErrorInternalIterator(BlockCorruption(
        file_name, block_offset, corruption_what_, corruption_offset_));
  }
  return new BlockIter(cmp, contents_.data.data(), restart_offset_,
                       num_restarts_, file_name, block_offset);
}

}  // namespace strata
