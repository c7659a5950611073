// Damaged tables: a small table (several data blocks, compressed, with a
// filter) has a bit flipped at every byte of its metadata and a stride of
// bytes through its data blocks, and is cut to every length. Each damaged
// copy is opened and read entirely (scan, Get of every key); the result
// must be the model's data or a Corruption naming the file and an offset.
// Nothing else: no crash (the sanitizers watch), no wrong data.
// Read modes alternate between copying reads and in-place (mmap-like).

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "table/compression.h"
#include "table/format.h"
#include "table/table_properties.h"
#include "test/table/table_test_util.h"

namespace strata {
namespace {

const char kFileName[] = "damaged.sst";

enum class Outcome { kCorrect, kDetected, kWrong };

class TableCorruptionTest : public testing::Test {
 protected:
  TableCorruptionTest() : icmp_(BytewiseComparator()) {
    BlockBasedTableOptions topts;
    topts.block_size = 256;
    topts.filter_policy.reset(NewBloomFilterPolicy(10));
    // Shared by every damaged copy: each reader has keys of its own, and
    // Gets after the scan find the good blocks cached (a damaged block is
    // never cached, so Get reads it again and meets the damage).
    topts.block_cache = NewLRUCache(4 << 20);
    factory_.reset(NewBlockBasedTableFactory(topts));
    TableBuilderOptions bopts;
    bopts.icmp = &icmp_;
    for (CompressionType t : {kSnappyCompression, kZlibCompression}) {
      if (CompressionSupported(t)) {
        bopts.compression = t;
        break;
      }
    }
    model_ = test::RandomTableEntries(11, 60, icmp_, /*large_values=*/false);
    Status s = test::BuildTableInMemory(*factory_, bopts, model_, &table_);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }

  // Opens contents (claiming file_size bytes) and reads everything.
  // verify: ReadOptions::verify_checksums.
  Outcome Check(const std::string& contents, uint64_t file_size, bool verify,
                bool in_memory, std::string* error) {
    std::unique_ptr<RandomAccessFileReader> file(new RandomAccessFileReader(
        std::unique_ptr<RandomAccessFile>(
            new test::StringFile(contents, in_memory)),
        kFileName));
    TableReaderOptions ropts;
    ropts.icmp = &icmp_;
    std::unique_ptr<TableReader> table;
    Status s =
        factory_->NewTableReader(ropts, std::move(file), file_size, &table);
    bool detected = false;
    bool wrong = false;
    auto note = [&](const Status& st) {
      if (st.ok()) return;
      detected = true;
      if (!test::IsLocatedCorruption(st, kFileName) &&
          !(!verify && st.IsNotSupported())) {
        wrong = true;
        *error = st.ToString();
      }
    };
    note(s);
    if (!s.ok()) return wrong ? Outcome::kWrong : Outcome::kDetected;

    ReadOptions ro;
    ro.verify_checksums = verify;
    std::unique_ptr<InternalIterator> it(table->NewIterator(ro));
    size_t i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      if (i >= model_.size() || it->key() != Slice(model_[i].first) ||
          it->value() != Slice(model_[i].second)) {
        if (error->empty()) *error = "scan: wrong entry " + std::to_string(i);
        wrong = true;
        break;
      }
    }
    note(it->status());
    if (it->status().ok() && !wrong && i != model_.size()) {
      *error = "scan: ended early at " + std::to_string(i);
      wrong = true;
    }
    for (size_t k = 0; k < model_.size(); k++) {
      const Slice user_key = ExtractUserKey(model_[k].first);
      if (k > 0 && ExtractUserKey(model_[k - 1].first) == user_key) continue;
      LookupKey lkey(user_key, kMaxSequenceNumber);
      test::GetResult got =
          test::CollectGet(table.get(), ro, lkey.internal_key());
      note(got.status);
      if (!got.status.ok()) continue;
      size_t j = k;
      for (const auto& e : got.entries) {
        if (j >= model_.size() || e != model_[j]) {
          if (error->empty()) *error = "Get: wrong entry " + std::to_string(k);
          wrong = true;
          break;
        }
        j++;
      }
      if (j == k) {
        if (error->empty()) *error = "Get: key missing " + std::to_string(k);
        wrong = true;
      }
    }
    if (wrong) return Outcome::kWrong;
    return detected ? Outcome::kDetected : Outcome::kCorrect;
  }

  // The first byte past the data blocks (where the filter begins).
  size_t DataEnd() {
    std::string error;
    std::unique_ptr<RandomAccessFileReader> file(new RandomAccessFileReader(
        std::unique_ptr<RandomAccessFile>(new test::StringFile(table_, false)),
        kFileName));
    TableReaderOptions ropts;
    ropts.icmp = &icmp_;
    std::unique_ptr<TableReader> table;
    EXPECT_TRUE(
        factory_->NewTableReader(ropts, std::move(file), table_.size(), &table)
            .ok());
    return static_cast<size_t>(table->GetTableProperties()->data_size);
  }

  InternalKeyComparator icmp_;
  std::unique_ptr<TableFactory> factory_;
  test::TableEntries model_;
  std::string table_;
};

TEST_F(TableCorruptionTest, IntactTableReadsBack) {
  std::string error;
  EXPECT_EQ(Check(table_, table_.size(), true, false, &error),
            Outcome::kCorrect)
      << error;
  EXPECT_EQ(Check(table_, table_.size(), true, true, &error), Outcome::kCorrect)
      << error;
  EXPECT_GT(table_.size(), 2000u);  // several blocks
}

// With checksums verified every flip is caught: every byte of the file is
// covered by a block trailer's crc, or is a footer field checked exactly.
TEST_F(TableCorruptionTest, EveryFlipIsDetected) {
  const size_t data_end = DataEnd();
  ASSERT_GT(data_end, 1000u);
  int checked = 0;
  for (size_t pos = 0; pos < table_.size(); pos++) {
    std::string damaged = table_;
    damaged[pos] ^= static_cast<char>(1u << (pos % 8));
    std::string error;
    const Outcome o =
        Check(damaged, damaged.size(), /*verify=*/true, pos % 2 == 0, &error);
    ASSERT_NE(o, Outcome::kWrong) << "flip at " << pos << ": " << error;
    ASSERT_EQ(o, Outcome::kDetected) << "flip at " << pos << " went unseen";
    checked++;
  }
  std::printf("%d flips over a %zu-byte table (data blocks end at %zu)\n",
              checked, table_.size(), data_end);
}

// Without verification a damaged data block may return wrong data (that is
// what turning checks off means) but must not crash or hang, and errors are
// still located.
TEST_F(TableCorruptionTest, UnverifiedDataFlipsNeverCrash) {
  const size_t data_end = DataEnd();
  int detected = 0, wrong = 0;
  for (size_t pos = 0; pos < data_end; pos += 7) {
    for (int bit : {0, 7}) {
      std::string damaged = table_;
      damaged[pos] ^= static_cast<char>(1u << bit);
      std::string error;
      const Outcome o = Check(damaged, damaged.size(), /*verify=*/false,
                              pos % 2 == 0, &error);
      if (o == Outcome::kDetected) detected++;
      if (o == Outcome::kWrong) {
        // Wrong data, never an unlocated error.
        ASSERT_EQ(error.find("Corruption"), std::string::npos)
            << "flip at " << pos << ": " << error;
        wrong++;
      }
    }
  }
  std::printf("unverified data flips: %d detected, %d read back wrong\n",
              detected, wrong);
}

TEST_F(TableCorruptionTest, EveryTruncationIsDetected) {
  for (size_t len = 0; len < table_.size(); len++) {
    const std::string cut = table_.substr(0, len);
    std::string error;
    // The file's real size...
    ASSERT_EQ(Check(cut, len, true, len % 2 == 0, &error), Outcome::kDetected)
        << "cut to " << len << ": " << error;
    // ... and a stale, larger one (short reads).
    ASSERT_EQ(Check(cut, table_.size(), true, len % 2 == 1, &error),
              Outcome::kDetected)
        << "cut to " << len << " (full size claimed): " << error;
  }
}

}  // namespace
}  // namespace strata
