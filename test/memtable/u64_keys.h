// Skiplist keys for tests and benchmarks: 8 bytes holding a uint64_t in
// native byte order, compared as integers, so that what is measured or
// checked is the list and not key handling.

#ifndef STRATA_TEST_MEMTABLE_U64_KEYS_H_
#define STRATA_TEST_MEMTABLE_U64_KEYS_H_

#include <cstdint>
#include <cstring>

namespace strata {
namespace test {

inline uint64_t DecodeU64Key(const char* p) {
  uint64_t k;
  std::memcpy(&k, p, sizeof(k));
  return k;
}

struct U64Comparator {
  // Counts comparisons when set (single-threaded use only).
  uint64_t* count = nullptr;

  int operator()(const char* a, const char* b) const {
    if (count != nullptr) ++*count;
    const uint64_t x = DecodeU64Key(a);
    const uint64_t y = DecodeU64Key(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
};

// Allocates k's node in list and encodes k into it, ready for Insert.
template <class List>
char* NewU64Key(List* list, uint64_t k) {
  char* buf = list->AllocateKey(sizeof(k));
  std::memcpy(buf, &k, sizeof(k));
  return buf;
}

// k encoded on the stack, for lookups (the list only reads targets).
struct U64Target {
  explicit U64Target(uint64_t k) { std::memcpy(bytes, &k, sizeof(k)); }
  char bytes[8];
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_MEMTABLE_U64_KEYS_H_
