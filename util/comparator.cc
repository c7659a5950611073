#include "strata/comparator.h"

#include <algorithm>
#include <cstdint>

#include "strata/slice.h"
#include "util/no_destructor.h"

namespace strata {

Comparator::~Comparator() = default;

namespace {

class BytewiseComparatorImpl : public Comparator {
 public:
  const char* Name() const override { return "leveldb.BytewiseComparator"; }

  int Compare(const Slice& a, const Slice& b) const override {
    return a.compare(b);
  }

  bool Equal(const Slice& a, const Slice& b) const override { return a == b; }

  void FindShortestSeparator(std::string* start,
                             const Slice& limit) const override {
    // Past the common prefix, bump the first differing byte of *start if
    // that keeps it below limit, and cut the rest.
    const size_t min_length = std::min(start->size(), limit.size());
    size_t diff = 0;
    while (diff < min_length && (*start)[diff] == limit[diff]) diff++;
    if (diff >= min_length) return;  // one is a prefix of the other
    const uint8_t byte = static_cast<uint8_t>((*start)[diff]);
    const uint8_t limit_byte = static_cast<uint8_t>(limit[diff]);
    if (byte >= limit_byte) return;  // not below limit: nothing fits
    if (byte + 1 < limit_byte) {
      (*start)[diff]++;
      start->resize(diff + 1);
      return;
    }
    // The byte is one below limit's (neighbouring keys, as a dense key
    // space has at every block boundary): keeping it keeps any longer key
    // below limit, so bump the first later byte that can grow instead.
    for (size_t i = diff + 1; i < start->size(); i++) {
      const uint8_t later = static_cast<uint8_t>((*start)[i]);
      if (later < 0xff) {
        (*start)[i] = static_cast<char>(later + 1);
        start->resize(i + 1);
        return;
      }
    }
  }

  void FindShortSuccessor(std::string* key) const override {
    // The first byte that can be incremented, incremented, and the rest cut.
    for (size_t i = 0; i < key->size(); i++) {
      if (static_cast<uint8_t>((*key)[i]) != 0xff) {
        (*key)[i] = static_cast<char>(static_cast<uint8_t>((*key)[i]) + 1);
        key->resize(i + 1);
        return;
      }
    }
    // All 0xff: *key is its own short successor.
  }
};

class ReverseBytewiseComparatorImpl : public Comparator {
 public:
  const char* Name() const override {
    return "rocksdb.ReverseBytewiseComparator";
  }

  int Compare(const Slice& a, const Slice& b) const override {
    return -a.compare(b);
  }

  bool Equal(const Slice& a, const Slice& b) const override { return a == b; }

  // Shortening under a reversed order is rarely worth it; both keep the
  // key as is, which is always correct.
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

}  // namespace

const Comparator* BytewiseComparator() {
  static NoDestructor<BytewiseComparatorImpl> singleton;
  return singleton.get();
}

const Comparator* ReverseBytewiseComparator() {
  static NoDestructor<ReverseBytewiseComparatorImpl> singleton;
  return singleton.get();
}

}  // namespace strata
