// A damaged MANIFEST fails the open and deletes nothing; a torn one (its
// last edit cut short by a crash) opens without it. A clean close's last
// edit makes damage to the edit before it detectable, and its WAL marker
// a MANIFEST that reads back short.

#include <algorithm>
#include <string>
#include <vector>

#include "db/filename.h"
#include "db/log_format.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;

constexpr int kFlushes = 6;

std::string ManifestDamageKey(int flush) {
  return "key" + std::to_string(flush);
}

class DBManifestDamageTest : public testing::Test {
 protected:
  DBManifestDamageTest() {
    // Every table stays where its flush put it.
    h_.options().disable_auto_compactions = true;
  }

  // A closed DB whose MANIFEST holds one edit per flush after its
  // snapshot, all in one block.
  void MakeDB() {
    ASSERT_TRUE(h_.Open().ok());
    for (int i = 0; i < kFlushes; i++) {
      ASSERT_TRUE(h_.Put(ManifestDamageKey(i), "v").ok());
      ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
    }
    h_.Close();
    const test::DBFiles files = test::ListDBFiles(h_.env(), h_.name());
    ASSERT_EQ(1u, files.manifests.size());
    ASSERT_EQ(static_cast<size_t>(kFlushes), files.tables.size());
    tables_ = files.tables;
    manifest_ = DescriptorFileName(h_.name(), files.manifests[0]);
    ASSERT_TRUE(ReadFileToString(h_.env(), manifest_, &contents_).ok());
    ASSERT_LT(contents_.size(), log::kBlockSize);
    // The record headers, walked by their lengths (each record is FULL).
    for (size_t pos = 0; pos + log::kHeaderSize <= contents_.size();) {
      ASSERT_EQ(log::kFullType, static_cast<unsigned char>(contents_[pos + 6]));
      records_.push_back(pos);
      pos += log::kHeaderSize + Length(pos);
    }
    ASSERT_GE(records_.size(), static_cast<size_t>(kFlushes) + 1);
  }

  size_t Length(size_t header) const {
    return static_cast<unsigned char>(contents_[header + 4]) |
           static_cast<size_t>(
               static_cast<unsigned char>(contents_[header + 5]))
               << 8;
  }

  void WriteManifest(const std::string& contents) {
    ASSERT_TRUE(WriteStringToFile(h_.env(), contents, manifest_, true).ok());
  }

  // Removes the close marker that ends the live WAL: the DB as a crash
  // right after its last MANIFEST edit would leave it.
  void DropCloseMarker() {
    const test::DBFiles files = test::ListDBFiles(h_.env(), h_.name());
    ASSERT_FALSE(files.logs.empty());
    const Status s = test::DropCloseMarker(
        h_.env(), LogFileName(h_.name(), *std::max_element(files.logs.begin(),
                                                           files.logs.end())));
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // The open fails with Corruption naming the MANIFEST and holding each
  // of parts, and deletes no table.
  void ExpectCorruptionKeepingTables(const std::vector<std::string>& parts) {
    Status s = h_.Open();
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(manifest_)) << s.ToString();
    for (const std::string& part : parts) {
      EXPECT_NE(std::string::npos, s.ToString().find(part)) << s.ToString();
    }
    h_.Close();
    // Nothing deleted: every table the lost edits added is still there.
    EXPECT_EQ(tables_, Tables());
  }

  // With the MANIFEST whole again, the DB opens with every write.
  void ExpectOpensWithEveryWrite() {
    WriteManifest(contents_);
    ASSERT_TRUE(h_.Open().ok());
    for (int i = 0; i < kFlushes; i++)
      EXPECT_EQ("v", h_.Get(ManifestDamageKey(i)));
  }

  std::vector<uint64_t> Tables() {
    std::vector<uint64_t> t = test::ListDBFiles(h_.env(), h_.name()).tables;
    std::sort(t.begin(), t.end());
    return t;
  }

  DBHolder h_;
  std::string manifest_;
  std::string contents_;
  std::vector<size_t> records_;  // header offsets
  std::vector<uint64_t> tables_;
};

TEST_F(DBManifestDamageTest, DamagedLengthBeforeLaterEditsFailsTheOpen) {
  MakeDB();
  std::sort(tables_.begin(), tables_.end());
  // Each record but the last (which nothing follows) in turn.
  for (size_t i = 0; i + 1 < records_.size(); i++) {
    SCOPED_TRACE("record " + std::to_string(i));
    const size_t header = records_[i];
    // The largest length that fits in the block: it runs past the end of
    // the file, as a torn write's would.
    const size_t length = log::kBlockSize - header - log::kHeaderSize;
    std::string damaged = contents_;
    damaged[header + 4] = static_cast<char>(length & 0xff);
    damaged[header + 5] = static_cast<char>(length >> 8);
    WriteManifest(damaged);
    ExpectCorruptionKeepingTables({"offset " + std::to_string(header) + ":"});
  }
  ExpectOpensWithEveryWrite();
}

// A clean close ends the MANIFEST with one more edit, so a damaged
// length of the last flush's edit, which looks like a torn write, is
// followed by an intact record: Corruption, and the table that edit
// added is kept.
TEST_F(DBManifestDamageTest, DamagedLengthOfTheLastFlushEditFailsTheOpen) {
  MakeDB();
  std::sort(tables_.begin(), tables_.end());
  // The records: the snapshot, the open's edit, one edit per flush (and,
  // after a clean close, its edit).
  ASSERT_GE(records_.size(), static_cast<size_t>(kFlushes) + 2);
  const size_t header = records_[kFlushes + 1];
  const size_t length = log::kBlockSize - header - log::kHeaderSize;
  std::string damaged = contents_;
  damaged[header + 4] = static_cast<char>(length & 0xff);
  damaged[header + 5] = static_cast<char>(length >> 8);
  WriteManifest(damaged);
  ExpectCorruptionKeepingTables({"offset " + std::to_string(header) + ":"});
}

// A MANIFEST whose end is lost after a clean close (the file reads back
// short, the bytes that remain intact) looks like a torn one. The WAL's
// close marker records the MANIFEST's size, so the open fails, and no
// table the lost edits added is deleted.
TEST_F(DBManifestDamageTest, ShortManifestAfterACleanCloseFailsTheOpen) {
  MakeDB();
  std::sort(tables_.begin(), tables_.end());
  // The snapshot, the open's edit, one edit per flush, the close's edit.
  ASSERT_EQ(static_cast<size_t>(kFlushes) + 3, records_.size());
  const size_t last_flush = records_[kFlushes + 1];
  const size_t cuts[] = {
      last_flush + log::kHeaderSize + Length(last_flush) / 2,  // inside it
      records_[kFlushes + 2],  // just before the close's edit
      last_flush + 3,          // inside its header
  };
  for (size_t cut : cuts) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    WriteManifest(contents_.substr(0, cut));
    // The size read, and the size the close left.
    ExpectCorruptionKeepingTables(
        {"reads back as " + std::to_string(cut) + " bytes",
         "left it " + std::to_string(contents_.size()) + " bytes"});
  }
  ExpectOpensWithEveryWrite();
}

TEST_F(DBManifestDamageTest, TornLastEditIsDropped) {
  MakeDB();
  // The last flush's edit, cut short as by a crash while appending it
  // (nothing after it: no close marker either).
  DropCloseMarker();
  ASSERT_GE(records_.size(), static_cast<size_t>(kFlushes) + 2);
  const size_t last = records_[kFlushes + 1];
  WriteManifest(
      contents_.substr(0, last + log::kHeaderSize + Length(last) / 2));
  Status s = h_.Open();
  ASSERT_TRUE(s.ok()) << s.ToString();
  // The last flush's edit is gone (as if a crash had cut its append
  // short); every earlier one is there.
  for (int i = 0; i + 1 < kFlushes; i++)
    EXPECT_EQ("v", h_.Get(ManifestDamageKey(i)));
}

TEST_F(DBManifestDamageTest, TornLastHeaderIsDropped) {
  MakeDB();
  DropCloseMarker();
  ASSERT_GE(records_.size(), static_cast<size_t>(kFlushes) + 2);
  WriteManifest(contents_.substr(0, records_[kFlushes + 1] + 3));
  Status s = h_.Open();
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (int i = 0; i + 1 < kFlushes; i++)
    EXPECT_EQ("v", h_.Get(ManifestDamageKey(i)));
}

}  // namespace
}  // namespace strata
