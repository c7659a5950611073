// The built-in filter policy (NewBloomFilterPolicy): a cache-local bloom
// filter. Keys are hashed to 64 bits; the upper half picks one 64-byte line
// of the filter and the lower half picks every probed bit inside that line,
// so a query touches a single cache line (one miss at most) however many
// probes it makes.
//
// Its bytes are stored in tables, so everything here is an on-disk format
// (docs/formats/table.md, "Filter bits"), fixed for good under the policy name
// "strata.BloomFilter" and format marker kBloomFormatCacheLocal:
//
//   +---------------+-----+-----------------+-----------+--------+----------+
//   | line 0 (64 B) | ... | line L-1 (64 B) | L fixed32 | k (u8) | format=1 |
//   +---------------+-----+-----------------+-----------+--------+----------+
//
// Bit p of a line is bit (p % 8) of byte (p / 8): byte-addressed, so the
// bytes do not depend on the machine's endianness.
//
// Invariants of a well-formed filter: L >= 1, 1 <= k <= kBloomMaxProbes,
// size == L * 64 + kBloomMetadataSize. Anything else (including empty
// contents) is read as "may match every key".
//
// Thread safety: a BloomFilterPolicy is immutable and shared; a builder is
// used by one thread; a reader is immutable and safe from many threads.

#ifndef STRATA_UTIL_BLOOM_H_
#define STRATA_UTIL_BLOOM_H_

#include <cstddef>
#include <cstdint>

#include "strata/filter_policy.h"
#include "strata/slice.h"

namespace strata {

constexpr size_t kBloomLineBytes = 64;
constexpr uint32_t kBloomLineBits = kBloomLineBytes * 8;
constexpr size_t kBloomMetadataSize = 6;  // L (4), k (1), format marker (1)
constexpr uint8_t kBloomFormatCacheLocal = 1;
constexpr int kBloomMaxProbes = 30;
// bits_per_key above this is clamped: more cannot lower the false-positive
// rate of a 30-probe filter, only waste space.
constexpr double kBloomMaxBitsPerKey = 100.0;

// The filter's hash of a key. Stable across versions and platforms (it is
// stored, unlike util/hash.h's Hash64); specified byte-exactly in
// docs/formats/table.md, "Filter bits" and pinned by tests.
uint64_t BloomHash(const Slice& key);

// The number of probes per key for a bits-per-key budget in thousandths of
// a bit: round(ln 2 * bits_per_key), clamped to [1, kBloomMaxProbes].
int BloomNumProbes(uint32_t millibits_per_key);

// The number of 64-byte lines for num_keys keys: ceil(num_keys * bits /
// 512), at least 1 (and at most 2^32 - 1, far beyond any table).
uint32_t BloomNumLines(uint64_t num_keys, uint32_t millibits_per_key);

class BloomFilterPolicy : public FilterPolicy {
 public:
  // bits_per_key < 1 (or NaN): the builders append no bytes, i.e. no
  // filter; above kBloomMaxBitsPerKey it is clamped.
  explicit BloomFilterPolicy(double bits_per_key);

  const char* Name() const override;  // "strata.BloomFilter"
  FilterBitsBuilder* NewBuilder() const override;
  FilterBitsReader* NewReader(const Slice& contents) const override;

  // The budget actually used, in thousandths of a bit; 0: no filter.
  uint32_t millibits_per_key() const { return millibits_per_key_; }

 private:
  uint32_t millibits_per_key_;
};

}  // namespace strata

#endif  // STRATA_UTIL_BLOOM_H_
