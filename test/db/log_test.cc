#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/log_reader.h"
#include "db/log_writer.h"
#include "env/file_reader.h"
#include "env/file_writer.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "strata/options.h"
#include "test/util/temp_dir.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/random.h"

namespace strata {
namespace log {
namespace {

constexpr uint64_t kLogNumber = 12;

const WALRecoveryMode kAllModes[] = {
    WALRecoveryMode::kTolerateCorruptedTailRecords,
    WALRecoveryMode::kAbsoluteConsistency,
    WALRecoveryMode::kPointInTimeRecovery,
    WALRecoveryMode::kSkipAnyCorruptedRecords,
};

std::string BigString(const std::string& partial, size_t n) {
  std::string result;
  while (result.size() < n) result += partial;
  result.resize(n);
  return result;
}

std::string NumberString(int n) { return std::to_string(n) + "."; }

// Appends to a string; fails every Append while *fail is set.
class StringSink : public WritableFile {
 public:
  StringSink(std::string* contents, const bool* fail)
      : contents_(contents), fail_(fail) {}
  Status Append(const Slice& data) override {
    if (*fail_) return Status::IOError("injected append failure");
    contents_->append(data.data(), data.size());
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  uint64_t GetFileSize() override { return contents_->size(); }

 private:
  std::string* const contents_;
  const bool* const fail_;
};

// Reads a string; read number fail_read (from 0) fails.
class StringSource : public SequentialFile {
 public:
  StringSource(const std::string& contents, int fail_read)
      : contents_(contents), fail_read_(fail_read) {}
  Status Read(size_t n, Slice* result, char* scratch) override {
    if (reads_++ == fail_read_) return Status::IOError("injected read failure");
    n = std::min(n, contents_.size() - pos_);
    std::memcpy(scratch, contents_.data() + pos_, n);
    *result = Slice(scratch, n);
    pos_ += n;
    return Status::OK();
  }
  Status Skip(uint64_t n) override {
    pos_ += static_cast<size_t>(std::min<uint64_t>(n, contents_.size() - pos_));
    return Status::OK();
  }

 private:
  const std::string contents_;
  const int fail_read_;
  int reads_ = 0;
  size_t pos_ = 0;
};

struct Report {
  size_t bytes;
  std::string message;
};

class Collector : public Reader::Reporter {
 public:
  void Corruption(size_t bytes, const Status& status) override {
    reports.push_back(Report{bytes, status.ToString()});
  }
  std::vector<Report> reports;
};

struct ReadResult {
  std::vector<std::string> records;
  std::vector<uint64_t> offsets;  // LastRecordOffset() after each
  std::vector<Report> reports;
};

// A report expected: its size and a piece of its message.
struct Expected {
  size_t bytes;
  std::string text;
};

class LogTest : public testing::Test {
 protected:
  LogTest() { NewWriter(); }

  // A writer continuing contents_ (which may hold a log already).
  void NewWriter() {
    writer_.reset();
    std::unique_ptr<WritableFile> sink(
        new StringSink(&contents_, &fail_appends_));
    writer_.reset(
        new Writer(std::unique_ptr<WritableFileWriter>(new WritableFileWriter(
                       std::move(sink), "000012.log", EnvOptions())),
                   kLogNumber));
  }

  void Reset() {
    writer_.reset();
    contents_.clear();
    NewWriter();
  }

  void Write(const std::string& record) {
    Status s = writer_->AddRecord(record);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // The file, every record written so far included.
  std::string& Contents() {
    Status s = writer_->file()->Flush();
    EXPECT_TRUE(s.ok()) << s.ToString();
    return contents_;
  }

  void IncrementByte(size_t offset, int delta) {
    Contents()[offset] = static_cast<char>(Contents()[offset] + delta);
  }
  void ShrinkTo(size_t size) { Contents().resize(size); }
  void SetLength(size_t header, size_t length) {
    Contents()[header + 4] = static_cast<char>(length & 0xff);
    Contents()[header + 5] = static_cast<char>(length >> 8);
  }
  // Sets a fragment's type and gives it a valid checksum again.
  void SetType(size_t header, unsigned char type) {
    std::string& c = Contents();
    c[header + 6] = static_cast<char>(type);
    const size_t length =
        static_cast<unsigned char>(c[header + 4]) |
        static_cast<size_t>(static_cast<unsigned char>(c[header + 5])) << 8;
    EncodeFixed32(&c[header],
                  crc32c::Mask(crc32c::Value(&c[header + 6], 1 + length)));
  }

  ReadResult ReadAll(WALRecoveryMode mode, bool checksum = true,
                     int fail_read = -1, bool check_torn_tails = false,
                     bool resync = false) {
    Collector collector;
    Reader reader(
        std::unique_ptr<SequentialFileReader>(new SequentialFileReader(
            std::unique_ptr<SequentialFile>(
                new StringSource(Contents(), fail_read)),
            "000012.log")),
        &collector, checksum, kLogNumber);
    if (check_torn_tails) reader.CheckTornTails();
    if (resync) reader.ResyncAfterDamage();
    ReadResult result;
    Slice record;
    std::string scratch;
    while (reader.ReadRecord(&record, &scratch, mode)) {
      result.records.push_back(record.ToString());
      result.offsets.push_back(reader.LastRecordOffset());
    }
    // The end stays the end.
    EXPECT_FALSE(reader.ReadRecord(&record, &scratch, mode));
    result.reports = std::move(collector.reports);
    return result;
  }

  // Reads in every mode; always_reported come back in every mode,
  // tail_reported (a torn tail) only with kAbsoluteConsistency.
  // check_torn_tails: read with Reader::CheckTornTails on.
  void ExpectInEveryMode(const std::vector<std::string>& records,
                         const std::vector<Expected>& always_reported,
                         const std::vector<Expected>& tail_reported = {},
                         bool check_torn_tails = false) {
    for (WALRecoveryMode mode : kAllModes) {
      SCOPED_TRACE("mode " + std::to_string(static_cast<int>(mode)));
      ReadResult r = ReadAll(mode, true, -1, check_torn_tails);
      EXPECT_EQ(records, r.records);
      std::vector<Expected> expected = always_reported;
      if (mode == WALRecoveryMode::kAbsoluteConsistency) {
        expected.insert(expected.end(), tail_reported.begin(),
                        tail_reported.end());
      }
      ASSERT_EQ(expected.size(), r.reports.size());
      for (size_t i = 0; i < expected.size(); i++) {
        EXPECT_EQ(expected[i].bytes, r.reports[i].bytes) << i;
        EXPECT_NE(std::string::npos,
                  r.reports[i].message.find(expected[i].text))
            << r.reports[i].message << " lacks " << expected[i].text;
        EXPECT_EQ(0u, r.reports[i].message.find("Corruption: log #12 offset"))
            << r.reports[i].message;
      }
    }
  }

  std::string contents_;
  bool fail_appends_ = false;
  std::unique_ptr<Writer> writer_;
};

// ---- Round trips
// --------------------------------------------------------------

TEST_F(LogTest, Empty) { ExpectInEveryMode({}, {}); }

TEST_F(LogTest, SmallRecords) {
  Write("foo");
  Write("bar");
  Write("");
  Write("xxxx");
  EXPECT_EQ(kLogNumber, writer_->log_number());
  ExpectInEveryMode({"foo", "bar", "", "xxxx"}, {});
  ReadResult r = ReadAll(WALRecoveryMode::kPointInTimeRecovery);
  EXPECT_EQ((std::vector<uint64_t>{0, 10, 20, 27}), r.offsets);
  EXPECT_EQ(38u, Contents().size());
}

TEST_F(LogTest, ManySmallRecordsOverManyBlocks) {
  std::vector<std::string> expected;
  for (int i = 0; i < 50000; i++) {
    expected.push_back(NumberString(i));
    Write(expected.back());
  }
  EXPECT_GT(Contents().size(), 10 * kBlockSize);
  ReadResult r = ReadAll(WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(expected, r.records);
  EXPECT_TRUE(r.reports.empty());
}

TEST_F(LogTest, Fragmentation) {
  const std::vector<std::string> records = {"small", BigString("medium", 50000),
                                            BigString("large", 100000)};
  for (const std::string& rec : records) Write(rec);
  ExpectInEveryMode(records, {});
}

TEST_F(LogTest, BlockSizedRecords) {
  // Fills block 0 exactly: one FULL fragment, no trailer.
  const std::string exact = BigString("a", kBlockSize - kHeaderSize);
  Write(exact);
  EXPECT_EQ(kBlockSize, Contents().size());
  EXPECT_EQ(kFullType, Contents()[6]);
  Write("b");
  EXPECT_EQ(kBlockSize + kHeaderSize + 1, Contents().size());
  // A record of a whole block's size is a FIRST and a LAST.
  const std::string block = BigString("c", kBlockSize);
  Write(block);
  EXPECT_EQ(kFirstType, Contents()[kBlockSize + 8 + 6]);
  EXPECT_EQ(kLastType, Contents()[2 * kBlockSize + 6]);
  ExpectInEveryMode({exact, "b", block}, {});
  ReadResult r = ReadAll(WALRecoveryMode::kPointInTimeRecovery);
  EXPECT_EQ((std::vector<uint64_t>{0, kBlockSize, kBlockSize + 8}), r.offsets);
}

// A first record leaves 0..7 bytes in block 0; the second record, of each
// shape, must go to the right place and the trailer be zeros.
TEST_F(LogTest, EveryTrailerSizeAndRecordShape) {
  const std::string shapes[] = {"", "small", BigString("big", 3 * kBlockSize)};
  for (size_t left = 0; left <= kHeaderSize; left++) {
    for (const std::string& second : shapes) {
      SCOPED_TRACE("left " + std::to_string(left) + " second " +
                   std::to_string(second.size()));
      Reset();
      const std::string first = BigString("x", kBlockSize - kHeaderSize - left);
      Write(first);
      Write(second);
      Write("tail");
      const std::string& c = Contents();
      uint64_t second_offset = kBlockSize - left;
      if (left < kHeaderSize) {
        EXPECT_EQ(std::string(left, '\0'), c.substr(kBlockSize - left, left));
        second_offset = kBlockSize;
      }
      const bool fits = second.size() + kHeaderSize <=
                        kBlockSize - (second_offset % kBlockSize);
      EXPECT_EQ(fits ? kFullType : kFirstType, c[second_offset + 6]);
      ExpectInEveryMode({first, second, "tail"}, {});
      ReadResult r = ReadAll(WALRecoveryMode::kAbsoluteConsistency);
      ASSERT_EQ(3u, r.offsets.size());
      EXPECT_EQ(0u, r.offsets[0]);
      EXPECT_EQ(second_offset, r.offsets[1]);
    }
  }
}

TEST_F(LogTest, RandomSizedRecords) {
  Random rnd(301);
  std::vector<std::string> expected;
  std::vector<uint64_t> offsets;
  for (int i = 0; i < 500; i++) {
    uint64_t offset = writer_->file()->GetFileSize();
    if (kBlockSize - offset % kBlockSize < kHeaderSize) {
      offset += kBlockSize - offset % kBlockSize;  // after the trailer
    }
    offsets.push_back(offset);
    expected.push_back(BigString(NumberString(i), rnd.Skewed(17)));
    Write(expected.back());
  }
  ReadResult r = ReadAll(WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(expected, r.records);
  EXPECT_EQ(offsets, r.offsets);
  EXPECT_TRUE(r.reports.empty());
}

TEST_F(LogTest, WriterResumesOnNonEmptyFile) {
  Write("foo");
  Write(BigString("bar", 40000));
  Write("baz");
  NewWriter();  // continues at size % kBlockSize
  Write("qux");
  Write(BigString("big", 70000));
  ExpectInEveryMode(
      {"foo", BigString("bar", 40000), "baz", "qux", BigString("big", 70000)},
      {});

  // Resumed with fewer than a header's bytes left in the block.
  Reset();
  Write(BigString("y", kBlockSize - kHeaderSize - 3));
  NewWriter();
  Write("x");
  EXPECT_EQ(kBlockSize + kHeaderSize + 1, Contents().size());
  ExpectInEveryMode({BigString("y", kBlockSize - kHeaderSize - 3), "x"}, {});
}

TEST(LogEnvTest, ResumeAndReadThroughMemEnv) {
  std::unique_ptr<Env> env(NewMemEnv(Env::Default()));
  test::TempDir dir(env.get(), "log");
  const std::string fname = dir.File("000007.log");
  const std::string big = BigString("payload", 50000);
  for (int round = 0; round < 2; round++) {
    std::unique_ptr<WritableFile> file;
    Status s = round == 0 ? env->NewWritableFile(fname, &file, EnvOptions())
                          : env->ReopenWritableFile(fname, &file, EnvOptions());
    ASSERT_TRUE(s.ok()) << s.ToString();
    Writer writer(std::unique_ptr<WritableFileWriter>(new WritableFileWriter(
                      std::move(file), fname, EnvOptions())),
                  7);
    ASSERT_TRUE(writer.AddRecord("round" + std::to_string(round)).ok());
    ASSERT_TRUE(writer.AddRecord(big).ok());
    ASSERT_TRUE(writer.file()->Sync(false).ok());
    ASSERT_TRUE(writer.Close().ok());
  }
  std::unique_ptr<SequentialFile> file;
  ASSERT_TRUE(env->NewSequentialFile(fname, &file, EnvOptions()).ok());
  Collector collector;
  Reader reader(std::unique_ptr<SequentialFileReader>(
                    new SequentialFileReader(std::move(file), fname)),
                &collector, true, 7);
  std::vector<std::string> got;
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch,
                           WALRecoveryMode::kAbsoluteConsistency)) {
    got.push_back(record.ToString());
  }
  EXPECT_EQ((std::vector<std::string>{"round0", big, "round1", big}), got);
  EXPECT_TRUE(collector.reports.empty());
}

TEST_F(LogTest, WriteErrorIsSticky) {
  Write("before");
  fail_appends_ = true;
  Status s = writer_->AddRecord(BigString("x", 4 << 20));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  fail_appends_ = false;
  const size_t size = writer_->file()->GetFileSize();
  Status again = writer_->AddRecord("after");
  EXPECT_TRUE(again.IsIOError());
  EXPECT_EQ(s.ToString(), again.ToString());
  EXPECT_EQ(size, writer_->file()->GetFileSize());
}

// ---- Damage: reported in every mode, reading goes on
// ---------------------------

// foo at 0, a record filling the rest of block 0, bar in block 1.
class LogDamageTest : public LogTest {
 protected:
  void WriteTwoBlocks() {
    Write("foo");
    fill_ = BigString("fill", kBlockSize - 10 - kHeaderSize);
    Write(fill_);
    Write("bar");
    ASSERT_EQ(kBlockSize + 10, Contents().size());
  }
  std::string fill_;
};

TEST_F(LogDamageTest, BadChecksumDropsRestOfBlock) {
  WriteTwoBlocks();
  IncrementByte(kHeaderSize, 1);  // foo's payload
  ExpectInEveryMode({"bar"},
                    {{kBlockSize, "log #12 offset 0: checksum mismatch"}});
}

TEST_F(LogDamageTest, BadChecksumLaterInBlock) {
  WriteTwoBlocks();
  IncrementByte(10, 1);  // the fill record's crc
  ExpectInEveryMode({"foo", "bar"},
                    {{kBlockSize - 10, "offset 10: checksum mismatch"}});
}

TEST_F(LogTest, ChecksumOffIgnoresCrcDamage) {
  Write("foo");
  Write("bar");
  IncrementByte(0, 1);                     // foo's crc
  IncrementByte(10 + kHeaderSize + 1, 1);  // bar's payload: "bbr"
  ReadResult r = ReadAll(WALRecoveryMode::kAbsoluteConsistency, false);
  EXPECT_EQ((std::vector<std::string>{"foo", "bbr"}), r.records);
  EXPECT_TRUE(r.reports.empty());
  ExpectInEveryMode({}, {{20, "offset 0: checksum mismatch"}});
}

TEST_F(LogDamageTest, LengthPastBlock) {
  WriteTwoBlocks();
  SetLength(0, 40000);
  ExpectInEveryMode({"bar"},
                    {{kBlockSize, "offset 0: bad fragment length 40000"}});
}

TEST_F(LogTest, LengthPastBlockInLastBlockIsNotATornTail) {
  Write("foo");
  SetLength(0, 40000);  // could never have fitted in block 0
  ExpectInEveryMode({}, {{10, "offset 0: bad fragment length 40000"}});
}

TEST_F(LogTest, LengthWithinBlockFailsChecksum) {
  Write("foo");
  Write("bar");
  SetLength(0, 4);
  ExpectInEveryMode({}, {{20, "offset 0: checksum mismatch"}});
}

TEST_F(LogTest, UnknownTypeDropsOneFragment) {
  Write("foo");
  Write("bar");
  Write("baz");
  SetType(10, 9);
  ExpectInEveryMode({"foo", "baz"},
                    {{10, "log #12 offset 10: unknown fragment type 9"}});
  SetType(10, kZeroType);  // type 0 with a payload is not padding
  ExpectInEveryMode({"foo", "baz"},
                    {{10, "offset 10: unknown fragment type 0"}});
}

TEST_F(LogTest, MissingStart) {
  // FIRST@0, MIDDLE@32768, LAST@65536 (14 bytes), then foo.
  Write(BigString("big", 2 * kBlockSize));
  Write("foo");
  SetType(0, kMiddleType);
  ExpectInEveryMode(
      {"foo"},
      {{kBlockSize, "offset 0: MIDDLE fragment without a FIRST"},
       {kBlockSize, "offset 32768: MIDDLE fragment without a FIRST"},
       {kHeaderSize + 14, "offset 65536: LAST fragment without a FIRST"}});
}

TEST_F(LogTest, LastWithoutFirstAfterBadChecksum) {
  Write(BigString("big", kBlockSize));  // FIRST@0, LAST@32768 (7 bytes)
  Write("foo");
  IncrementByte(100, 1);
  ExpectInEveryMode({"foo"}, {{kBlockSize, "offset 0: checksum mismatch"},
                              {kHeaderSize + 7,
                               "offset 32768: LAST fragment without a FIRST"}});
}

TEST_F(LogTest, DamageInsideRecordDropsThePartialRecord) {
  Write(BigString("big", 2 * kBlockSize));  // FIRST, MIDDLE, LAST
  Write("foo");
  IncrementByte(kBlockSize + 100, 1);  // the MIDDLE's payload
  ExpectInEveryMode(
      {"foo"},
      {{kBlockSize + (kBlockSize - kHeaderSize),
        "offset 32768: checksum mismatch (dropping the partial record from "
        "offset 0)"},
       {kHeaderSize + 14, "offset 65536: LAST fragment without a FIRST"}});
}

TEST_F(LogTest, MissingEndBeforeFull) {
  const std::string big = BigString("big", kBlockSize);  // FIRST, LAST(7)
  Write(big);
  Write("foo");
  SetType(kBlockSize, kFullType);
  ExpectInEveryMode(
      {big.substr(kBlockSize - kHeaderSize), "foo"},
      {{kBlockSize - kHeaderSize,
        "offset 0: partial record dropped: a FULL fragment starts a new record "
        "at offset 32768"}});
}

TEST_F(LogTest, MissingEndBeforeFirst) {
  Write(BigString("big", kBlockSize));
  Write("foo");
  SetType(kBlockSize, kFirstType);  // FIRST, FIRST(7 bytes), FULL foo
  ExpectInEveryMode(
      {"foo"},
      {{kBlockSize - kHeaderSize,
        "offset 0: partial record dropped: a FIRST fragment starts"},
       {7, "offset 32768: partial record dropped: a FULL fragment starts"}});
}

TEST_F(LogTest, ZeroedBlockInsideFragmentedRecord) {
  Write(BigString("big", 2 * kBlockSize));  // FIRST, MIDDLE, LAST(14)
  Write("foo");
  std::string& c = Contents();
  std::fill(c.begin() + kBlockSize, c.begin() + 2 * kBlockSize, '\0');
  ExpectInEveryMode(
      {"foo"}, {{kBlockSize - kHeaderSize + kHeaderSize + 14,
                 "offset 0: fragmented record broken: expected its next "
                 "fragment at offset 32768, found a LAST fragment at offset "
                 "65536"}});
}

TEST_F(LogDamageTest, ReadErrorEndsReading) {
  WriteTwoBlocks();
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(mode, true, /*fail_read=*/1);
    EXPECT_EQ((std::vector<std::string>{"foo", fill_}), r.records);
    ASSERT_EQ(1u, r.reports.size());
    EXPECT_EQ(0u, r.reports[0].bytes);
    EXPECT_EQ(0u, r.reports[0].message.find(
                      "IO error: log #12 offset 32768: read failed"))
        << r.reports[0].message;
    EXPECT_NE(std::string::npos,
              r.reports[0].message.find("injected read failure"));
  }
}

TEST_F(LogTest, NullReporterIsAllowed) {
  Write("foo");
  Write("bar");
  IncrementByte(kHeaderSize, 1);
  Reader reader(
      std::unique_ptr<SequentialFileReader>(new SequentialFileReader(
          std::unique_ptr<SequentialFile>(new StringSource(Contents(), -1)),
          "000012.log")),
      nullptr, true, kLogNumber);
  Slice record;
  std::string scratch;
  EXPECT_FALSE(reader.ReadRecord(&record, &scratch,
                                 WALRecoveryMode::kAbsoluteConsistency));
}

// ---- Torn tails: reported only with kAbsoluteConsistency
// ----------------------

TEST_F(LogTest, TornHeaderAtEof) {
  Write("foo");
  Write("bar");
  ShrinkTo(10 + 3);
  ExpectInEveryMode(
      {"foo"}, {},
      {{3, "offset 10: fragment header cut short by the end of the file"}});
}

TEST_F(LogTest, TornPayloadAtEof) {
  Write("foo");
  Write("bar");
  ShrinkTo(19);
  ExpectInEveryMode(
      {"foo"}, {},
      {{9, "offset 10: fragment payload cut short by the end of the file"}});
}

TEST_F(LogTest, FragmentedRecordWithoutLastAtEof) {
  Write("foo");
  Write(BigString("big", 2 * kBlockSize));  // FIRST@10, MIDDLE, LAST
  const size_t first = kBlockSize - 10 - kHeaderSize;
  const size_t middle = kBlockSize - kHeaderSize;
  std::string full = Contents();

  ShrinkTo(kBlockSize);  // FIRST complete, file ends at a block boundary
  ExpectInEveryMode({"foo"}, {},
                    {{first, "offset 10: fragmented record without its LAST"}});

  contents_ = full;
  ShrinkTo(2 * kBlockSize + 5);  // LAST's header torn
  ExpectInEveryMode(
      {"foo"}, {}, {{first + middle + 5, "offset 65536: fragment header cut"}});

  contents_ = full;
  ShrinkTo(2 * kBlockSize + kHeaderSize + 3);  // LAST's payload torn
  ExpectInEveryMode({"foo"}, {},
                    {{first + middle + kHeaderSize + 3,
                      "offset 65536: fragment payload cut"}});
}

// ---- ResyncAfterDamage (WAL recovery's scan for intact records)
// ---------

// A checksum mismatch drops the rest of the block; with the resync on,
// only the bytes up to the next intact fragment.
TEST_F(LogTest, ResyncFindsARecordInTheDamagedBlock) {
  Write("foo");
  Write("bar");
  Write("baz");
  IncrementByte(10 + kHeaderSize, 1);  // bar's payload
  ReadResult r = ReadAll(WALRecoveryMode::kPointInTimeRecovery);
  EXPECT_EQ((std::vector<std::string>{"foo"}), r.records);
  r = ReadAll(WALRecoveryMode::kPointInTimeRecovery, true, -1, false,
              /*resync=*/true);
  EXPECT_EQ((std::vector<std::string>{"foo", "baz"}), r.records);
  EXPECT_EQ((std::vector<uint64_t>{0, 20}), r.offsets);
  ASSERT_EQ(1u, r.reports.size());
  EXPECT_EQ(10u, r.reports[0].bytes);
  EXPECT_NE(std::string::npos,
            r.reports[0].message.find("offset 10: checksum mismatch"));
}

// A length past the block, and a damaged length that looks torn: reading
// goes on at the intact fragment behind it.
TEST_F(LogTest, ResyncAfterADamagedLength) {
  Write("foo");
  Write("bar");
  Write("baz");
  SetLength(10, 40000);
  ReadResult r = ReadAll(WALRecoveryMode::kPointInTimeRecovery, true, -1, false,
                         /*resync=*/true);
  EXPECT_EQ((std::vector<std::string>{"foo", "baz"}), r.records);
  SetLength(10, 100);  // fits in the block, runs past the file
  r = ReadAll(WALRecoveryMode::kPointInTimeRecovery, true, -1,
              /*check_torn_tails=*/true, /*resync=*/true);
  EXPECT_EQ((std::vector<std::string>{"foo", "baz"}), r.records);
  ASSERT_EQ(1u, r.reports.size());
  EXPECT_NE(std::string::npos,
            r.reports[0].message.find("intact fragment follows at offset 20"));
}

// ---- CheckTornTails (the MANIFEST): intact fragments after a torn tail
// ---------

class LogTornTailCheckTest : public LogTest {
 protected:
  // ExpectInEveryMode with the check on.
  void ExpectChecked(const std::vector<std::string>& records,
                     const std::vector<Expected>& reported,
                     const std::vector<Expected>& tail_reported = {}) {
    ExpectInEveryMode(records, reported, tail_reported,
                      /*check_torn_tails=*/true);
  }
};

TEST_F(LogTornTailCheckTest, DamagedLengthBeforeIntactRecordIsDamage) {
  Write("foo");
  Write("bar");
  Write("baz");
  SetLength(10, 100);  // bar's: fits in the block, runs past the file
  // Off (the WAL's default): a torn tail, silent but in absolute mode.
  ExpectInEveryMode({"foo"}, {}, {{20, "offset 10: fragment payload cut"}});
  ExpectChecked({"foo"}, {{20,
                           "log #12 offset 10: fragment length 100 runs past "
                           "the end of the file, but an intact fragment "
                           "follows at offset 20"}});
}

TEST_F(LogTornTailCheckTest, IntactRecordFarBehindTheDamage) {
  Write("foo");
  Write("bar");
  for (int i = 0; i < 50; i++) Write(NumberString(i));
  const size_t size = Contents().size();
  SetLength(0, 5000);
  ExpectChecked({}, {{size, "offset 0: fragment length 5000"}});
}

TEST_F(LogTornTailCheckTest, DamageInTheLastBlockOfSeveral) {
  Write(BigString("big", 2 * kBlockSize));  // FIRST, MIDDLE, LAST@65536
  const size_t last = 2 * kBlockSize;
  Write("foo");
  Write("bar");
  const size_t foo = last + kHeaderSize + 14;
  ASSERT_EQ(foo + 2 * (kHeaderSize + 3), Contents().size());
  SetLength(foo, 300);
  ExpectChecked({BigString("big", 2 * kBlockSize)},
                {{20, "offset " + std::to_string(foo) +
                          ": fragment length 300 runs past the end of the "
                          "file, but an intact fragment follows at offset " +
                          std::to_string(foo + 10)}});
}

TEST_F(LogTornTailCheckTest, DamagedLastFragmentDropsItsRecord) {
  Write(BigString("big", kBlockSize));  // FIRST, LAST@32768
  Write("foo");
  const size_t last = kBlockSize;
  SetLength(last, 1000);
  const size_t first = kBlockSize - kHeaderSize;
  ExpectChecked({}, {{first + Contents().size() - last,
                      "fragment length 1000 runs past the end of the file, "
                      "but an intact fragment follows at offset " +
                          std::to_string(last + kHeaderSize + 7) +
                          ": damage, not a torn tail (dropping the partial "
                          "record from offset 0)"}});
}

TEST_F(LogTornTailCheckTest, TrueTornTailStaysSilent) {
  Write("foo");
  Write("bar");
  ShrinkTo(19);  // bar's payload cut
  ExpectChecked({"foo"}, {},
                {{9, "offset 10: fragment payload cut short by the end"}});
  Reset();
  Write("foo");
  Write(BigString("0123456789", 1000));
  ShrinkTo(10 + kHeaderSize + 500);
  ExpectChecked({"foo"}, {}, {{507, "offset 10: fragment payload cut"}});
}

TEST_F(LogTornTailCheckTest, TornRecordHoldingAHeaderWithABadCrc) {
  // The torn payload holds what looks like a FULL header; its crc does not
  // match, so it is no intact record.
  Write("foo");
  std::string payload(40, 'x');
  payload[10 + 4] = 3;  // length 3
  payload[10 + 5] = 0;
  payload[10 + 6] = static_cast<char>(kFullType);
  Write(payload);
  ShrinkTo(10 + kHeaderSize + 30);
  ExpectChecked({"foo"}, {}, {{37, "offset 10: fragment payload cut"}});
}

// ---- Zeroed space: silent in every mode
// ----------------------------------------

TEST_F(LogTest, ZeroPaddedTail) {
  Write("foo");
  Write("bar");
  Contents().append(1000, '\0');
  ExpectInEveryMode({"foo", "bar"}, {});
  Contents().append(3 * kBlockSize, '\0');
  ExpectInEveryMode({"foo", "bar"}, {});
}

TEST_F(LogTest, HeaderTornOverZerosEndsBlock) {
  Write("foo");
  Contents().append("\x12\x34\x56", 3);  // crc bytes, then zeros
  Contents().append(500, '\0');
  ExpectInEveryMode({"foo"}, {});
}

TEST_F(LogTest, ZeroedRestOfBlockThenMoreRecords) {
  Write("foo");
  Contents().resize(kBlockSize, '\0');
  NewWriter();
  Write("bar");
  EXPECT_EQ(kBlockSize + 10, Contents().size());
  ExpectInEveryMode({"foo", "bar"}, {});
}

// ---- Garbage
// ---------------------------------------------------------------------

// Random files and randomly damaged logs: the reader must end (under ASan:
// without reading out of bounds) and return no more bytes than it read.
TEST_F(LogTest, FuzzGarbageAndMutatedLogs) {
  Random rnd(1234);
  for (int iter = 0; iter < 300; iter++) {
    Reset();
    if (iter % 3 == 0) {
      contents_.resize(rnd.Skewed(17));
      for (char& ch : contents_) ch = static_cast<char>(rnd.Next());
    } else {
      const int n = 1 + static_cast<int>(rnd.Uniform(20));
      for (int i = 0; i < n; i++) {
        Write(BigString(NumberString(i), rnd.Skewed(16)));
      }
      std::string& c = Contents();
      const int mutations = 1 + static_cast<int>(rnd.Uniform(5));
      for (int m = 0; m < mutations && !c.empty(); m++) {
        const size_t pos = rnd.Uniform(static_cast<int>(c.size()));
        switch (rnd.Uniform(4)) {
          case 0:
            c[pos] = static_cast<char>(rnd.Next());
            break;
          case 1:
            c.resize(pos);
            break;
          case 2: {
            const size_t length_byte = pos - pos % kBlockSize + 4;
            if (length_byte < c.size()) c[length_byte] ^= 0x7f;
            break;
          }
          default:
            std::fill(
                c.begin() + pos,
                c.begin() + std::min(c.size(), pos + 1 + rnd.Uniform(70000)),
                '\0');
            break;
        }
      }
    }
    for (WALRecoveryMode mode : kAllModes) {
      for (bool checksum : {true, false}) {
        ReadResult r = ReadAll(mode, checksum);
        size_t total = 0;
        for (const std::string& rec : r.records) total += rec.size();
        EXPECT_LE(total, contents_.size());
      }
    }
  }
}

}  // namespace
}  // namespace log
}  // namespace strata
