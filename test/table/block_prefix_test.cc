// Block::BuildUserKeyPrefixes: seeks through the restart-key prefixes must
// land exactly where the plain binary search lands, for user keys of every
// length around 8 bytes, keys sharing their first 8 bytes, NUL and 0xff
// bytes, and many versions of one user key; and blocks the prefixes
// cannot describe (a restart key shorter than an internal key, a damaged
// restart entry) are left to the plain search.

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/block_iter.h"
#include "test/table/block_test_util.h"
#include "test/table/iter_model.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

using test::IterModel;
using test::MakeBlock;

std::string BuildBlock(const IterModel& model, int restart_interval) {
  BlockBuilder builder(restart_interval);
  for (const auto& kv : model) builder.Add(kv.first, kv.second);
  return builder.Finish().ToString();
}

// User keys crowded around the 8-byte boundary: lengths 0 to 12 over a
// tiny alphabet (NUL, 'a', 0xff), so that many keys share their first 8
// bytes, or differ from a neighbour only past them or by zero padding.
std::string RandomUserKey(Random* rnd) {
  static const char kAlphabet[] = {'\0', 'a', '\xff'};
  std::string key;
  const int len = static_cast<int>(rnd->Uniform(13));
  const std::string base = rnd->OneIn(2) ? "prefix00" : "";
  key = base.substr(0, std::min<size_t>(base.size(), len));
  while (static_cast<int>(key.size()) < len) key += kAlphabet[rnd->Uniform(3)];
  return key;
}

TEST(BlockPrefixTest, UserKeyPrefixOrdersLikeTheKeys) {
  Random rnd(301);
  for (int i = 0; i < 20000; i++) {
    const std::string a = RandomUserKey(&rnd);
    const std::string b = RandomUserKey(&rnd);
    if (Slice(a).compare(Slice(b)) < 0) {
      ASSERT_LE(UserKeyPrefix(a, 0), UserKeyPrefix(b, 0)) << i;
      // Past a common beginning too.
      const std::string ca = "common" + a, cb = "common" + b;
      ASSERT_LE(UserKeyPrefix(ca, 6), UserKeyPrefix(cb, 6)) << i;
    }
  }
  EXPECT_EQ(UserKeyPrefix(Slice("\x01", 1), 0), uint32_t{1} << 24);
  EXPECT_EQ(UserKeyPrefix(Slice("abcdZZ"), 0), UserKeyPrefix("abcd", 0));
  EXPECT_LT(UserKeyPrefix("abc", 0), UserKeyPrefix("abcd", 0));
  EXPECT_EQ(UserKeyPrefix("xxabcd", 2), UserKeyPrefix("abcd", 0));
  EXPECT_EQ(UserKeyPrefix("xx", 2), 0u);
  EXPECT_EQ(UserKeyPrefix("x", 2), 0u);
}

TEST(BlockPrefixTest, SeeksMatchTheModel) {
  InternalKeyComparator icmp(BytewiseComparator());
  // Keys of no common beginning, and keys that all begin with the same
  // bytes (the prefixes are taken after them), sought with targets that
  // do and do not begin with them.
  for (const std::string common : {"", "common/", "\xff\xff", "prefix00"}) {
    for (int interval : {1, 2, 16}) {
      SCOPED_TRACE("common '" + common + "' interval " +
                   std::to_string(interval));
      // A last key above them all that lacks the common bytes, as an
      // index's last entry (the successor of the table's last key) often
      // is: the common bytes up to the last below 0xff, plus one.
      std::string apart = common;
      while (!apart.empty() && apart.back() == '\xff') apart.pop_back();
      if (!apart.empty()) apart.back()++;
      Random rnd(7 + interval);
      IterModel model(test::ComparatorLess{&icmp});
      for (int i = 0; i < 600; i++) {
        const ValueType type = rnd.OneIn(4) ? kTypeDeletion : kTypeValue;
        model[InternalKey(common + RandomUserKey(&rnd), rnd.Uniform(50), type)
                  .Encode()
                  .ToString()] = std::to_string(i);
      }
      if (!apart.empty()) {
        // One such key in an index (interval 1); with longer intervals a
        // run of them that begins in the interval before the last restart
        // point, which is the last of them.
        const size_t want = interval > 1 ? 2 : 1;
        size_t added = 0;
        do {
          const std::string user = apart + static_cast<char>('a' + added);
          model[InternalKey(user, 1, kTypeValue).Encode().ToString()] = "apart";
          added++;
        } while (added < want || (model.size() - 1) % interval != 0);
      }
      std::unique_ptr<Block> block = MakeBlock(BuildBlock(model, interval));
      ASSERT_TRUE(block->status().ok());
      const size_t plain = block->usable_size();
      block->BuildUserKeyPrefixes();
      // The prefixes exist (else this test would test the plain search).
      ASSERT_GT(block->usable_size(), plain);
      std::unique_ptr<InternalIterator> it(block->NewIterator(&icmp));
      test::ExpectScansMatch(it.get(), model);
      auto target = [&common, &apart](Random* r) {
        std::string user = RandomUserKey(r);
        if (r->OneIn(4))
          return InternalKey(apart + user, r->Uniform(60), kValueTypeForSeek)
              .Encode()
              .ToString();
        if (!r->OneIn(3))
          user = common.substr(0, r->Uniform(3) == 0
                                      ? r->Uniform(common.size() + 1)
                                      : common.size()) +
                 user;
        return InternalKey(user, r->Uniform(60), kValueTypeForSeek)
            .Encode()
            .ToString();
      };
      for (int i = 0; i < 3000; i++) {
        test::ExpectSeeksMatch(it.get(), model, target(&rnd));
        ASSERT_FALSE(HasFatalFailure());
      }
      test::RandomWalk(it.get(), model, &rnd, 3000, target);
    }
  }
}

TEST(BlockPrefixTest, OneRestartAndSharedBeginnings) {
  // A block of user keys (an index of format version 2) whose restart
  // keys share all but their last bytes, one of a single restart point,
  // and each with a last key apart: seeks below, inside and above the
  // common bytes.
  for (int count : {1, 2, 40}) {
    for (bool apart : {false, true}) {
      IterModel model(test::ComparatorLess{BytewiseComparator()});
      for (int i = 0; i < count; i++) {
        char user[32];
        std::snprintf(user, sizeof(user), "shared-beginning-%03d", i * 7);
        model[user] = std::to_string(i);
      }
      // As an index's last entry: above the rest, without their beginning.
      if (apart) model["shared-beginning."] = "apart";
      std::unique_ptr<Block> block = MakeBlock(BuildBlock(model, 1));
      const size_t plain = block->usable_size();
      block->BuildUserKeyPrefixes(/*internal_keys=*/false);
      ASSERT_GT(block->usable_size(), plain);
      std::unique_ptr<InternalIterator> it(
          block->NewIterator(BytewiseComparator()));
      for (const char* t :
           {"", "a", "shared", "shared-beginning-", "shared-beginning-0",
            "shared-beginning-000", "shared-beginning-0000",
            "shared-beginning-007", "shared-beginning-1", "shared-beginning-2",
            "shared-beginning-273", "shared-beginning-274", "shared-beginnings",
            "shared-beginning-\xff", "sharee", "shared-beginning.",
            "shared-beginning.a", "z", "\xff\xff"}) {
        test::ExpectSeeksMatch(it.get(), model, t);
        ASSERT_FALSE(HasFatalFailure()) << count << " " << apart << " " << t;
      }
    }
  }
}

TEST(BlockPrefixTest, TwoRestartsTheLastExtendingTheFirst) {
  // The common bytes are then the whole first key, and the last begins
  // with them: not apart.
  IterModel model(test::ComparatorLess{BytewiseComparator()});
  model["key"] = "1";
  model["key-and-more"] = "2";
  std::unique_ptr<Block> block = MakeBlock(BuildBlock(model, 1));
  block->BuildUserKeyPrefixes(/*internal_keys=*/false);
  std::unique_ptr<InternalIterator> it(
      block->NewIterator(BytewiseComparator()));
  for (const char* t : {"", "ke", "key", "key\x01", "key-", "key-and-more",
                        "key-and-more\x01", "key-b", "kez", "\xff"}) {
    test::ExpectSeeksMatch(it.get(), model, t);
  }
}

TEST(BlockPrefixTest, ShortRestartKeyLeavesThePlainSearch) {
  // Keys shorter than an internal key (a foreign or damaged index): no
  // prefixes, and seeks still work.
  IterModel model(test::ComparatorLess{BytewiseComparator()});
  for (const char* k : {"a", "abc", "abcdefgh", "b", "bcdefghijk"}) {
    model[k] = "v";
  }
  std::unique_ptr<Block> block = MakeBlock(BuildBlock(model, 1));
  const size_t plain = block->usable_size();
  block->BuildUserKeyPrefixes();
  EXPECT_EQ(block->usable_size(), plain);
  std::unique_ptr<InternalIterator> it(
      block->NewIterator(BytewiseComparator()));
  for (const char* t : {"", "a", "abcd", "abcdefghz", "bz", "c"}) {
    test::ExpectSeeksMatch(it.get(), model, t);
  }
}

TEST(BlockPrefixTest, DamagedRestartEntryLeavesThePlainSearch) {
  InternalKeyComparator icmp(BytewiseComparator());
  IterModel model(test::ComparatorLess{&icmp});
  for (int i = 0; i < 8; i++) {
    char user[16];
    std::snprintf(user, sizeof(user), "key%04d", i);
    model[InternalKey(user, 1, kTypeValue).Encode().ToString()] = "v";
  }
  std::string bytes = BuildBlock(model, 1);
  // The fifth entry's "shared" byte (the first restart a search of 8
  // probes): a restart entry must share nothing.
  const size_t restarts_at = bytes.size() - 4 - 8 * 4;
  bytes[DecodeFixed32(bytes.data() + restarts_at + 4 * 4)] = 1;
  std::unique_ptr<Block> block = MakeBlock(bytes);
  ASSERT_TRUE(block->status().ok());
  const size_t plain = block->usable_size();
  block->BuildUserKeyPrefixes();
  EXPECT_EQ(block->usable_size(), plain);
  // The plain search meets the damaged entry and says so.
  std::unique_ptr<InternalIterator> it(block->NewIterator(&icmp));
  it->Seek(InternalKey("key0005", 1, kValueTypeForSeek).Encode());
  EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
}

}  // namespace
}  // namespace strata
