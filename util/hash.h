// Fast non-cryptographic hashes for in-memory structures (cache shards,
// hash tables, bloom filters). Not stable across strata versions: never
// store a value of these in a file.

#ifndef STRATA_UTIL_HASH_H_
#define STRATA_UTIL_HASH_H_

#include <cstddef>
#include <cstdint>

#include "strata/slice.h"

namespace strata {

uint64_t Hash64(const char* data, size_t n, uint64_t seed);
uint32_t Hash(const char* data, size_t n, uint32_t seed);

inline uint32_t GetSliceHash(const Slice& s) {
  return Hash(s.data(), s.size(), 397);
}

}  // namespace strata

#endif  // STRATA_UTIL_HASH_H_
