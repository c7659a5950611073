// Blocks: BlockBuilder's encoding read back by Block's iterator against a
// std::map model (every restart interval, bytewise and internal-key
// order), the restart layout, and damaged blocks — every byte flipped,
// every truncation, random garbage — which must read as a decoder written
// from the spec reads them: Corruption, or exactly the entries the bytes
// hold; never an out-of-bounds read (ASan) or a hang.

#include "table/block.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "table/block_builder.h"
#include "table/block_iter.h"
#include "test/table/block_test_util.h"
#include "test/table/iter_model.h"
#include "test/util/testutil.h"
#include "util/coding.h"
#include "util/logging.h"
#include "util/random.h"

namespace strata {
namespace {

using test::IterModel;
using test::MakeBlock;
using test::RandomBytes;

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

  // A restart point inside an entry: found as the next entry is decoded,
  // or at the end of the block when it is inside the last one.
  const std::string straddling = Entry(0, "ab", "xy");
  for (const std::string& entries :
       {straddling + Entry(0, "c", ""), straddling}) {
    s = IterateAll(entries + Fixed32(0) + Fixed32(3) + Fixed32(2), &n);
    EXPECT_EQ(1, n);
    EXPECT_EQ(
        "Corruption: t.sst: block at 7: entry straddles a restart point at "
        "offset 3",
        s.ToString());
  }
}

// A block decoded as docs/formats/table.md ("Block layout") defines it,
// without the reader's code: the trailer, then the entries one after
// another from offset 0.
struct SpecBlock {
  bool trailer_ok = false;
  // The entries tile the entry area, each restart point starts an entry
  // that shares nothing, and no entry shares more than the previous key.
  bool well_formed = false;
  // The entries decoded before the first violation; all when well formed.
  std::vector<std::pair<std::string, std::string>> entries;
};

SpecBlock DecodeAsSpecified(const std::string& b) {
  SpecBlock spec;
  if (b.size() < 4) return spec;
  const uint64_t count = DecodeFixed32(b.data() + b.size() - 4);
  if (count == 0 || count > (b.size() - 4) / 4) return spec;
  const uint64_t area = b.size() - 4 - 4 * count;
  std::set<uint64_t> restarts;
  for (uint64_t i = 0; i < count; i++) {
    const uint64_t r = DecodeFixed32(b.data() + area + 4 * i);
    const bool in_order = i == 0 ? r == 0 : r > *restarts.rbegin() && r < area;
    if (!in_order) return spec;
    restarts.insert(r);
  }
  spec.trailer_ok = true;
  Slice in(b.data(), area);
  std::string key;
  while (!in.empty()) {
    const uint64_t offset = area - in.size();
    uint32_t shared, unshared, value_len;
    if (!GetVarint32(&in, &shared) || !GetVarint32(&in, &unshared) ||
        !GetVarint32(&in, &value_len) || unshared > in.size() ||
        value_len > in.size() - unshared || shared > key.size() ||
        (shared != 0 && restarts.count(offset) != 0)) {
      return spec;
    }
    key.resize(shared);
    key.append(in.data(), unshared);
    spec.entries.emplace_back(key,
                              std::string(in.data() + unshared, value_len));
    in.remove_prefix(unshared + value_len);
    const auto next_restart = restarts.upper_bound(offset);
    if (next_restart != restarts.end() && *next_restart < area - in.size()) {
      return spec;  // the entry straddles a restart point
    }
  }
  spec.well_formed = true;
  return spec;
}

// Runs every operation over a possibly damaged block and holds the reader
// to the spec: a malformed trailer makes it an error block; otherwise
// scans show exactly the entries the spec decodes, in order, and end with
// OK when the block is well formed, with Corruption (naming the file)
// when not — never an entry that is not in the block, never a hang. Seeks
// in a well-formed block whose keys are in order match a model of its
// entries; in one out of order (only a checksum catches that) they land on
// entries of the block. Returns whether the damage was detected.
bool ExerciseDamaged(const std::string& bytes,
                     const std::vector<std::string>& targets,
                     int* seeks_checked = nullptr) {
  const SpecBlock spec = DecodeAsSpecified(bytes);
  std::unique_ptr<Block> block = MakeBlock(bytes);
  std::unique_ptr<InternalIterator> it(
      block->NewIterator(BytewiseComparator(), "d.sst", 0));
  EXPECT_EQ(!spec.trailer_ok, block->status().IsCorruption())
      << block->status().ToString();
  if (!block->status().ok()) {
    it->SeekToFirst();
    EXPECT_FALSE(it->Valid());
    EXPECT_TRUE(it->status().IsCorruption());
    return true;
  }
  auto expect_status = [&spec, &bytes](const Status& s, const char* where) {
    if (spec.well_formed) {
      EXPECT_TRUE(s.ok()) << where << ": " << s.ToString();
    } else {
      EXPECT_TRUE(s.IsCorruption())
          << where << ": " << s.ToString() << " for " << EscapeString(bytes);
      EXPECT_NE(std::string::npos, s.ToString().find("d.sst: block at 0: "))
          << s.ToString();
    }
  };
  // Forward: a prefix of the spec's entries, all of them if well formed.
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    if (n == spec.entries.size()) {
      ADD_FAILURE() << "forward scan: an entry the block does not hold";
      break;
    }
    EXPECT_EQ(spec.entries[n].first, it->key().ToString()) << "entry " << n;
    EXPECT_EQ(spec.entries[n].second, it->value().ToString()) << "entry " << n;
  }
  expect_status(it->status(), "forward scan");
  if (spec.well_formed) {
    EXPECT_EQ(spec.entries.size(), n);
  }
  // Backward, restarting at each restart point: the same entries reversed
  // when well formed.
  std::unique_ptr<InternalIterator> back(
      block->NewIterator(BytewiseComparator(), "d.sst", 0));
  // (Each entry takes at least 3 bytes: a longer walk would be a loop.)
  const size_t most = spec.well_formed ? spec.entries.size() : bytes.size() / 3;
  n = 0;
  for (back->SeekToLast(); back->Valid(); back->Prev(), n++) {
    if (n == most) {
      ADD_FAILURE() << "backward scan: more entries than the block holds";
      break;
    }
    if (!spec.well_formed) continue;
    const auto& e = spec.entries[spec.entries.size() - 1 - n];
    EXPECT_EQ(e.first, back->key().ToString());
    EXPECT_EQ(e.second, back->value().ToString());
  }
  expect_status(back->status(), "backward scan");
  if (spec.well_formed) {
    EXPECT_EQ(spec.entries.size(), n);
  }

  bool sorted = spec.well_formed;
  for (size_t i = 1; sorted && i < spec.entries.size(); i++) {
    sorted = spec.entries[i - 1].first < spec.entries[i].first;
  }
  IterModel model(test::ComparatorLess{BytewiseComparator()});
  for (const auto& e : spec.entries) model.insert(e);
  for (const std::string& t : targets) {
    std::unique_ptr<InternalIterator> s(
        block->NewIterator(BytewiseComparator(), "d.sst", 0));
    if (sorted) {
      test::ExpectSeeksMatch(s.get(), model, t);
      if (seeks_checked != nullptr) ++*seeks_checked;
      continue;
    }
    s->Seek(t);
    if (s->Valid()) s->Prev();
    if (s->Valid()) s->Next();
    s->SeekForPrev(t);
    if (s->Valid()) s->Next();
    if (s->Valid()) s->Prev();
    if (spec.well_formed) {
      EXPECT_TRUE(s->status().ok()) << s->status().ToString();
      if (s->Valid()) {
        const std::pair<std::string, std::string> at(s->key().ToString(),
                                                     s->value().ToString());
        EXPECT_NE(spec.entries.end(),
                  std::find(spec.entries.begin(), spec.entries.end(), at));
      }
    } else {
      EXPECT_TRUE(s->status().ok() || s->status().IsCorruption())
          << s->status().ToString();
    }
  }
  return !spec.well_formed;
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

    int corrupt = 0, seeks = 0;
    for (size_t i = 0; i < good.size(); i++) {
      for (int mask : {0x01, 0x10, 0x80, 0xff}) {
        std::string bad = good;
        bad[i] = static_cast<char>(bad[i] ^ mask);
        SCOPED_TRACE("flip byte " + std::to_string(i) + " mask " +
                     std::to_string(mask));
        const bool detected = ExerciseDamaged(bad, targets, &seeks);
        if (detected) corrupt++;
        // The high bytes of num_restarts: a count far too big for the block.
        if (i + 3 >= good.size()) {
          EXPECT_TRUE(detected);
        }
        if (HasFailure()) return;
      }
    }
    for (size_t len = 0; len < good.size(); len++) {
      SCOPED_TRACE("truncated to " + std::to_string(len));
      if (ExerciseDamaged(good.substr(0, len), targets, &seeks)) corrupt++;
      if (HasFailure()) return;
    }
    // Of the 5 * size damaged copies, about half are detectable without a
    // checksum (the table's block trailer catches the rest): damage to the
    // restart trailer and to entry headers.
    EXPECT_GT(corrupt, static_cast<int>(good.size()));
    // Damage to values and to key bytes that keeps the order: the seeks
    // in those blocks were held to the model.
    EXPECT_GT(seeks, 10 * static_cast<int>(targets.size()));
  }
}

TEST(BlockCorruptionTest, RandomGarbageWithPlausibleTrailers) {
  Random rnd(2024);
  std::vector<std::string> targets = {"", "a", "m", "\xff\xff"};
  int detected = 0, seeks = 0;
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
    if (ExerciseDamaged(bytes, targets, &seeks)) detected++;
    if (HasFailure()) break;
  }
  // Both outcomes occur: most garbage is caught, and some is a
  // well-formed block of sorted entries (an empty one at least).
  EXPECT_GT(detected, 1000);
  EXPECT_GT(seeks, 40);
}

}  // namespace
}  // namespace strata
