#include "util/bloom.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/filter_policy.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

// ---- The stored hash --------------------------------------------------------

TEST(BloomHashTest, KnownValues) {
  // From an independent implementation of docs/formats/table.md, "Filter bits"
  // (Python); identical on every platform, since filters are stored.
  struct Case {
    std::string key;
    uint64_t hash;
  };
  const Case cases[] = {
      {std::string(), 0x6e41c0b34a55053cull},
      {"a", 0x4bb448f5bb94e372ull},
      {std::string("a\0", 2), 0x3eeae2139cc3f6f4ull},
      {"abc", 0x995f7ae7c7d1564full},
      {"strata", 0x067c17fe7d19d5e7ull},
      {"12345678", 0x1943c65eab2e0fb8ull},
      {"123456789", 0x6e4b7c1e0846c90dull},
      {"the quick brown fox jumps over the lazy dog", 0x548c46e8a2e2d454ull},
      {std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d"
                   "\x0e\x0f\x10\x11\x12\x13",
                   20),
       0x285e30d99e6fbcf0ull},
      {std::string(9, '\xff'), 0xad5a492d2a46d200ull},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.hash, BloomHash(c.key)) << "key of size " << c.key.size();
  }
}

TEST(BloomHashTest, EveryLengthAndByteMatters) {
  // Prefixes of one buffer (every tail length) and single-bit changes at
  // every position all hash apart.
  const std::string buf(40, 'q');
  std::vector<uint64_t> seen;
  for (size_t n = 0; n <= buf.size(); n++) {
    seen.push_back(BloomHash(Slice(buf.data(), n)));
  }
  for (size_t i = 0; i < buf.size(); i++) {
    std::string changed = buf;
    changed[i] = static_cast<char>(changed[i] ^ 0x01);
    seen.push_back(BloomHash(changed));
  }
  for (size_t i = 0; i < seen.size(); i++) {
    for (size_t j = i + 1; j < seen.size(); j++) {
      ASSERT_NE(seen[i], seen[j]) << i << " vs " << j;
    }
  }
}

// ---- Geometry ---------------------------------------------------------------

TEST(BloomGeometryTest, ProbesAreRoundedLn2TimesBits) {
  EXPECT_EQ(1, BloomNumProbes(1000));   // 0.69
  EXPECT_EQ(1, BloomNumProbes(2000));   // 1.39
  EXPECT_EQ(2, BloomNumProbes(3000));   // 2.08
  EXPECT_EQ(7, BloomNumProbes(9900));   // 6.86
  EXPECT_EQ(7, BloomNumProbes(10000));  // 6.93
  EXPECT_EQ(14, BloomNumProbes(20000));
  EXPECT_EQ(30, BloomNumProbes(100000));  // clamped
  EXPECT_EQ(1, BloomNumProbes(0));        // clamped
}

TEST(BloomGeometryTest, LinesAreCeilOfBitsOver512) {
  EXPECT_EQ(1u, BloomNumLines(0, 10000));
  EXPECT_EQ(1u, BloomNumLines(51, 10000));  // 510 bits
  EXPECT_EQ(1u, BloomNumLines(1, 10000));
  EXPECT_EQ(2u, BloomNumLines(52, 10000));  // 520 bits
  EXPECT_EQ(1954u, BloomNumLines(100000, 10000));
  EXPECT_EQ(1934u, BloomNumLines(100000, 9900));  // 990000 / 512 = 1933.6
  EXPECT_EQ(0xffffffffu, BloomNumLines(UINT64_MAX / 2, 100000));
  EXPECT_EQ(0xffffffffu, BloomNumLines(UINT64_MAX, UINT32_MAX));
  EXPECT_EQ(0xffffffffu, BloomNumLines(uint64_t{1} << 40, UINT32_MAX));
  EXPECT_EQ(1u, BloomNumLines(UINT64_MAX, 0));
}

TEST(BloomPolicyTest, NameAndBudget) {
  std::unique_ptr<const FilterPolicy> policy(NewBloomFilterPolicy(10));
  EXPECT_STREQ("strata.BloomFilter", policy->Name());
  EXPECT_EQ(10000u, BloomFilterPolicy(10).millibits_per_key());
  EXPECT_EQ(9900u, BloomFilterPolicy(9.9).millibits_per_key());
  EXPECT_EQ(100000u, BloomFilterPolicy(1e9).millibits_per_key());
  EXPECT_EQ(0u, BloomFilterPolicy(0.99).millibits_per_key());
  EXPECT_EQ(0u, BloomFilterPolicy(-5).millibits_per_key());
  EXPECT_EQ(0u, BloomFilterPolicy(std::nan("")).millibits_per_key());
}

// ---- Building ---------------------------------------------------------------

std::string Build(const FilterPolicy& policy,
                  const std::vector<std::string>& keys) {
  std::unique_ptr<FilterBitsBuilder> builder(policy.NewBuilder());
  for (const std::string& key : keys) builder->AddKey(key);
  std::string out;
  builder->Finish(&out);
  return out;
}

// Contents in a heap block of exactly their size, so that a read past the
// end is caught by AddressSanitizer.
struct ExactBuffer {
  explicit ExactBuffer(const std::string& s)
      : bytes(new char[s.size() + 1]), size(s.size()) {
    s.copy(bytes.get(), s.size());
  }
  Slice slice() const { return Slice(bytes.get(), size); }
  std::unique_ptr<char[]> bytes;
  size_t size;
};

std::string Hex(const std::string& s) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (char c : s) {
    hex.push_back(kDigits[static_cast<uint8_t>(c) >> 4]);
    hex.push_back(kDigits[static_cast<uint8_t>(c) & 15]);
  }
  return hex;
}

TEST(BloomBuildTest, GoldenFilterBytes) {
  // Pins the hash, the line choice, the probe sequence, the bit order and
  // the metadata together; the expected bytes come from the Python
  // reference implementation.
  std::vector<std::string> keys;
  for (int i = 0; i < 100; i++) keys.push_back("key" + std::to_string(i));
  const std::string filter = Build(BloomFilterPolicy(10), keys);
  EXPECT_EQ(
      "ca494105741dd88168f782310c7cda4a1578bfc08ae20ce81663d22177c1cc32"
      "448394b02cb1b46828b9e0bd172eb95c065dc7aa945d214674c5272f4be2880a"
      "ff47c2d597e7782bd6fede576551721b32338752fe37fbf5e7bb6653f6b415b9"
      "bb95678b82d7cfe4ff2e7ed8a7ec9584ba4f5c5c558e54fbf1c76d0380622a2d"
      "020000000701",
      Hex(filter));
}

TEST(BloomBuildTest, MetadataDescribesTheLines) {
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; i++) keys.push_back("k" + std::to_string(i));
  const std::string filter = Build(BloomFilterPolicy(10), keys);
  ASSERT_EQ(20 * kBloomLineBytes + kBloomMetadataSize, filter.size());
  const char* meta = filter.data() + filter.size() - kBloomMetadataSize;
  EXPECT_EQ(20u, DecodeFixed32(meta));
  EXPECT_EQ(7, meta[4]);
  EXPECT_EQ(kBloomFormatCacheLocal, static_cast<uint8_t>(meta[5]));
}

TEST(BloomBuildTest, AllProbesOfAKeyStayInOneCacheLine) {
  // 999 and 1000 keys both take 20 lines at 10 bits/key, so the bits one
  // key sets are the difference of the two filters.
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; i++) keys.push_back("line" + std::to_string(i));
  const BloomFilterPolicy policy(10);
  const std::string all = Build(policy, keys);
  for (size_t drop = 0; drop < keys.size(); drop += 37) {
    std::vector<std::string> rest = keys;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(drop));
    const std::string without = Build(policy, rest);
    ASSERT_EQ(all.size(), without.size());
    size_t first_line = SIZE_MAX;
    for (size_t i = 0; i + kBloomMetadataSize < all.size(); i++) {
      if (all[i] == without[i]) continue;
      ASSERT_EQ(0, without[i] & ~all[i]) << "bits only grow";
      const size_t line = i / kBloomLineBytes;
      if (first_line == SIZE_MAX) first_line = line;
      EXPECT_EQ(first_line, line) << keys[drop] << " spans lines";
    }
  }
}

TEST(BloomBuildTest, ConsecutiveRepeatsCountOnceAndFinishResets) {
  const BloomFilterPolicy policy(10);
  std::unique_ptr<FilterBitsBuilder> builder(policy.NewBuilder());
  builder->AddKey("a");
  builder->AddKey("a");
  builder->AddKey("b");
  builder->AddKey("b");
  builder->AddKey("a");  // not consecutive: counted again (harmless)
  EXPECT_EQ(3u, builder->NumAdded());

  std::string out = "prefix";
  builder->Finish(&out);
  EXPECT_EQ("prefix", out.substr(0, 6)) << "Finish appends";
  EXPECT_EQ(6 + kBloomLineBytes + kBloomMetadataSize, out.size());
  EXPECT_EQ(0u, builder->NumAdded());

  // The builder starts over: a second filter holds only its own keys.
  builder->AddKey("c");
  std::string second;
  builder->Finish(&second);
  std::unique_ptr<FilterBitsReader> reader(policy.NewReader(second));
  EXPECT_TRUE(reader->MayMatch("c"));
  EXPECT_FALSE(reader->MayMatch("a") && reader->MayMatch("b"));
}

TEST(BloomBuildTest, EmptyFilterMatchesNothing) {
  const BloomFilterPolicy policy(10);
  const std::string filter = Build(policy, {});
  ASSERT_EQ(kBloomLineBytes + kBloomMetadataSize, filter.size());
  std::unique_ptr<FilterBitsReader> reader(policy.NewReader(filter));
  for (int i = 0; i < 100; i++) {
    EXPECT_FALSE(reader->MayMatch(std::to_string(i)));
  }
}

TEST(BloomBuildTest, LessThanOneBitPerKeyBuildsNoFilter) {
  for (double bits : {0.0, 0.5, -1.0, std::nan("")}) {
    const BloomFilterPolicy policy(bits);
    const std::string filter = Build(policy, {"x", "y"});
    EXPECT_TRUE(filter.empty()) << bits;
    std::unique_ptr<FilterBitsReader> reader(policy.NewReader(filter));
    EXPECT_TRUE(reader->MayMatch("anything")) << bits;
  }
}

TEST(BloomBuildTest, AnyPolicyReadsAnyWellFormedFilter) {
  // The geometry travels in the metadata: a reader configured with other
  // bits per key still answers from the stored filter.
  std::vector<std::string> keys;
  for (int i = 0; i < 500; i++) keys.push_back("r" + std::to_string(i));
  const std::string filter = Build(BloomFilterPolicy(20), keys);
  const BloomFilterPolicy other(3);
  std::unique_ptr<FilterBitsReader> reader(other.NewReader(filter));
  int false_positives = 0;
  for (const std::string& key : keys) ASSERT_TRUE(reader->MayMatch(key));
  for (int i = 0; i < 1000; i++) {
    if (reader->MayMatch("absent" + std::to_string(i))) false_positives++;
  }
  EXPECT_LT(false_positives, 10);
}

// ---- Malformed contents -----------------------------------------------------

bool MatchesEverything(const FilterPolicy& policy, const std::string& bytes) {
  const ExactBuffer buffer(bytes);
  std::unique_ptr<FilterBitsReader> reader(policy.NewReader(buffer.slice()));
  for (int i = 0; i < 200; i++) {
    if (!reader->MayMatch("probe" + std::to_string(i))) return false;
  }
  return true;
}

TEST(BloomMalformedTest, UnreadableContentsMatchEverything) {
  const BloomFilterPolicy policy(10);
  // An empty but valid filter matches nothing; each damage below turns it
  // into one that matches everything.
  const std::string good = Build(policy, {});
  ASSERT_FALSE(MatchesEverything(policy, good));
  const size_t meta = good.size() - kBloomMetadataSize;

  EXPECT_TRUE(MatchesEverything(policy, ""));
  EXPECT_TRUE(MatchesEverything(policy, std::string(5, '\0')));
  EXPECT_TRUE(MatchesEverything(policy, good.substr(meta)));  // no lines
  EXPECT_TRUE(MatchesEverything(policy, good.substr(1)));     // short
  EXPECT_TRUE(MatchesEverything(policy, "x" + good));         // long

  std::string bad = good;
  bad[meta + 5] = 2;  // a format this version does not know
  EXPECT_TRUE(MatchesEverything(policy, bad));
  bad = good;
  bad[meta + 4] = 0;  // no probes
  EXPECT_TRUE(MatchesEverything(policy, bad));
  bad[meta + 4] = static_cast<char>(kBloomMaxProbes + 1);
  EXPECT_TRUE(MatchesEverything(policy, bad));
  bad[meta + 4] = static_cast<char>(0xff);
  EXPECT_TRUE(MatchesEverything(policy, bad));

  for (uint32_t lines : {0u, 2u, 0x04000000u, 0xffffffffu}) {
    bad = good;
    EncodeFixed32(&bad[meta], lines);  // disagrees with the size
    EXPECT_TRUE(MatchesEverything(policy, bad)) << lines;
  }
}

// The verdict docs/formats/table.md ("Reading, and malformed contents" and
// "Probes") prescribes, computed from the spec's numbers alone: "may
// match" unless the contents are a well-formed filter; then whether the k
// probed bits of the key's line are all set. *well_formed: which case.
bool SpecMayMatch(const std::string& contents, const std::string& key,
                  bool* well_formed) {
  *well_formed = false;
  if (contents.size() < 6) return true;
  const char* const meta = contents.data() + contents.size() - 6;
  const uint64_t lines = DecodeFixed32(meta);
  const int probes = static_cast<uint8_t>(meta[4]);
  if (static_cast<uint8_t>(meta[5]) != 1 || probes < 1 || probes > 30 ||
      lines == 0 || contents.size() != lines * 64 + 6) {
    return true;
  }
  *well_formed = true;
  const uint64_t h = BloomHash(key);
  const uint64_t line = ((h >> 32) * lines) >> 32;
  uint32_t a = static_cast<uint32_t>(h);
  for (int i = 0; i < probes; i++, a *= 0x2545f491u) {
    const uint32_t bit = a >> 23;
    const uint8_t byte = static_cast<uint8_t>(contents[line * 64 + bit / 8]);
    if (((byte >> (bit % 8)) & 1) == 0) return false;
  }
  return true;
}

TEST(BloomMalformedTest, RandomBytesNeverReadOutOfBounds) {
  // Random contents, many with a plausible trailer and some well formed:
  // the reader stays inside them (AddressSanitizer checks) and answers
  // what the format says, "may match" for every key of a malformed one.
  const BloomFilterPolicy policy(10);
  Random64 rnd(301);
  int malformed = 0, matched = 0, refused = 0;
  for (int trial = 0; trial < 2000; trial++) {
    const size_t lines = rnd.Uniform(4);
    std::string bytes(
        lines * kBloomLineBytes + (rnd.OneIn(2) ? 0 : rnd.Uniform(3)), '\0');
    // Half the time dense bits, so that filters of many probes match too.
    const bool dense = rnd.OneIn(2);
    for (char& c : bytes) {
      uint64_t r = rnd.Next();
      if (dense) r |= rnd.Next() | rnd.Next();
      c = static_cast<char>(r);
    }
    if (rnd.OneIn(2)) {
      PutFixed32(&bytes, static_cast<uint32_t>(
                             rnd.OneIn(2) ? lines : rnd.Uniform(1u << 31)));
      bytes.push_back(static_cast<char>(rnd.Uniform(40)));
      bytes.push_back(static_cast<char>(rnd.OneIn(4) ? rnd.Next() : 1));
    }
    const ExactBuffer buffer(bytes);
    std::unique_ptr<FilterBitsReader> reader(policy.NewReader(buffer.slice()));
    for (int i = 0; i < 20; i++) {
      const std::string key = std::to_string(rnd.Next());
      bool well_formed = false;
      const bool expected = SpecMayMatch(bytes, key, &well_formed);
      ASSERT_EQ(expected, reader->MayMatch(key))
          << "trial " << trial << ", contents " << Hex(bytes);
      if (!well_formed) {
        malformed++;
      } else if (expected) {
        matched++;
      } else {
        refused++;
      }
    }
  }
  // Each kind of answer was checked many times.
  EXPECT_GT(malformed, 10000);
  EXPECT_GT(matched, 500);
  EXPECT_GT(refused, 500);
}

// ---- False-positive rate ----------------------------------------------------

// The standard bloom filter's false-positive rate (1 - e^{-kn/m})^k.
double StandardTheory(double n, double m, int k) {
  return std::pow(1.0 - std::exp(-k * n / m), k);
}

// The same for a cache-local filter: a line holds a Poisson-distributed
// number of keys (mean n / lines), and a query sees only its line. The
// uneven loads make it worse than the standard figure, increasingly so at
// high bits per key.
double CacheLocalTheory(double n, uint32_t lines, int k) {
  const double mean = n / lines;
  double rate = 0;
  double p = std::exp(-mean);  // P(j keys in the line), j = 0
  for (int j = 0; j < 4000; j++) {
    if (j > 0) p *= mean / j;
    rate += p * std::pow(1.0 - std::pow(1.0 - 1.0 / kBloomLineBits, k * j), k);
  }
  return rate;
}

struct FpMeasurement {
  double rate;     // false positives / absent keys probed
  uint32_t lines;  // as stored in the filter
  int probes;      // as stored in the filter
  int false_negatives;
};

// Adds num_keys random keys (fixed seed: the test is deterministic) and
// probes num_absent keys that cannot be among them (another first byte).
FpMeasurement Measure(double bits_per_key, int num_keys, int num_absent,
                      uint64_t seed) {
  Random64 rnd(seed);
  // Distinct by construction (the index), 5..16 bytes long so every tail
  // length of the hash occurs, with random bytes after the index.
  auto make_key = [&rnd](char tag, uint32_t index) {
    std::string key(1, tag);
    PutFixed32(&key, index);
    for (uint64_t n = rnd.Uniform(12); n > 0; n--) {
      key.push_back(static_cast<char>(rnd.Next()));
    }
    return key;
  };
  const BloomFilterPolicy policy(bits_per_key);
  std::unique_ptr<FilterBitsBuilder> builder(policy.NewBuilder());
  std::vector<std::string> added;
  for (int i = 0; i < num_keys; i++) {
    added.push_back(make_key('+', static_cast<uint32_t>(i)));
    builder->AddKey(added.back());
  }
  std::string filter;
  builder->Finish(&filter);
  std::unique_ptr<FilterBitsReader> reader(policy.NewReader(filter));

  FpMeasurement m;
  const char* meta = filter.data() + filter.size() - kBloomMetadataSize;
  m.lines = DecodeFixed32(meta);
  m.probes = meta[4];
  m.false_negatives = 0;
  for (const std::string& key : added) {
    if (!reader->MayMatch(key)) m.false_negatives++;
  }
  int hits = 0;
  for (int i = 0; i < num_absent; i++) {
    if (reader->MayMatch(make_key('-', static_cast<uint32_t>(i)))) hits++;
  }
  m.rate = static_cast<double>(hits) / num_absent;
  return m;
}

TEST(BloomFalsePositiveTest, TenBitsPerKeyWithinOneAndAHalfOfTheory) {
  for (int num_keys : {10000, 100000}) {
    const FpMeasurement m = Measure(10, num_keys, 100000, 1234);
    const double theory =
        StandardTheory(num_keys, m.lines * double{kBloomLineBits}, m.probes);
    EXPECT_EQ(0, m.false_negatives) << num_keys;
    EXPECT_LE(m.rate, 1.5 * theory) << num_keys << " keys";
    // A broken filter that matched nearly nothing would pass the bound.
    EXPECT_GT(m.rate, 0.5 * theory) << num_keys << " keys";
    std::printf(
        "%d keys at 10 bits/key: %d probes, %u lines, fp %.4f%% "
        "(theory %.4f%%)\n",
        num_keys, m.probes, m.lines, 100 * m.rate, 100 * theory);
  }
}

TEST(BloomFalsePositiveTest, EveryBudgetFromOneToTwentyBits) {
  double previous = 1.0;
  for (double bits :
       {1.0,  2.0,  3.0,  4.0,  5.0,  6.0,  7.0,  8.0,  9.0,  9.9, 10.0, 11.0,
        12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 2.5, 7.3}) {
    const int num_keys = 10000;
    const FpMeasurement m = Measure(bits, num_keys, 100000, 99);
    EXPECT_EQ(0, m.false_negatives) << bits;
    EXPECT_EQ(BloomNumProbes(static_cast<uint32_t>(bits * 1000 + 0.5)),
              m.probes);
    const double bits_used = m.lines * double{kBloomLineBits};
    EXPECT_GE(bits_used, bits * num_keys) << bits;
    EXPECT_LT(bits_used, bits * num_keys + kBloomLineBits) << bits;
    EXPECT_LE(m.rate, 1.5 * CacheLocalTheory(num_keys, m.lines, m.probes))
        << bits;
    if (bits <= 10) {
      EXPECT_LE(m.rate, 1.5 * StandardTheory(num_keys, bits_used, m.probes))
          << bits;
    }
    if (bits == static_cast<int>(bits)) {
      EXPECT_LT(m.rate, previous) << "more bits, fewer false positives";
      previous = m.rate;
    }
  }
}

}  // namespace
}  // namespace strata
