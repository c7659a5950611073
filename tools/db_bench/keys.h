// The keys and values of db_bench, generated exactly as RocksDB's db_bench
// generates them, so that both engines store the same bytes.
//
// Key layout (key_size bytes), from key number v out of num_keys:
//
//   keys_per_prefix == 0:   | v big-endian (<= 8 bytes) | '0' padding |
//   keys_per_prefix  > 0:   | prefix (prefix_size) | v ... | '0' ... |
//
// where prefix = v % (num_keys / keys_per_prefix), written big-endian in
// its first min(prefix_size, 8) bytes and '0'-padded. A number field
// narrower than 8 bytes keeps the low-order bytes of the number, most
// significant first.
//
// Values come from one buffer of at least 1 MiB built from 100-byte pieces,
// each a random printable string of 100 * compression_ratio bytes repeated
// to 100 bytes (so a piece compresses to about that fraction); successive
// values are successive slices of the buffer.
//
// Thread safety: KeyFormat is immutable; ValueGenerator and KeySequence are
// used by one thread at a time.

#ifndef STRATA_TOOLS_DB_BENCH_KEYS_H_
#define STRATA_TOOLS_DB_BENCH_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "strata/slice.h"
#include "util/random.h"

namespace strata {
namespace bench {

class KeyFormat {
 public:
  // REQUIRES: key_size > 0; keys_per_prefix == 0 or prefix_size <= key_size
  KeyFormat(int key_size, int prefix_size, int64_t keys_per_prefix)
      : key_size_(key_size),
        prefix_size_(prefix_size),
        keys_per_prefix_(keys_per_prefix) {}

  int key_size() const { return key_size_; }

  // Writes the key of number v (of num_keys) to dst[0, key_size()).
  void Encode(uint64_t v, int64_t num_keys, char* dst) const;
  std::string Key(uint64_t v, int64_t num_keys) const;

 private:
  int key_size_;
  int prefix_size_;
  int64_t keys_per_prefix_;
};

// A printable string of len bytes that compresses to about
// compressed_fraction of its size: a random string of
// len * compressed_fraction bytes (at least 1) repeated.
std::string CompressibleString(Random* rnd, double compressed_fraction,
                               int len);

class ValueGenerator {
 public:
  // The buffer holds at least max(1 MiB, value_size) bytes.
  ValueGenerator(double compression_ratio, int value_size);

  // The next len bytes of the buffer (wrapping to its start when fewer
  // remain). The slice stays valid as long as the generator.
  // REQUIRES: len <= the buffer's size
  Slice Generate(size_t len);

 private:
  std::string data_;
  size_t pos_ = 0;
};

// The order in which a write workload visits key numbers [0, num).
enum class KeyOrder { kSequential, kRandom, kUniqueRandom };

class KeySequence {
 public:
  // rand (not owned) drives kRandom; kUniqueRandom is a permutation of
  // [0, num) shuffled by std::shuffle with std::mt19937(shuffle_seed), as
  // RocksDB's RandomShuffle (so both engines see the same order).
  KeySequence(Random64* rand, KeyOrder order, uint64_t num,
              uint64_t shuffle_seed);

  uint64_t Next();

 private:
  Random64* rand_;
  KeyOrder order_;
  uint64_t num_;
  uint64_t next_ = 0;
  std::vector<uint64_t> values_;
};

}  // namespace bench
}  // namespace strata

#endif  // STRATA_TOOLS_DB_BENCH_KEYS_H_
