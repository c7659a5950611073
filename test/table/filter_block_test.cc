#include "table/filter_block.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"

namespace strata {
namespace {

// ---- A policy that records what reaches its builder
// ---------------------------

class RecordingBuilder : public FilterBitsBuilder {
 public:
  explicit RecordingBuilder(std::vector<std::string>* keys) : keys_(keys) {}
  void AddKey(const Slice& key) override { keys_->push_back(key.ToString()); }
  size_t NumAdded() const override { return keys_->size(); }
  void Finish(std::string* out) override { out->append("recorded"); }

 private:
  std::vector<std::string>* const keys_;
};

class RecordingPolicy : public FilterPolicy {
 public:
  const char* Name() const override { return "test.Recording"; }
  FilterBitsBuilder* NewBuilder() const override {
    return new RecordingBuilder(&keys);
  }
  FilterBitsReader* NewReader(const Slice&) const override { return nullptr; }
  mutable std::vector<std::string> keys;
};

TEST(FullFilterBlockBuilderTest, AddsKeysAndPrefixesEachOnce) {
  RecordingPolicy policy;
  std::unique_ptr<const SliceTransform> prefix(NewFixedPrefixTransform(3));
  FullFilterBlockBuilder builder(&policy, prefix.get(), true);
  EXPECT_TRUE(builder.empty());
  builder.Add("aa");    // outside the domain: key only
  builder.Add("abc1");  // versions of one user key come in a row
  builder.Add("abc1");
  builder.Add("abc2");  // same prefix: not added again
  builder.Add("abd");   // key equals its prefix: offered twice, harmless
  EXPECT_FALSE(builder.empty());
  EXPECT_EQ(
      (std::vector<std::string>{"aa", "abc1", "abc", "abc2", "abd", "abd"}),
      policy.keys);
  EXPECT_EQ("recorded", builder.Finish().ToString());
}

TEST(FullFilterBlockBuilderTest, EmptyWhenNothingReachesTheFilter) {
  RecordingPolicy policy;
  std::unique_ptr<const SliceTransform> prefix(NewFixedPrefixTransform(8));
  FullFilterBlockBuilder no_keys(&policy, prefix.get(), false);
  no_keys.Add("short");  // outside the prefix domain, no whole keys
  EXPECT_TRUE(no_keys.empty());
  FullFilterBlockBuilder nothing(&policy, nullptr, false);
  nothing.Add("anything");
  EXPECT_TRUE(nothing.empty());
  EXPECT_TRUE(policy.keys.empty());
}

// ---- The configuration matrix over the bloom policy
// --------------------------

// 200 prefixes "p000".."p199", each with five keys, plus short keys
// outside a 4-byte prefix domain; in order, as a table adds them.
std::vector<std::string> TableKeys() {
  std::vector<std::string> keys = {"a", "ab"};
  for (int p = 0; p < 200; p++) {
    char prefix[8];
    std::snprintf(prefix, sizeof(prefix), "p%03d", p);
    for (int s = 0; s < 5; s++) keys.push_back(prefix + std::to_string(s));
  }
  return keys;
}

std::string AbsentPrefix(int i) {
  char prefix[8];
  std::snprintf(prefix, sizeof(prefix), "q%03d", i);
  return prefix;
}

struct Config {
  bool whole_key;
  bool prefix;
};

class FilterBlockMatrixTest : public testing::TestWithParam<Config> {
 protected:
  FilterBlockMatrixTest()
      : policy_(NewBloomFilterPolicy(10)),
        extractor_(NewFixedPrefixTransform(4)) {}

  const SliceTransform* extractor() const {
    return GetParam().prefix ? extractor_.get() : nullptr;
  }

  // Builds the filter of TableKeys() and a reader configured as built.
  std::unique_ptr<FullFilterBlockReader> BuildAndOpen(bool* empty) {
    FullFilterBlockBuilder builder(policy_.get(), extractor(),
                                   GetParam().whole_key);
    for (const std::string& key : TableKeys()) builder.Add(key);
    *empty = builder.empty();
    const Slice block = builder.Finish();
    // An owned copy, as the table reader hands over a block read from disk.
    std::unique_ptr<char[]> bytes(new char[block.size() + 1]);
    std::memcpy(bytes.get(), block.data(), block.size());
    BlockContents contents(std::move(bytes), block.size());
    return std::unique_ptr<FullFilterBlockReader>(new FullFilterBlockReader(
        policy_.get(), std::move(contents), extractor(), GetParam().whole_key));
  }

  std::unique_ptr<const FilterPolicy> policy_;
  std::unique_ptr<const SliceTransform> extractor_;
};

TEST_P(FilterBlockMatrixTest, NeverDeniesWhatWasAdded) {
  bool empty = false;
  std::unique_ptr<FullFilterBlockReader> reader = BuildAndOpen(&empty);
  EXPECT_EQ(!GetParam().whole_key && !GetParam().prefix, empty);
  for (const std::string& key : TableKeys()) {
    EXPECT_TRUE(reader->KeyMayMatch(key)) << key;
    if (key.size() >= 4) {
      EXPECT_TRUE(reader->PrefixMayMatch(Slice(key.data(), 4))) << key;
    }
  }
}

TEST_P(FilterBlockMatrixTest, DeniesMostOfWhatWasNot) {
  bool empty = false;
  std::unique_ptr<FullFilterBlockReader> reader = BuildAndOpen(&empty);
  int keys_denied = 0;
  int prefixes_denied = 0;
  int same_prefix_keys_denied = 0;
  for (int i = 0; i < 200; i++) {
    const std::string prefix = AbsentPrefix(i);
    if (!reader->KeyMayMatch(prefix + "0")) keys_denied++;
    if (!reader->PrefixMayMatch(prefix)) prefixes_denied++;
    // An absent key whose prefix is in the table.
    if (!reader->KeyMayMatch("p" + prefix.substr(1) + "x")) {
      same_prefix_keys_denied++;
    }
  }
  // Whole keys rule out absent keys; without them the prefix still does,
  // unless the key's prefix is present.
  const bool can_deny_keys = GetParam().whole_key || GetParam().prefix;
  EXPECT_EQ(can_deny_keys, keys_denied > 180) << keys_denied;
  EXPECT_EQ(GetParam().whole_key, same_prefix_keys_denied > 180)
      << same_prefix_keys_denied;
  EXPECT_EQ(GetParam().prefix, prefixes_denied > 180) << prefixes_denied;
  if (!can_deny_keys) {
    EXPECT_EQ(0, keys_denied);
  }
  if (!GetParam().prefix) {
    EXPECT_EQ(0, prefixes_denied);
  }
  // Keys outside the prefix domain: only whole keys can rule them out.
  if (!GetParam().whole_key) {
    EXPECT_TRUE(reader->KeyMayMatch("zz"));
  }
}

INSTANTIATE_TEST_SUITE_P(
    WholeKeyAndPrefix, FilterBlockMatrixTest,
    testing::Values(Config{true, false}, Config{true, true},
                    Config{false, true}, Config{false, false}),
    [](const testing::TestParamInfo<Config>& info) {
      return std::string(info.param.whole_key ? "WholeKey" : "NoWholeKey") +
             (info.param.prefix ? "Prefix" : "NoPrefix");
    });

// ---- Readers that cannot use the filter
// ---------------------------------------

class FullFilterBlockReaderTest : public testing::Test {
 protected:
  FullFilterBlockReaderTest()
      : policy_(NewBloomFilterPolicy(10)),
        extractor_(NewFixedPrefixTransform(4)) {}

  std::string Build(bool whole_key, const SliceTransform* extractor) {
    FullFilterBlockBuilder builder(policy_.get(), extractor, whole_key);
    for (const std::string& key : TableKeys()) builder.Add(key);
    return builder.Finish().ToString();
  }

  // Every absent key and prefix of AbsentPrefix() reported possible.
  static bool AnswersTrue(const FullFilterBlockReader& reader) {
    for (int i = 0; i < 200; i++) {
      const std::string prefix = AbsentPrefix(i);
      if (!reader.KeyMayMatch(prefix + "0")) return false;
      if (!reader.PrefixMayMatch(prefix)) return false;
    }
    return true;
  }

  std::unique_ptr<const FilterPolicy> policy_;
  std::unique_ptr<const SliceTransform> extractor_;
};

TEST_F(FullFilterBlockReaderTest, MismatchedConfigurationAnswersTrue) {
  // Built with prefixes only; a reader told the table has no prefix
  // extractor (e.g. a different one is configured now) and no whole keys
  // must not use the filter for either question.
  const std::string prefixes_only = Build(false, extractor_.get());
  FullFilterBlockReader reader(policy_.get(), BlockContents(prefixes_only),
                               nullptr, false);
  EXPECT_TRUE(AnswersTrue(reader));

  // Built with whole keys only: no prefix question is answerable.
  const std::string keys_only = Build(true, nullptr);
  FullFilterBlockReader no_prefixes(policy_.get(), BlockContents(keys_only),
                                    nullptr, true);
  for (int i = 0; i < 200; i++) {
    EXPECT_TRUE(no_prefixes.PrefixMayMatch(AbsentPrefix(i)));
  }
}

TEST_F(FullFilterBlockReaderTest, UnreadableFilterAnswersTrue) {
  const std::string good = Build(true, extractor_.get());
  const std::string damaged[] = {std::string(), good.substr(0, 10),
                                 good.substr(1), good + "x"};
  for (const std::string& bytes : damaged) {
    FullFilterBlockReader reader(policy_.get(), BlockContents(Slice(bytes)),
                                 extractor_.get(), true);
    EXPECT_TRUE(AnswersTrue(reader)) << bytes.size();
  }
  // A policy that cannot read the filter at all, or none.
  RecordingPolicy unreadable;
  FullFilterBlockReader foreign(&unreadable, BlockContents(Slice(good)),
                                extractor_.get(), true);
  EXPECT_TRUE(AnswersTrue(foreign));
  FullFilterBlockReader no_policy(nullptr, BlockContents(Slice(good)),
                                  extractor_.get(), true);
  EXPECT_TRUE(AnswersTrue(no_policy));
}

TEST_F(FullFilterBlockReaderTest, MemoryUsageCountsOwnedContents) {
  const std::string bytes = Build(true, nullptr);
  std::unique_ptr<char[]> owned(new char[bytes.size()]);
  std::memcpy(owned.get(), bytes.data(), bytes.size());
  FullFilterBlockReader owning(policy_.get(),
                               BlockContents(std::move(owned), bytes.size()),
                               nullptr, true);
  FullFilterBlockReader borrowing(policy_.get(), BlockContents(Slice(bytes)),
                                  nullptr, true);
  EXPECT_GE(owning.ApproximateMemoryUsage(), bytes.size());
  EXPECT_EQ(owning.ApproximateMemoryUsage(),
            borrowing.ApproximateMemoryUsage() + bytes.size());
  EXPECT_TRUE(owning.KeyMayMatch("p0001"));
}

TEST_F(FullFilterBlockReaderTest, ConcurrentQueriesAgree) {
  // One reader serves every thread of a DB (ThreadSanitizer checks that
  // queries share no mutable state).
  const std::string bytes = Build(true, extractor_.get());
  const FullFilterBlockReader reader(policy_.get(), BlockContents(Slice(bytes)),
                                     extractor_.get(), true);
  std::vector<int> denied(4, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < denied.size(); t++) {
    threads.emplace_back([&reader, &denied, t] {
      for (const std::string& key : TableKeys()) {
        if (!reader.KeyMayMatch(key)) denied[t] = -1000000;
      }
      for (int i = 0; i < 200; i++) {
        if (!reader.PrefixMayMatch(AbsentPrefix(i))) denied[t]++;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_GT(denied[0], 180);
  for (int d : denied) EXPECT_EQ(denied[0], d);
}

}  // namespace
}  // namespace strata
