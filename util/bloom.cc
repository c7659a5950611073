#include "util/bloom.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "util/coding.h"

namespace strata {

FilterBitsBuilder::~FilterBitsBuilder() = default;
FilterBitsReader::~FilterBitsReader() = default;
FilterPolicy::~FilterPolicy() = default;

namespace {

// ---- The hash (on-disk format: never change) --------------------------------

constexpr uint64_t kHashSeed = 0x5354524154414246ull;  // "STRATABF"
constexpr uint64_t kHashMul = 0x9e3779b97f4a7c15ull;   // 2^64 / golden ratio
constexpr uint64_t kMixMul1 = 0xbf58476d1ce4e5b9ull;
constexpr uint64_t kMixMul2 = 0x94d049bb133111ebull;

inline uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// A bijective avalanche of one 64-bit word: each input bit flips about
// half of the output bits.
inline uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= kMixMul1;
  x ^= x >> 27;
  x *= kMixMul2;
  x ^= x >> 31;
  return x;
}

// Folds one 64-bit word into the state. Every step is a bijection of the
// state for a fixed word and of the word for a fixed state, so two inputs
// of one length that differ in a single word never collide before Mix.
inline uint64_t Absorb(uint64_t state, uint64_t word) {
  return Rotl64(state ^ Mix(word), 29) * kHashMul;
}

// ---- Geometry and probes (on-disk format: never change) ---------------------

// The line of a key: the upper 32 hash bits scaled onto [0, num_lines)
// by a multiply-shift, which needs no division and is exact in 64 bits.
inline uint32_t LineOf(uint64_t h, uint32_t num_lines) {
  return static_cast<uint32_t>(((h >> 32) * num_lines) >> 32);
}

// The probes of a key within its line come from the lower 32 hash bits:
// probe i is the top 9 bits of a * kStepMul^i (mod 2^32), a being the
// lower half. Multiplying by the odd constant carries the lower bits of a
// up into the top ones, so successive probes are nearly independent; plain
// double hashing (a + i * b) measured 1.7-4x the false positives of this at
// 16-20 bits per key, its probes clustering when b's top bits are small.
constexpr uint32_t kStepMul = 0x2545f491u;
constexpr int kPositionShift = 32 - 9;  // 512 bits in a line
static_assert(kBloomLineBits == (1u << 9), "a line holds 2^9 bits");

template <typename Visit>
inline bool ForEachProbe(uint64_t h, int num_probes, Visit&& visit) {
  uint32_t a = static_cast<uint32_t>(h);
  for (int i = 0; i < num_probes; i++) {
    if (!visit(a >> kPositionShift)) return false;
    a *= kStepMul;
  }
  return true;
}

// ---- Builder ----------------------------------------------------------------

// The hashes of a table's keys until its filter is sized, in fixed chunks:
// a 64 MB table of small entries has a million keys, 8 MB of hashes, and a
// vector growing by doubling would hold up to twice that, and one and a
// half times as much while it copies.
class HashChunks {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  uint64_t back() const { return chunks_.back()[(size_ - 1) % kChunk]; }

  void push_back(uint64_t h) {
    if (size_ % kChunk == 0) chunks_.emplace_back(new uint64_t[kChunk]);
    chunks_.back()[size_ % kChunk] = h;
    size_++;
  }

  template <typename Fn>
  void ForEach(Fn fn) const {
    for (size_t i = 0; i < size_; i++) fn(chunks_[i / kChunk][i % kChunk]);
  }

  // Frees the chunks.
  void clear() {
    chunks_.clear();
    chunks_.shrink_to_fit();
    size_ = 0;
  }

 private:
  static constexpr size_t kChunk = 8192;  // 64 KB
  std::vector<std::unique_ptr<uint64_t[]>> chunks_;
  size_t size_ = 0;
};

class BloomBitsBuilder : public FilterBitsBuilder {
 public:
  explicit BloomBitsBuilder(uint32_t millibits_per_key)
      : millibits_per_key_(millibits_per_key) {}

  void AddKey(const Slice& key) override {
    const uint64_t h = BloomHash(key);
    // Consecutive repeats (versions of one user key) add nothing; a
    // different key with the same 64-bit hash would set the same bits.
    if (!hashes_.empty() && hashes_.back() == h) return;
    hashes_.push_back(h);
  }

  size_t NumAdded() const override { return hashes_.size(); }

  void Finish(std::string* out) override {
    if (millibits_per_key_ != 0) Encode(out);
    hashes_.clear();
  }

 private:
  void Encode(std::string* out) const {
    const uint32_t num_lines =
        BloomNumLines(hashes_.size(), millibits_per_key_);
    const int num_probes = BloomNumProbes(millibits_per_key_);
    const size_t start = out->size();
    const size_t bits_size = static_cast<size_t>(num_lines) * kBloomLineBytes;
    out->resize(start + bits_size, '\0');
    uint8_t* const bits = reinterpret_cast<uint8_t*>(&(*out)[start]);
    hashes_.ForEach([&](uint64_t h) {
      uint8_t* const line =
          bits + static_cast<size_t>(LineOf(h, num_lines)) * kBloomLineBytes;
      ForEachProbe(h, num_probes, [line](uint32_t p) {
        line[p >> 3] = static_cast<uint8_t>(line[p >> 3] | (1u << (p & 7)));
        return true;
      });
    });
    PutFixed32(out, num_lines);
    out->push_back(static_cast<char>(num_probes));
    out->push_back(static_cast<char>(kBloomFormatCacheLocal));
  }

  const uint32_t millibits_per_key_;
  HashChunks hashes_;
};

// ---- Readers ----------------------------------------------------------------

class BloomBitsReader : public FilterBitsReader {
 public:
  BloomBitsReader(const uint8_t* bits, uint32_t num_lines, int num_probes)
      : bits_(bits), num_lines_(num_lines), num_probes_(num_probes) {}

  bool MayMatch(const Slice& key) const override {
    const uint64_t h = BloomHash(key);
    const uint8_t* const line =
        bits_ + static_cast<size_t>(LineOf(h, num_lines_)) * kBloomLineBytes;
    return ForEachProbe(h, num_probes_, [line](uint32_t p) {
      return (line[p >> 3] & (1u << (p & 7))) != 0;
    });
  }

 private:
  const uint8_t* const bits_;
  const uint32_t num_lines_;
  const int num_probes_;
};

// What a filter that cannot be read answers: the table must be searched.
class MatchAllReader : public FilterBitsReader {
 public:
  bool MayMatch(const Slice& /*key*/) const override { return true; }
};

}  // namespace

uint64_t BloomHash(const Slice& key) {
  const char* p = key.data();
  size_t left = key.size();
  uint64_t state = kHashSeed ^ (static_cast<uint64_t>(key.size()) * kHashMul);
  for (; left >= 8; left -= 8, p += 8) state = Absorb(state, DecodeFixed64(p));
  if (left > 0) {
    // The tail (1..7 bytes) as a little-endian word, zero-filled; the
    // length in the seed keeps "a" and "a\0" apart.
    uint64_t tail = 0;
    for (size_t i = 0; i < left; i++) {
      tail |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (8 * i);
    }
    state = Absorb(state, tail);
  }
  return Mix(state);
}

int BloomNumProbes(uint32_t millibits_per_key) {
  // ln 2 = 0.693147...; rounded to the nearest probe count.
  const uint64_t k =
      (static_cast<uint64_t>(millibits_per_key) * 693147 + 500000000) /
      1000000000;
  if (k < 1) return 1;
  if (k > static_cast<uint64_t>(kBloomMaxProbes)) return kBloomMaxProbes;
  return static_cast<int>(k);
}

uint32_t BloomNumLines(uint64_t num_keys, uint32_t millibits_per_key) {
  constexpr uint64_t kMilliBitsPerLine = uint64_t{kBloomLineBits} * 1000;
  constexpr uint64_t kMaxLines = 0xffffffffull;
  // Where the product would overflow, the filter would need more lines
  // than the format can count anyway.
  if (millibits_per_key != 0 &&
      num_keys > (UINT64_MAX - kMilliBitsPerLine) / millibits_per_key) {
    return static_cast<uint32_t>(kMaxLines);
  }
  const uint64_t lines =
      (num_keys * millibits_per_key + kMilliBitsPerLine - 1) /
      kMilliBitsPerLine;
  if (lines < 1) return 1;
  if (lines > kMaxLines) return static_cast<uint32_t>(kMaxLines);
  return static_cast<uint32_t>(lines);
}

BloomFilterPolicy::BloomFilterPolicy(double bits_per_key) {
  if (!(bits_per_key >= 1.0)) {
    millibits_per_key_ = 0;
  } else {
    if (bits_per_key > kBloomMaxBitsPerKey) bits_per_key = kBloomMaxBitsPerKey;
    millibits_per_key_ =
        static_cast<uint32_t>(std::lround(bits_per_key * 1000.0));
  }
}

const char* BloomFilterPolicy::Name() const { return "strata.BloomFilter"; }

FilterBitsBuilder* BloomFilterPolicy::NewBuilder() const {
  return new BloomBitsBuilder(millibits_per_key_);
}

FilterBitsReader* BloomFilterPolicy::NewReader(const Slice& contents) const {
  // Any policy setting reads any well-formed filter: the geometry is in
  // the metadata, not taken from this policy.
  if (contents.size() < kBloomMetadataSize) return new MatchAllReader;
  const char* const meta =
      contents.data() + contents.size() - kBloomMetadataSize;
  const uint32_t num_lines = DecodeFixed32(meta);
  const int num_probes = static_cast<uint8_t>(meta[4]);
  const uint8_t format = static_cast<uint8_t>(meta[5]);
  const uint64_t bits_size = contents.size() - kBloomMetadataSize;
  if (format != kBloomFormatCacheLocal || num_probes < 1 ||
      num_probes > kBloomMaxProbes || num_lines == 0 ||
      bits_size != uint64_t{num_lines} * kBloomLineBytes) {
    return new MatchAllReader;
  }
  return new BloomBitsReader(reinterpret_cast<const uint8_t*>(contents.data()),
                             num_lines, num_probes);
}

const FilterPolicy* NewBloomFilterPolicy(double bits_per_key,
                                         bool /*use_block_based_builder*/) {
  return new BloomFilterPolicy(bits_per_key);
}

}  // namespace strata
