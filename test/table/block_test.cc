// Blocks: BlockBuilder's encoding read back by Block's iterator against a
// std::map model (every restart interval, bytewise and internal-key
// order), the restart layout, and damaged blocks — every byte flipped and
// every truncation — which must give Corruption or a clean iteration,
// never an out-of-bounds read (ASan) or a hang.

#include "table/block.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "table/block_builder.h"
#include "table/block_iter.h"
#include "test/table/iter_model.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

using test::IterModel;

std::string RandomBytes(Random* rnd, size_t len) {
  std::string s(len, '\0');
  for (char& c : s) c = static_cast<char>(rnd->Uniform(256));
  return s;
}

// Keys of every shape a block must carry: empty, binary (NULs, 0xff),
// long, and families sharing long prefixes (what prefix compression is
// for).
std::string RandomKey(Random* rnd) {
  switch (rnd->Uniform(6)) {
    case 0:
      return "";
    case 1:
      return RandomBytes(rnd, 1 + rnd->Uniform(8));
    case 2:
      return RandomBytes(rnd, 200 + rnd->Uniform(2000));
    case 3:
      return std::string(1 + rnd->Uniform(3), '\xff') +
             RandomBytes(rnd, rnd->Uniform(3));
    default: {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "user_key_%06u", rnd->Uniform(5000));
      return buf + RandomBytes(rnd, rnd->Uniform(3));
    }
  }
}

std::string RandomValue(Random* rnd) {
  switch (rnd->Uniform(4)) {
    case 0:
      return "";
    case 1:
      return RandomBytes(rnd, 3000 + rnd->Uniform(3000));
    default:
      return RandomBytes(rnd, rnd->Uniform(40));
  }
}

std::string Build(const IterModel& model, int restart_interval) {
  BlockBuilder builder(restart_interval);
  for (const auto& kv : model) builder.Add(kv.first, kv.second);
  const size_t estimate = builder.CurrentSizeEstimate();
  const std::string block = builder.Finish().ToString();
  EXPECT_EQ(estimate, block.size());
  return block;
}

// A Block owning a copy of bytes.
std::unique_ptr<Block> MakeBlock(const std::string& bytes) {
  std::unique_ptr<char[]> buf(new char[bytes.size()]);
  if (!bytes.empty()) std::memcpy(buf.get(), bytes.data(), bytes.size());
  return std::make_unique<Block>(BlockContents(std::move(buf), bytes.size()));
}

// Targets near the model's keys (equal, just before, just after) and
// random ones.
std::string NearTarget(const IterModel& model, Random* rnd) {
  if (model.empty() || rnd->OneIn(4)) return RandomKey(rnd);
  auto it = model.begin();
  std::advance(it, rnd->Uniform(static_cast<int>(model.size())));
  std::string t = it->first;
  switch (rnd->Uniform(3)) {
    case 0:
      return t;
    case 1:
      return t + '\0';  // just after t
    default:
      if (t.empty()) return t;
      t.back() = static_cast<char>(t.back() - 1);  // before t (mostly)
      return t;
  }
}

TEST(BlockTest, EmptyBlockIteratesNothing) {
  BlockBuilder builder(16);
  EXPECT_TRUE(builder.empty());
  const std::string bytes = builder.Finish().ToString();
  // One restart (offset 0) and the count: 8 bytes.
  ASSERT_EQ(8u, bytes.size());
  EXPECT_EQ(0u, DecodeFixed32(bytes.data()));
  EXPECT_EQ(1u, DecodeFixed32(bytes.data() + 4));

  std::unique_ptr<Block> block = MakeBlock(bytes);
  ASSERT_TRUE(block->status().ok()) << block->status().ToString();
  std::unique_ptr<InternalIterator> it(
      block->NewIterator(BytewiseComparator()));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek("a");
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev("a");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
}

// The example of docs/formats/table.md, byte for byte.
TEST(BlockTest, GoldenBytes) {
  BlockBuilder builder(2);
  builder.Add("apple", "1");
  builder.Add("apricot", "2");
  builder.Add("b", "3");
  const std::string expected(
      "\x00\x05\x01"
      "apple1"
      "\x02\x05\x01"
      "ricot2"
      "\x00\x01\x01"
      "b3"
      "\x00\x00\x00\x00"
      "\x12\x00\x00\x00"
      "\x02\x00\x00\x00",
      35);
  EXPECT_EQ(expected, builder.Finish().ToString());
}

TEST(BlockTest, RoundTripEveryRestartInterval) {
  std::vector<int> intervals;
  for (int i = 1; i <= 17; i++) intervals.push_back(i);
  intervals.push_back(100000);  // one restart for the whole block
  for (int interval : intervals) {
    SCOPED_TRACE("restart interval " + std::to_string(interval));
    Random rnd(301 + interval);
    IterModel model(test::ComparatorLess{BytewiseComparator()});
    const int n = static_cast<int>(rnd.Uniform(300));
    for (int i = 0; i < n; i++) model[RandomKey(&rnd)] = RandomValue(&rnd);

    std::unique_ptr<Block> block = MakeBlock(Build(model, interval));
    ASSERT_TRUE(block->status().ok()) << block->status().ToString();
    std::unique_ptr<InternalIterator> it(
        block->NewIterator(BytewiseComparator()));
    test::ExpectScansMatch(it.get(), model);
    ASSERT_FALSE(HasFatalFailure());
    for (int i = 0; i < 200; i++) {
      test::ExpectSeeksMatch(it.get(), model, NearTarget(model, &rnd));
      ASSERT_FALSE(HasFatalFailure());
    }
    test::ExpectSeeksMatch(it.get(), model, "");
    test::ExpectSeeksMatch(it.get(), model, std::string(3000, '\xff'));
    test::RandomWalk(it.get(), model, &rnd, 2000,
                     [&model](Random* r) { return NearTarget(model, r); });
  }
}

// The iterator's key buffer: in place while short, on the heap once long,
// keeping the shared prefix across the move.
TEST(BlockKeyTest, UpdatesMatchAStringModel) {
  Random rnd(17);
  BlockKey key;
  std::string model;
  for (int i = 0; i < 3000; i++) {
    const size_t shared = rnd.Uniform(static_cast<int>(model.size()) + 1);
    const std::string more =
        RandomBytes(&rnd, rnd.Uniform(i % 7 == 0 ? 300 : 20));
    key.Update(shared, more.data(), more.size());
    model = model.substr(0, shared) + more;
    ASSERT_EQ(model, key.slice().ToString()) << i;
    if (rnd.OneIn(50)) {
      key.Clear();
      model.clear();
    }
  }
}

// Long keys sharing long prefixes, on both sides of the key buffer's
// inline size: each entry rebuilds its key from the previous one's.
TEST(BlockTest, LongKeysSharingLongPrefixes) {
  IterModel model(test::ComparatorLess{BytewiseComparator()});
  Random rnd(7);
  for (int i = 0; i < 300; i++) {
    const std::string prefix(20 + rnd.Uniform(120), 'p');
    model[prefix + RandomBytes(&rnd, rnd.Uniform(80))] = std::to_string(i);
  }
  for (int interval : {1, 16}) {
    std::unique_ptr<Block> block = MakeBlock(Build(model, interval));
    ASSERT_TRUE(block->status().ok());
    BlockIter it(*block, BytewiseComparator(), "t.sst", 0);
    test::ExpectScansMatch(&it, model);
    for (int i = 0; i < 200; i++) {
      test::ExpectSeeksMatch(&it, model, NearTarget(model, &rnd));
      ASSERT_FALSE(HasFatalFailure());
    }
  }
}

TEST(BlockTest, SingleEntryAndSameLengthKeys) {
  for (int interval : {1, 2, 16}) {
    IterModel model(test::ComparatorLess{BytewiseComparator()});
    model[""] = "empty key";
    std::unique_ptr<Block> block = MakeBlock(Build(model, interval));
    std::unique_ptr<InternalIterator> it(
        block->NewIterator(BytewiseComparator()));
    test::ExpectScansMatch(it.get(), model);
    test::ExpectSeeksMatch(it.get(), model, "");
    test::ExpectSeeksMatch(it.get(), model, "a");
    // Keys that are prefixes of each other and keys differing only in
    // their last byte exercise shared == previous key length.
    model["a"] = "1";
    model["aa"] = "2";
    model["aaa"] = "3";
    model["aab"] = "4";
    model["ab"] = "5";
    block = MakeBlock(Build(model, interval));
    it.reset(block->NewIterator(BytewiseComparator()));
    test::ExpectScansMatch(it.get(), model);
    for (const char* t : {"", "a", "a\x01", "aa", "aaa\xff", "aab", "b"}) {
      test::ExpectSeeksMatch(it.get(), model, t);
    }
  }
}

TEST(BlockTest, InternalKeyOrder) {
  InternalKeyComparator icmp(BytewiseComparator());
  for (int interval : {1, 3, 16}) {
    Random rnd(17 + interval);
    IterModel model(test::ComparatorLess{&icmp});
    for (int i = 0; i < 400; i++) {
      // Few user keys, many versions: neighbours share whole user keys.
      char user[16];
      std::snprintf(user, sizeof(user), "key%03u", rnd.Uniform(60));
      const SequenceNumber seq = rnd.Uniform(1000);
      const ValueType type = rnd.OneIn(4) ? kTypeDeletion : kTypeValue;
      model[InternalKey(user, seq, type).Encode().ToString()] =
          RandomValue(&rnd);
    }
    std::unique_ptr<Block> block = MakeBlock(Build(model, interval));
    std::unique_ptr<InternalIterator> it(block->NewIterator(&icmp));
    test::ExpectScansMatch(it.get(), model);
    auto target = [](Random* r) {
      char user[16];
      std::snprintf(user, sizeof(user), "key%03u", r->Uniform(62));
      return InternalKey(user, r->Uniform(1100), kValueTypeForSeek)
          .Encode()
          .ToString();
    };
    for (int i = 0; i < 300; i++) {
      test::ExpectSeeksMatch(it.get(), model, target(&rnd));
      ASSERT_FALSE(HasFatalFailure());
    }
    test::RandomWalk(it.get(), model, &rnd, 2000, target);
  }
}

TEST(BlockTest, RestartLayoutAndPrefixCompression) {
  for (int interval : {1, 4, 16}) {
    BlockBuilder builder(interval);
    const int n = 37;
    std::vector<std::string> keys;
    for (int i = 0; i < n; i++) {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "common_prefix_%04d", i);
      keys.push_back(buf);
      builder.Add(buf, "v");
    }
    EXPECT_FALSE(builder.empty());
    const std::string bytes = builder.Finish().ToString();
    const uint32_t num_restarts =
        DecodeFixed32(bytes.data() + bytes.size() - 4);
    EXPECT_EQ(static_cast<uint32_t>((n + interval - 1) / interval),
              num_restarts);
    const size_t restart_array = bytes.size() - 4 - 4 * num_restarts;
    // Every restart entry holds its whole key (shared == 0); the others
    // share the 14-byte prefix at least.
    for (uint32_t r = 0; r < num_restarts; r++) {
      const uint32_t offset =
          DecodeFixed32(bytes.data() + restart_array + 4 * r);
      ASSERT_LT(offset, restart_array);
      uint32_t shared, unshared;
      const char* p = GetVarint32Ptr(bytes.data() + offset,
                                     bytes.data() + restart_array, &shared);
      ASSERT_NE(nullptr, p);
      p = GetVarint32Ptr(p, bytes.data() + restart_array, &unshared);
      ASSERT_NE(nullptr, p);
      EXPECT_EQ(0u, shared);
      EXPECT_EQ(keys[r * interval].size(), unshared);
    }
    if (interval > 1) {
      EXPECT_LT(restart_array, n * (keys[0].size() + 4));
    }
  }
}

TEST(BlockTest, BuilderResetAndEstimates) {
  BlockBuilder builder(4);
  Random rnd(5);
  for (int round = 0; round < 3; round++) {
    IterModel model(test::ComparatorLess{BytewiseComparator()});
    for (int i = 0; i < 50; i++) model[RandomKey(&rnd)] = RandomValue(&rnd);
    builder.Reset();
    EXPECT_TRUE(builder.empty());
    for (const auto& kv : model) {
      const size_t bound = builder.EstimateSizeAfterKV(kv.first, kv.second);
      builder.Add(kv.first, kv.second);
      EXPECT_LE(builder.CurrentSizeEstimate(), bound);
    }
    const std::string bytes = builder.Finish().ToString();
    std::unique_ptr<Block> block = MakeBlock(bytes);
    EXPECT_EQ(bytes.size(), block->size());
    EXPECT_GE(block->usable_size(), bytes.size());
    std::unique_ptr<InternalIterator> it(
        block->NewIterator(BytewiseComparator()));
    test::ExpectScansMatch(it.get(), model);
  }
}

// ---- Damaged blocks --------------------------------------------------------

std::string Fixed32(uint32_t v) {
  std::string s;
  PutFixed32(&s, v);
  return s;
}

// One hand-encoded entry.
std::string Entry(uint32_t shared, const std::string& unshared,
                  const std::string& value) {
  std::string s;
  PutVarint32(&s, shared);
  PutVarint32(&s, static_cast<uint32_t>(unshared.size()));
  PutVarint32(&s, static_cast<uint32_t>(value.size()));
  return s + unshared + value;
}

TEST(BlockCorruptionTest, MalformedTrailerNamesFileAndOffset) {
  const std::string e = Entry(0, "ab", "v");  // 6 bytes
  struct Case {
    std::string bytes;
    std::string message;  // with file "000042.sst", block offset 4096
  } cases[] = {
      {"", "block too short for its trailer at offset 0"},
      {"\x01\x02\x03", "block too short for its trailer at offset 0"},
      {Fixed32(0), "bad restart count at offset 0"},
      {Fixed32(0xffffffffu), "bad restart count at offset 0"},
      {e + Fixed32(0) + Fixed32(0xffffffffu), "bad restart count at offset 10"},
      {e + Fixed32(0) + Fixed32(0x40000001u), "bad restart count at offset 10"},
      {e + Fixed32(0) + Fixed32(3), "bad restart count at offset 10"},
      {e + Fixed32(1) + Fixed32(1), "bad restart offset at offset 6"},
      {e + Fixed32(0) + Fixed32(6) + Fixed32(2),
       "bad restart offset at offset 10"},
      {e + e + Fixed32(0) + Fixed32(0) + Fixed32(2),
       "bad restart offset at offset 16"},
      {e + e + Fixed32(0) + Fixed32(99) + Fixed32(2),
       "bad restart offset at offset 16"},
      {Fixed32(1) + Fixed32(1), "bad restart offset at offset 0"},
  };
  for (const Case& c : cases) {
    std::unique_ptr<Block> block = MakeBlock(c.bytes);
    EXPECT_TRUE(block->status().IsCorruption()) << c.message;
    EXPECT_EQ("Corruption: block: block at 0: " + c.message,
              block->status().ToString());
    std::unique_ptr<InternalIterator> it(
        block->NewIterator(BytewiseComparator(), "000042.sst", 4096));
    it->SeekToFirst();
    EXPECT_FALSE(it->Valid());
    EXPECT_EQ("Corruption: 000042.sst: block at 4096: " + c.message,
              it->status().ToString());
  }
}

// A block whose trailer is fine but whose entries are not: the iterator
// fails when it reaches the bad entry, naming it.
Status IterateAll(const std::string& bytes, int* entries) {
  std::unique_ptr<Block> block = MakeBlock(bytes);
  EXPECT_TRUE(block->status().ok()) << block->status().ToString();
  std::unique_ptr<InternalIterator> it(
      block->NewIterator(BytewiseComparator(), "t.sst", 7));
  *entries = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++*entries;
  return it->status();
}

TEST(BlockCorruptionTest, BadEntries) {
  int n = 0;
  // Value length beyond the entry area (entry 2 at offset 6).
  std::string huge_value = Entry(0, "a", "v");
  PutVarint32(&huge_value, 0);
  PutVarint32(&huge_value, 1);
  PutVarint32(&huge_value, 0xfffffff0u);
  huge_value += "b";
  Status s = IterateAll(huge_value + Fixed32(0) + Fixed32(1), &n);
  EXPECT_EQ(1, n);
  EXPECT_EQ("Corruption: t.sst: block at 7: truncated entry at offset 5",
            s.ToString());

  // An unterminated varint at the end of the entry area.
  s = IterateAll(Entry(0, "a", "v") + "\x80\x80" + Fixed32(0) + Fixed32(1), &n);
  EXPECT_EQ(1, n);
  EXPECT_EQ("Corruption: t.sst: block at 7: truncated entry at offset 5",
            s.ToString());

  // Sharing more than the previous key has.
  s = IterateAll(
      Entry(0, "a", "") + Entry(2, "b", "") + Fixed32(0) + Fixed32(1), &n);
  EXPECT_EQ(1, n);
  EXPECT_EQ(
      "Corruption: t.sst: block at 7: shared prefix longer than the previous "
      "key at offset 4",
      s.ToString());

  // A restart entry that shares: found by a forward scan and by the binary
  // search of Seek.
  const std::string sharing_restart = Entry(0, "ab", "") + Entry(1, "c", "") +
                                      Fixed32(0) + Fixed32(5) + Fixed32(2);
  s = IterateAll(sharing_restart, &n);
  EXPECT_EQ(1, n);
  EXPECT_EQ(
      "Corruption: t.sst: block at 7: restart entry with a shared prefix at "
      "offset 5",
      s.ToString());
  std::unique_ptr<Block> block = MakeBlock(sharing_restart);
  std::unique_ptr<InternalIterator> it(
      block->NewIterator(BytewiseComparator(), "t.sst", 7));
  it->Seek("b");
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ("Corruption: t.sst: block at 7: bad restart entry at offset 5",
            it->status().ToString());
  // The error is sticky: the block stays unusable.
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());

  // A restart point inside an entry.
  s = IterateAll(Entry(0, "ab", "xy") + Entry(0, "c", "") + Fixed32(0) +
                     Fixed32(3) + Fixed32(2),
                 &n);
  EXPECT_EQ(1, n);
  EXPECT_EQ(
      "Corruption: t.sst: block at 7: entry straddles a restart point at "
      "offset 3",
      s.ToString());
}

// Runs every operation over a possibly damaged block. It must either work
// (status OK) or fail with Corruption, and always terminate.
bool ExerciseDamaged(const std::string& bytes,
                     const std::vector<std::string>& targets) {
  std::unique_ptr<Block> block = MakeBlock(bytes);
  std::unique_ptr<InternalIterator> it(
      block->NewIterator(BytewiseComparator(), "d.sst", 0));
  if (!block->status().ok()) {
    EXPECT_TRUE(block->status().IsCorruption());
    it->SeekToFirst();
    EXPECT_FALSE(it->Valid());
    EXPECT_TRUE(it->status().IsCorruption());
    return true;
  }
  // Each entry takes at least 3 bytes: a longer walk would be a loop.
  const size_t max_steps = bytes.size() / 3 + 1;
  size_t steps = 0;
  for (it->SeekToFirst(); it->Valid() && steps <= max_steps; it->Next()) {
    it->key();
    it->value();
    steps++;
  }
  EXPECT_LE(steps, max_steps);
  steps = 0;
  for (it->SeekToLast(); it->Valid() && steps <= max_steps; it->Prev()) {
    steps++;
  }
  EXPECT_LE(steps, max_steps);
  for (const std::string& t : targets) {
    it->Seek(t);
    if (it->Valid()) it->Prev();
    if (it->Valid()) it->Next();
    it->SeekForPrev(t);
    if (it->Valid()) it->Next();
    if (it->Valid()) it->Prev();
  }
  const Status s = it->status();
  EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
  if (s.IsCorruption()) {
    EXPECT_NE(std::string::npos, s.ToString().find("d.sst: block at 0: "))
        << s.ToString();
  }
  return s.IsCorruption();
}

TEST(BlockCorruptionTest, EveryByteFlippedOrTruncated) {
  for (int interval : {1, 3}) {
    IterModel model(test::ComparatorLess{BytewiseComparator()});
    for (const char* k : {"", "apple", "apricot", "b", "banana", "bandana", "c",
                          "cherry", "d\xff", "zz"}) {
      model[k] = std::string("value-") + k;
    }
    const std::string good = Build(model, interval);
    std::vector<std::string> targets = {"", "a", "apz", "band", "c", "zzz"};
    for (const auto& kv : model) targets.push_back(kv.first);

    int corrupt = 0;
    for (size_t i = 0; i < good.size(); i++) {
      for (int mask : {0x01, 0x10, 0x80, 0xff}) {
        std::string bad = good;
        bad[i] = static_cast<char>(bad[i] ^ mask);
        SCOPED_TRACE("flip byte " + std::to_string(i) + " mask " +
                     std::to_string(mask));
        const bool detected = ExerciseDamaged(bad, targets);
        if (detected) corrupt++;
        // The high bytes of num_restarts: a count far too big for the block.
        if (i + 3 >= good.size()) {
          EXPECT_TRUE(detected);
        }
      }
    }
    for (size_t len = 0; len < good.size(); len++) {
      SCOPED_TRACE("truncated to " + std::to_string(len));
      if (ExerciseDamaged(good.substr(0, len), targets)) corrupt++;
    }
    // Of the 5 * size damaged copies, about half are detectable without a
    // checksum (the table's block trailer catches the rest): damage to the
    // restart trailer and to entry headers.
    EXPECT_GT(corrupt, static_cast<int>(good.size()));
  }
}

TEST(BlockCorruptionTest, RandomGarbageWithPlausibleTrailers) {
  Random rnd(2024);
  std::vector<std::string> targets = {"", "a", "m", "\xff\xff"};
  for (int i = 0; i < 3000; i++) {
    const uint32_t area = rnd.Uniform(64);
    std::string bytes = RandomBytes(&rnd, area);
    // Mostly sorted in-range restarts starting at 0, so the iterator, not
    // the constructor, has to find the damage.
    const uint32_t n = 1 + rnd.Uniform(4);
    uint32_t offset = 0;
    for (uint32_t r = 0; r < n; r++) {
      bytes += Fixed32(offset);
      offset += 1 + rnd.Uniform(area / n + 1);
    }
    bytes += Fixed32(n);
    ExerciseDamaged(bytes, targets);
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace strata
