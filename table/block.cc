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

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "db/dbformat.h"
#include "table/block_iter.h"
#include "util/coding.h"

namespace strata {

namespace {

constexpr size_t kRestartSize = sizeof(uint32_t);

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

void Block::BuildUserKeyPrefixes(bool internal_keys) {
  if (!status_.ok() || prefixes_ != nullptr) return;
  const char* const data = contents_.data.data();
  const char* const limit = data + restart_offset_;
  const uint32_t trailer =
      internal_keys ? static_cast<uint32_t>(kInternalKeyTrailerSize) : 0;
  std::unique_ptr<Slice[]> keys(new Slice[num_restarts_]);
  for (uint32_t i = 0; i < num_restarts_; i++) {
    uint32_t shared, unshared, value_len;
    const char* key = DecodeEntry(
        data + DecodeFixed32(data + restart_offset_ + i * kRestartSize), limit,
        &shared, &unshared, &value_len);
    if (key == nullptr || shared != 0 || unshared < trailer) return;
    keys[i] = Slice(key, unshared - trailer);
  }
  // The bytes every restart key but the last begins with (taken over all
  // of them, so that they are common whatever the order). The last is
  // left out: in an index it is often the successor of the table's last
  // key, as short as one byte ("\x01" after keys beginning with zeros),
  // which would leave nothing in common.
  const uint32_t common_to = num_restarts_ > 1 ? num_restarts_ - 1 : 1;
  size_t skip = keys[0].size();
  for (uint32_t i = 1; i < common_to && skip > 0; i++) {
    skip = std::min(skip, keys[0].difference_offset(keys[i]));
  }
  std::unique_ptr<uint32_t[]> prefixes(new uint32_t[num_restarts_]);
  for (uint32_t i = 0; i < common_to; i++) {
    prefixes[i] = UserKeyPrefix(keys[i], skip);
  }
  bool last_apart = false;
  if (num_restarts_ > 1) {
    // A last key without the common bytes sorts above every key with
    // them (it is not below the one before it): the largest prefix.
    const Slice& last = keys[num_restarts_ - 1];
    last_apart = !last.starts_with(Slice(keys[0].data(), skip));
    prefixes[num_restarts_ - 1] =
        last_apart ? UINT32_MAX : UserKeyPrefix(last, skip);
  }
  prefixes_ = std::move(prefixes);
  prefix_common_ = keys[0].data();
  prefix_skip_ = static_cast<uint32_t>(skip);
  prefix_last_apart_ = last_apart;
  prefix_trailer_ = trailer;
}

size_t Block::usable_size() const {
  const size_t prefixes =
      prefixes_ != nullptr ? num_restarts_ * sizeof(uint32_t) : 0;
  return sizeof(Block) + contents_.usable_size() + prefixes;
}

InternalIterator* Block::NewIterator(const Comparator* cmp,
                                     const char* file_name,
                                     uint64_t block_offset) const {
  return new BlockIter(*this, cmp, file_name, block_offset);
}

}  // namespace strata
