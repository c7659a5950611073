// DBIter over an in-memory internal iterator, checked against a model of
// what is visible at the read's sequence number: random histories of puts
// and deletions, random bounds, random walks in both directions.

#include "db/db_iter.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/slice_transform.h"
#include "table/internal_iterator.h"
#include "test/db/model_walk.h"
#include "test/util/vector_iterator.h"
#include "util/random.h"

namespace strata {
namespace {

struct Version {
  std::string key;
  SequenceNumber sequence;
  ValueType type;
  std::string value;
};

class DBIterTest : public testing::Test {
 protected:
  DBIterTest() : icmp_(BytewiseComparator()) {}

  Iterator* NewIter(const std::vector<Version>& versions, SequenceNumber seq,
                    const Slice* lower = nullptr,
                    const Slice* upper = nullptr) {
    test::VectorIterator::Entries entries;
    for (const Version& v : versions) {
      entries.emplace_back(
          InternalKey(v.key, v.sequence, v.type).Encode().ToString(), v.value);
    }
    return NewDBIterator(BytewiseComparator(),
                         new test::VectorIterator(&icmp_, entries), seq, lower,
                         upper, nullptr);
  }

  InternalKeyComparator icmp_;
};

// Stops with a Corruption on reaching one entry, as a table iterator
// stops at a block that fails its checksum.
class FailingIterator final : public InternalIterator {
 public:
  FailingIterator(InternalIterator* inner, std::string fail_at)
      : inner_(inner), fail_at_(std::move(fail_at)) {}
  bool Valid() const override { return !failed_ && inner_->Valid(); }
  void SeekToFirst() override {
    Check([&] { inner_->SeekToFirst(); });
  }
  void SeekToLast() override {
    Check([&] { inner_->SeekToLast(); });
  }
  void Seek(const Slice& t) override {
    Check([&] { inner_->Seek(t); });
  }
  void SeekForPrev(const Slice& t) override {
    Check([&] { inner_->SeekForPrev(t); });
  }
  void Next() override {
    Check([&] { inner_->Next(); });
  }
  void Prev() override {
    Check([&] { inner_->Prev(); });
  }
  Slice key() const override { return inner_->key(); }
  Slice value() const override { return inner_->value(); }
  Status status() const override {
    return failed_ ? Status::Corruption("damaged block") : inner_->status();
  }

 private:
  template <class Move>
  void Check(Move move) {
    move();
    failed_ = inner_->Valid() && inner_->key() == Slice(fail_at_);
  }

  std::unique_ptr<InternalIterator> inner_;
  const std::string fail_at_;
  bool failed_ = false;
};

// In reverse a key's versions come oldest first: when the newer one
// cannot be read, the older one must not be yielded as the key's value.
TEST_F(DBIterTest, ReverseScanStoppedByAnErrorYieldsNothing) {
  const std::vector<Version> h = {{"a", 1, kTypeValue, "old"},
                                  {"a", 5, kTypeValue, "new"},
                                  {"b", 2, kTypeValue, "b2"}};
  test::VectorIterator::Entries entries;
  for (const Version& v : h) {
    entries.emplace_back(
        InternalKey(v.key, v.sequence, v.type).Encode().ToString(), v.value);
  }
  const std::string fail_at =
      InternalKey("a", 5, kTypeValue).Encode().ToString();
  std::unique_ptr<Iterator> it(NewDBIterator(
      BytewiseComparator(),
      new FailingIterator(new test::VectorIterator(&icmp_, entries), fail_at),
      10, nullptr, nullptr, nullptr));
  it->SeekToLast();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b", it->key().ToString());
  it->Prev();
  EXPECT_FALSE(it->Valid())
      << it->key().ToString() << "=" << it->value().ToString();
  EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
}

TEST_F(DBIterTest, HidesNewerShadowedAndDeleted) {
  std::vector<Version> h = {
      {"a", 1, kTypeValue, "a1"}, {"a", 5, kTypeValue, "a5"},
      {"b", 2, kTypeValue, "b2"}, {"b", 4, kTypeDeletion, ""},
      {"c", 3, kTypeValue, "c3"}, {"c", 6, kTypeSingleDeletion, ""},
      {"d", 7, kTypeValue, "d7"},
  };
  std::unique_ptr<Iterator> now(NewIter(h, 10));
  EXPECT_EQ("a=a5 d=d7 ", test::ScanAll(now.get(), true));
  EXPECT_EQ("d=d7 a=a5 ", test::ScanAll(now.get(), false));
  std::unique_ptr<Iterator> at3(NewIter(h, 3));
  EXPECT_EQ("a=a1 b=b2 c=c3 ", test::ScanAll(at3.get(), true));
  EXPECT_EQ("c=c3 b=b2 a=a1 ", test::ScanAll(at3.get(), false));
  std::unique_ptr<Iterator> at0(NewIter(h, 0));
  EXPECT_EQ("", test::ScanAll(at0.get(), true));
  EXPECT_EQ("", test::ScanAll(at0.get(), false));
}

TEST_F(DBIterTest, SeeksAndBounds) {
  std::vector<Version> h = {{"a", 1, kTypeValue, "1"},
                            {"c", 2, kTypeValue, "2"},
                            {"e", 3, kTypeValue, "3"},
                            {"g", 4, kTypeValue, "4"}};
  std::unique_ptr<Iterator> it(NewIter(h, 10));
  it->Seek("b");
  EXPECT_EQ("c", it->key().ToString());
  it->SeekForPrev("d");
  EXPECT_EQ("c", it->key().ToString());
  it->SeekForPrev("c");
  EXPECT_EQ("c", it->key().ToString());
  it->SeekForPrev("0");
  EXPECT_FALSE(it->Valid());
  it->Seek("h");
  EXPECT_FALSE(it->Valid());

  Slice lower("b"), upper("g");
  std::unique_ptr<Iterator> bounded(NewIter(h, 10, &lower, &upper));
  EXPECT_EQ("c=2 e=3 ", test::ScanAll(bounded.get(), true));
  EXPECT_EQ("e=3 c=2 ", test::ScanAll(bounded.get(), false));
  bounded->Seek("a");
  EXPECT_EQ("c", bounded->key().ToString());
  bounded->SeekForPrev("z");
  EXPECT_EQ("e", bounded->key().ToString());
  bounded->Prev();
  EXPECT_EQ("c", bounded->key().ToString());
  bounded->Prev();
  EXPECT_FALSE(bounded->Valid());
}

TEST_F(DBIterTest, DirectionSwitchesOverManyVersions) {
  std::vector<Version> h;
  SequenceNumber seq = 1;
  for (const char* k : {"a", "b", "c"}) {
    for (int i = 0; i < 5; i++) {
      h.push_back({k, seq++, kTypeValue, std::string(k) + std::to_string(i)});
    }
  }
  std::unique_ptr<Iterator> it(NewIter(h, 100));
  it->Seek("b");
  EXPECT_EQ("b4", it->value().ToString());
  it->Prev();
  EXPECT_EQ("a4", it->value().ToString());
  it->Next();
  EXPECT_EQ("b4", it->value().ToString());
  it->Next();
  EXPECT_EQ("c4", it->value().ToString());
  it->Prev();
  EXPECT_EQ("b4", it->value().ToString());
}

TEST_F(DBIterTest, CorruptKeyIsReported) {
  test::VectorIterator::Entries entries = {{"short", "x"}};
  std::unique_ptr<Iterator> it(NewDBIterator(
      BytewiseComparator(), new test::VectorIterator(&icmp_, entries), 10,
      nullptr, nullptr, nullptr));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
}

TEST_F(DBIterTest, CleanupRunsOnDestruction) {
  int cleaned = 0;
  delete NewDBIterator(BytewiseComparator(), NewEmptyInternalIterator(), 1,
                       nullptr, nullptr, [&cleaned]() { cleaned++; });
  EXPECT_EQ(1, cleaned);
}

// Random histories: the iterator must agree with the model at each step.
TEST_F(DBIterTest, RandomizedAgainstModel) {
  Random rnd(301);
  for (int round = 0; round < 60; round++) {
    std::vector<Version> h;
    const int num_keys = 1 + rnd.Uniform(12);
    const int num_versions = rnd.Uniform(60);
    for (int i = 0; i < num_versions; i++) {
      Version v;
      v.key = std::string(1, static_cast<char>('a' + rnd.Uniform(num_keys)));
      v.sequence = i + 1;
      v.type = rnd.OneIn(3) ? kTypeDeletion : kTypeValue;
      if (v.type == kTypeValue) v.value = "v" + std::to_string(i + 1);
      h.push_back(v);
    }
    const SequenceNumber seq = rnd.Uniform(num_versions + 2);
    std::map<std::string, std::string> model;
    for (const Version& v : h) {
      if (v.sequence > seq) continue;
      if (v.type == kTypeValue) {
        model[v.key] = v.value;
      } else {
        model.erase(v.key);
      }
    }
    std::string lower_key(1, static_cast<char>('a' + rnd.Uniform(14)));
    std::string upper_key(1, static_cast<char>('a' + rnd.Uniform(14)));
    Slice lower(lower_key), upper(upper_key);
    const bool use_lower = rnd.OneIn(2), use_upper = rnd.OneIn(2);
    std::map<std::string, std::string> bounded;
    for (const auto& kv : model) {
      if (use_lower && kv.first < lower_key) continue;
      if (use_upper && kv.first >= upper_key) continue;
      bounded.insert(kv);
    }
    std::unique_ptr<Iterator> it(NewIter(h, seq, use_lower ? &lower : nullptr,
                                         use_upper ? &upper : nullptr));
    SCOPED_TRACE("round " + std::to_string(round));
    test::RandomModelWalk(it.get(), bounded, &rnd, 200, [](Random* r) {
      return std::string(1, static_cast<char>('a' + r->Uniform(14)));
    });
    if (HasFatalFailure()) return;
  }
}

// The first two bytes; shorter keys have no prefix.
class TwoBytePrefix : public SliceTransform {
 public:
  const char* Name() const override { return "test.TwoBytePrefix"; }
  Slice Transform(const Slice& key) const override {
    return Slice(key.data(), 2);
  }
  bool InDomain(const Slice& key) const override { return key.size() >= 2; }
};

// prefix_same_as_start: after a seek to a key with a prefix, the iterator
// shows only keys of that prefix (both directions) until the next seek;
// SeekToFirst/SeekToLast show everything.
TEST_F(DBIterTest, PrefixSameAsStartAgainstModel) {
  TwoBytePrefix prefix;
  Random rnd(17);
  auto random_key = [&rnd]() {
    std::string k;
    const int len = 1 + rnd.Uniform(3);
    for (int i = 0; i < len; i++) k += static_cast<char>('a' + rnd.Uniform(3));
    return k;
  };
  for (int round = 0; round < 40; round++) {
    std::vector<Version> h;
    std::map<std::string, std::string> model;
    const int num_versions = rnd.Uniform(50);
    for (int i = 0; i < num_versions; i++) {
      Version v{random_key(), static_cast<SequenceNumber>(i + 1),
                rnd.OneIn(4) ? kTypeDeletion : kTypeValue, ""};
      if (v.type == kTypeValue) {
        v.value = "v" + std::to_string(i + 1);
        model[v.key] = v.value;
      } else {
        model.erase(v.key);
      }
      h.push_back(v);
    }
    test::VectorIterator::Entries entries;
    for (const Version& v : h) {
      entries.emplace_back(
          InternalKey(v.key, v.sequence, v.type).Encode().ToString(), v.value);
    }
    std::unique_ptr<Iterator> it(NewDBIterator(
        BytewiseComparator(), new test::VectorIterator(&icmp_, entries),
        kMaxSequenceNumber, nullptr, nullptr, &prefix,
        /*merge_operator=*/nullptr, nullptr));

    test::PrefixModelWalk(it.get(), model, 2, nullptr, nullptr, &rnd, 100,
                          [&random_key](Random*) { return random_key(); });
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace strata
