// Point-in-time recovery and damage that is not a torn tail: a damaged
// record followed by intact writes numbered past the last one recovered
// (in the same WAL or a later one) fails DB::Open with a Corruption naming
// the WAL and the offset of the damage, while a torn or damaged tail, and
// damage followed only by stale records or empty batches, still recover
// silently up to the last good record. kSkipAnyCorruptedRecords still
// opens past the damage. A clean close ends the WAL with a close marker,
// so that damage to the last write is no torn tail either.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/log_writer.h"
#include "db/write_batch_internal.h"
#include "env/file_reader.h"
#include "env/file_writer.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/write_batch.h"
#include "test/db/column_family_test_util.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace test {
namespace {

constexpr int kRecords = 60;  // of about 1 KiB: two 32 KiB blocks

std::string WalDamageKey(int i) { return "k" + std::to_string(1000 + i); }
std::string Value(int i) { return std::string(1000, 'a' + i % 26); }

class WalDamageTest : public testing::Test, public FamilyDB {
 protected:
  // Writes keys [from, to) to family cf, one synced batch each.
  void Write(size_t cf, int from, int to) {
    WriteOptions sync;
    sync.sync = true;
    for (int i = from; i < to; i++) {
      ASSERT_TRUE(db_->Put(sync, handles_[cf], WalDamageKey(i), Value(i)).ok());
    }
  }

  // Opens a new DB, writes kRecords batches into its WAL and closes it
  // without a flush; returns the WAL's name. The clean close ends the WAL
  // with its close marker, unless crash: then the marker is cut off, as
  // if the process had died after the last write.
  std::string FillOneWal(bool crash = true) {
    Open({});
    Write(0, 0, kRecords);
    Close();
    const std::vector<uint64_t> logs = ListDBFiles(options_.env, name_).logs;
    EXPECT_EQ(1u, logs.size());
    if (logs.empty()) return "";
    const std::string wal = LogFileName(name_, logs.back());
    const std::vector<uint64_t> offsets = Records(wal);
    EXPECT_EQ(static_cast<size_t>(kRecords) + 1, offsets.size());
    if (crash && !offsets.empty()) {
      const uint64_t marker = offsets.back();
      Rewrite(wal, [marker](std::string* c) { c->resize(marker); });
    }
    return wal;
  }

  // The file offset of each record of a WAL, and (if contents is not
  // null) the records.
  std::vector<uint64_t> Records(const std::string& fname,
                                std::vector<std::string>* contents = nullptr) {
    std::unique_ptr<SequentialFile> file;
    EXPECT_TRUE(
        options_.env->NewSequentialFile(fname, &file, EnvOptions()).ok());
    log::Reader reader(
        std::make_unique<SequentialFileReader>(std::move(file), fname), nullptr,
        /*checksum=*/true, 0);
    std::vector<uint64_t> offsets;
    std::string scratch;
    Slice record;
    while (reader.ReadRecord(&record, &scratch,
                             WALRecoveryMode::kPointInTimeRecovery)) {
      offsets.push_back(reader.LastRecordOffset());
      if (contents != nullptr) contents->push_back(record.ToString());
    }
    return offsets;
  }

  void Rewrite(const std::string& fname,
               const std::function<void(std::string*)>& change) {
    std::string contents;
    ASSERT_TRUE(ReadFileToString(options_.env, fname, &contents).ok());
    change(&contents);
    ASSERT_TRUE(WriteStringToFile(options_.env, contents, fname, true).ok());
  }

  // Flips a byte in the payload of the record at offset (a checksum
  // mismatch).
  void Damage(const std::string& fname, uint64_t offset) {
    Rewrite(fname, [offset](std::string* c) {
      (*c)[offset + log::kHeaderSize + 30] ^= 0x5a;
    });
  }

  // Replaces a WAL with these records.
  void WriteWal(const std::string& fname,
                const std::vector<std::string>& records) {
    std::unique_ptr<WritableFile> file;
    ASSERT_TRUE(options_.env->NewWritableFile(fname, &file, EnvOptions()).ok());
    log::Writer writer(std::make_unique<WritableFileWriter>(
                           std::move(file), fname, EnvOptions()),
                       0);
    for (const std::string& r : records) {
      ASSERT_TRUE(writer.AddRecord(r).ok());
    }
    ASSERT_TRUE(writer.Close().ok());
  }

  Status OpenWith(WALRecoveryMode mode) {
    options_.wal_recovery_mode = mode;
    return OpenStatus({});
  }

  // Which of keys [0, n) family 0 holds.
  std::vector<bool> Present(int n) {
    std::vector<bool> present(n);
    for (int i = 0; i < n; i++)
      present[i] = Get(0, WalDamageKey(i)) == Value(i);
    return present;
  }

  // Point in time opens with every write of FillOneWal but the last.
  void ExpectOpensWithoutTheLastWrite() {
    const Status s = OpenWith(WALRecoveryMode::kPointInTimeRecovery);
    ASSERT_TRUE(s.ok()) << s.ToString();
    const std::vector<bool> present = Present(kRecords);
    for (int i = 0; i < kRecords - 1; i++) EXPECT_TRUE(present[i]) << i;
    EXPECT_FALSE(present[kRecords - 1]);
  }
};

// Says whether s is a Corruption naming fname and offset.
testing::AssertionResult NamesDamage(const Status& s, const std::string& fname,
                                     uint64_t offset) {
  const std::string m = s.ToString();
  if (s.IsCorruption() && m.find(fname) != std::string::npos &&
      m.find("offset " + std::to_string(offset)) != std::string::npos) {
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << m << " (expected a Corruption naming "
                                     << fname << " offset " << offset << ")";
}

TEST_F(WalDamageTest, MidWalDamageFailsTheOpen) {
  const std::string wal = FillOneWal();
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(static_cast<size_t>(kRecords), offsets.size());
  Damage(wal, offsets[5]);

  EXPECT_TRUE(NamesDamage(OpenWith(WALRecoveryMode::kPointInTimeRecovery), wal,
                          offsets[5]));
  // Nothing was changed: the same open fails again.
  EXPECT_TRUE(NamesDamage(OpenWith(WALRecoveryMode::kPointInTimeRecovery), wal,
                          offsets[5]));
}

TEST_F(WalDamageTest, DamagedLastRecordRecoversTheRest) {
  const std::string wal = FillOneWal();
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(static_cast<size_t>(kRecords), offsets.size());
  Damage(wal, offsets.back());

  ExpectOpensWithoutTheLastWrite();
}

// A clean close ends the WAL with its marker, so damage to the last
// write is followed by an intact record: not a torn tail.
TEST_F(WalDamageTest, DamagedLastRecordBeforeTheCloseMarkerFailsTheOpen) {
  const std::string wal = FillOneWal(/*crash=*/false);
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(static_cast<size_t>(kRecords) + 1, offsets.size());
  const uint64_t last = offsets[kRecords - 1];
  Damage(wal, last);
  EXPECT_TRUE(
      NamesDamage(OpenWith(WALRecoveryMode::kPointInTimeRecovery), wal, last));
}

// The same with the last write's length damaged so that it runs past the
// end of the file, as a torn write's would.
TEST_F(WalDamageTest, DamagedLastLengthBeforeTheCloseMarkerFailsTheOpen) {
  const std::string wal = FillOneWal(/*crash=*/false);
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(static_cast<size_t>(kRecords) + 1, offsets.size());
  const uint64_t last = offsets[kRecords - 1];
  Rewrite(wal, [last](std::string* c) {
    const size_t length = log::kBlockSize - last % log::kBlockSize -
                          log::kHeaderSize;  // fits in its block
    ASSERT_GT(last + log::kHeaderSize + length, c->size());
    (*c)[last + 4] = static_cast<char>(length & 0xff);
    (*c)[last + 5] = static_cast<char>(length >> 8);
  });
  EXPECT_TRUE(
      NamesDamage(OpenWith(WALRecoveryMode::kPointInTimeRecovery), wal, last));
}

// Damage to the marker itself loses nothing.
TEST_F(WalDamageTest, DamagedCloseMarkerOpensWithEveryWrite) {
  const std::string wal = FillOneWal(/*crash=*/false);
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(static_cast<size_t>(kRecords) + 1, offsets.size());
  const uint64_t marker = offsets.back();
  Rewrite(wal, [marker](std::string* c) { (*c)[marker + 9] ^= 0x10; });
  ASSERT_TRUE(OpenWith(WALRecoveryMode::kPointInTimeRecovery).ok());
  const std::vector<bool> present = Present(kRecords);
  for (int i = 0; i < kRecords; i++) EXPECT_TRUE(present[i]) << i;
}

// Damage with intact records after it in the same 32 KiB block: the
// reader drops the rest of the block, but the scan for later writes
// resynchronizes on the next intact fragment and finds them.
TEST_F(WalDamageTest, DamageBeforeLaterWritesInItsBlockFailsTheOpen) {
  const std::string wal = FillOneWal();
  std::vector<std::string> records;
  Records(wal, &records);
  ASSERT_EQ(static_cast<size_t>(kRecords), records.size());
  // Three small records, all in the first block; the middle one damaged.
  WriteWal(wal, {records[0], records[1], records[2]});
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(3u, offsets.size());
  Damage(wal, offsets[1]);
  EXPECT_TRUE(NamesDamage(OpenWith(WALRecoveryMode::kPointInTimeRecovery), wal,
                          offsets[1]));
}

// A second session's clean close vouches for its own WAL the same way,
// and the first session's marker (replayed, then obsolete) is no write.
TEST_F(WalDamageTest, CloseMarkerAfterAReopen) {
  FillOneWal(/*crash=*/false);
  ASSERT_TRUE(OpenWith(WALRecoveryMode::kPointInTimeRecovery).ok());
  Write(0, kRecords, kRecords + 3);
  Close();
  const std::vector<uint64_t> logs = ListDBFiles(options_.env, name_).logs;
  ASSERT_EQ(1u, logs.size());
  const std::string wal = LogFileName(name_, logs[0]);
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(4u, offsets.size());  // three writes and the marker
  ASSERT_TRUE(OpenWith(WALRecoveryMode::kPointInTimeRecovery).ok());
  const std::vector<bool> present = Present(kRecords + 3);
  for (int i = 0; i < kRecords + 3; i++) EXPECT_TRUE(present[i]) << i;
  Close();
}

TEST_F(WalDamageTest, TruncatedTailRecoversTheRest) {
  const std::string wal = FillOneWal();
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(static_cast<size_t>(kRecords), offsets.size());
  const uint64_t cut = offsets.back() + 500;
  Rewrite(wal, [cut](std::string* c) { c->resize(cut); });

  ExpectOpensWithoutTheLastWrite();
}

TEST_F(WalDamageTest, DamageBeforeALaterWalWithLaterWritesFailsTheOpen) {
  // Flushing "other" starts a new WAL and keeps the first one for the
  // default family's writes.
  Open({});
  Create({"other"});
  ASSERT_TRUE(Put(1, "o", "v").ok());
  Write(0, 0, 10);
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  Write(0, 10, 20);
  Close();
  const std::vector<uint64_t> logs = ListDBFiles(options_.env, name_).logs;
  ASSERT_EQ(2u, logs.size());
  const std::string first = LogFileName(name_, logs[0]);
  const std::vector<uint64_t> offsets = Records(first);
  ASSERT_EQ(11u, offsets.size());
  // The first WAL's last record: nothing intact follows it in its WAL.
  Damage(first, offsets.back());

  options_.wal_recovery_mode = WALRecoveryMode::kPointInTimeRecovery;
  EXPECT_TRUE(NamesDamage(OpenStatus({"other"}), first, offsets.back()));

  // Skip-any opens with everything but the damaged record.
  options_.wal_recovery_mode = WALRecoveryMode::kSkipAnyCorruptedRecords;
  ASSERT_TRUE(OpenStatus({"other"}).ok());
  const std::vector<bool> present = Present(20);
  for (int i = 0; i < 20; i++) EXPECT_EQ(i != 9, present[i]) << i;
  EXPECT_EQ("v", Get(1, "o"));
}

TEST_F(WalDamageTest, SkipAnyCorruptedRecordsOpensPastMidWalDamage) {
  const std::string wal = FillOneWal();
  const std::vector<uint64_t> offsets = Records(wal);
  ASSERT_EQ(static_cast<size_t>(kRecords), offsets.size());
  Damage(wal, offsets[5]);

  const Status s = OpenWith(WALRecoveryMode::kSkipAnyCorruptedRecords);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::vector<bool> present = Present(kRecords);
  for (int i = 0; i < 5; i++) EXPECT_TRUE(present[i]) << i;
  EXPECT_FALSE(present[5]);
  // The checksum mismatch drops the rest of its 32 KiB block; the records
  // of the next block are back.
  EXPECT_TRUE(present[kRecords - 1]);
  EXPECT_TRUE(present[kRecords - 2]);
}

// A record that is not a write batch, then only records that name no
// write past the last one recovered — a stale copy of an earlier batch, an
// empty batch — opens, stopping at the damage; a later write after them
// fails the open.
TEST_F(WalDamageTest, StaleAndEmptyBatchesAfterDamageDoNotCount) {
  const std::string wal = FillOneWal();
  std::vector<std::string> records;
  Records(wal, &records);
  ASSERT_EQ(static_cast<size_t>(kRecords), records.size());
  WriteBatch empty;
  WriteBatchInternal::SetSequence(&empty, 1000);
  const std::string not_a_batch = "not a batch";

  WriteWal(wal, {records[0], records[1], records[2], not_a_batch, records[0],
                 WriteBatchInternal::Contents(&empty).ToString(), records[3]});
  Status s = OpenWith(WALRecoveryMode::kPointInTimeRecovery);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(wal)) << s.ToString();

  WriteWal(wal, {records[0], records[1], records[2], not_a_batch, records[0],
                 WriteBatchInternal::Contents(&empty).ToString()});
  s = OpenWith(WALRecoveryMode::kPointInTimeRecovery);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::vector<bool> present = Present(4);
  EXPECT_TRUE(present[0] && present[1] && present[2]);
  EXPECT_FALSE(present[3]);
}

}  // namespace
}  // namespace test
}  // namespace strata
