#include "tools/db_bench/keys.h"

#include <algorithm>
#include <cstring>
#include <random>

namespace strata {
namespace bench {

namespace {

// Writes the low `bytes` bytes of v to dst, most significant first.
void PutBigEndianTail(uint64_t v, int bytes, char* dst) {
  for (int i = 0; i < bytes; i++) {
    dst[i] = static_cast<char>((v >> (8 * (bytes - 1 - i))) & 0xff);
  }
}

}  // namespace

void KeyFormat::Encode(uint64_t v, int64_t num_keys, char* dst) const {
  char* pos = dst;
  if (keys_per_prefix_ > 0) {
    // RocksDB divides by num_keys / keys_per_prefix; guard the zero it
    // would crash on (more keys per prefix than keys) with one prefix.
    const int64_t num_prefixes =
        std::max<int64_t>(1, num_keys / keys_per_prefix_);
    const uint64_t prefix = v % static_cast<uint64_t>(num_prefixes);
    const int prefix_bytes = std::min(prefix_size_, 8);
    PutBigEndianTail(prefix, prefix_bytes, pos);
    if (prefix_size_ > 8) std::memset(pos + 8, '0', prefix_size_ - 8);
    pos += prefix_size_;
  }
  const int room = key_size_ - static_cast<int>(pos - dst);
  const int number_bytes = std::max(0, std::min(room, 8));
  PutBigEndianTail(v, number_bytes, pos);
  pos += number_bytes;
  const int pad = key_size_ - static_cast<int>(pos - dst);
  if (pad > 0) std::memset(pos, '0', static_cast<size_t>(pad));
}

std::string KeyFormat::Key(uint64_t v, int64_t num_keys) const {
  std::string key(static_cast<size_t>(key_size_), '\0');
  Encode(v, num_keys, &key[0]);
  return key;
}

std::string CompressibleString(Random* rnd, double compressed_fraction,
                               int len) {
  const int raw = std::max(1, static_cast<int>(len * compressed_fraction));
  std::string piece(static_cast<size_t>(raw), ' ');
  // Printable ASCII, ' ' to '~'.
  for (char& c : piece) c = static_cast<char>(' ' + rnd->Uniform(95));
  std::string out;
  while (out.size() < static_cast<size_t>(len)) out += piece;
  out.resize(static_cast<size_t>(len));
  return out;
}

ValueGenerator::ValueGenerator(double compression_ratio, int value_size) {
  // The seed and the piece length are RocksDB's: the same bytes result.
  Random rnd(301);
  const size_t target = std::max<size_t>(1048576, std::max(value_size, 0));
  while (data_.size() < target) {
    data_ += CompressibleString(&rnd, compression_ratio, 100);
  }
}

Slice ValueGenerator::Generate(size_t len) {
  if (pos_ + len > data_.size()) pos_ = 0;
  pos_ += len;
  return Slice(data_.data() + pos_ - len, len);
}

KeySequence::KeySequence(Random64* rand, KeyOrder order, uint64_t num,
                         uint64_t shuffle_seed)
    : rand_(rand), order_(order), num_(num) {
  if (order_ == KeyOrder::kUniqueRandom) {
    values_.resize(num_);
    for (uint64_t i = 0; i < num_; i++) values_[i] = i;
    std::shuffle(values_.begin(), values_.end(),
                 std::mt19937(static_cast<uint32_t>(shuffle_seed)));
  }
}

uint64_t KeySequence::Next() {
  switch (order_) {
    case KeyOrder::kSequential:
      return next_++;
    case KeyOrder::kRandom:
      return rand_->Next() % num_;
    case KeyOrder::kUniqueRandom:
      // RocksDB wraps around too when asked for more than num keys.
      return values_[next_++ % num_];
  }
  return 0;
}

}  // namespace bench
}  // namespace strata
