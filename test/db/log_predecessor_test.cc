// The predecessor record a WAL started at a memtable switch begins with
// (docs/formats/wal.md): written only at the start of a log, read back
// with the first record, damage anywhere else; and the end of the last
// whole record, which recovery compares with what the record names.

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
#include "test/util/temp_dir.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace strata {
namespace log {
namespace {

class Reports : public Reader::Reporter {
 public:
  void Corruption(size_t bytes, const Status& status) override {
    bytes_.push_back(bytes);
    messages_.push_back(status.ToString());
  }
  std::vector<size_t> bytes_;
  std::vector<std::string> messages_;
};

// What reading a whole log found.
struct Read {
  std::vector<std::string> records;
  bool has_predecessor = false;
  uint64_t predecessor = 0;
  uint64_t predecessor_size = 0;
  // Predecessor() after the first ReadRecord call equals the above.
  bool known_after_first_read = false;
  uint64_t end_of_last_record = 0;
  Reports reports;
};

// One fragment with a valid checksum, as a writer would emit it.
std::string Fragment(unsigned char type, const std::string& payload) {
  std::string f(kHeaderSize, '\0');
  f[4] = static_cast<char>(payload.size() & 0xff);
  f[5] = static_cast<char>(payload.size() >> 8);
  f[6] = static_cast<char>(type);
  f += payload;
  EncodeFixed32(&f[0], crc32c::Mask(crc32c::Value(&f[6], 1 + payload.size())));
  return f;
}

std::string PredecessorPayload(uint64_t number, uint64_t size) {
  std::string p;
  PutFixed64(&p, number);
  PutFixed64(&p, size);
  return p;
}

class LogPredecessorTest : public testing::Test {
 protected:
  LogPredecessorTest()
      : env_(NewMemEnv(Env::Default())),
        dir_(env_.get(), "logpred"),
        fname_(dir_.File("000009.log")) {}

  std::unique_ptr<Writer> NewWriter() {
    std::unique_ptr<WritableFile> file;
    EXPECT_TRUE(env_->NewWritableFile(fname_, &file, EnvOptions()).ok());
    return std::make_unique<Writer>(std::make_unique<WritableFileWriter>(
                                        std::move(file), fname_, EnvOptions()),
                                    9);
  }

  std::string Contents() {
    std::string data;
    EXPECT_TRUE(ReadFileToString(env_.get(), fname_, &data).ok());
    return data;
  }
  void SetContents(const std::string& data) {
    ASSERT_TRUE(WriteStringToFile(env_.get(), data, fname_, false).ok());
  }

  void ReadAll(WALRecoveryMode mode, Read* out) {
    std::unique_ptr<SequentialFile> file;
    ASSERT_TRUE(env_->NewSequentialFile(fname_, &file, EnvOptions()).ok());
    Reader reader(
        std::make_unique<SequentialFileReader>(std::move(file), fname_),
        &out->reports, /*checksum=*/true, 9);
    Slice record;
    std::string scratch;
    bool more = reader.ReadRecord(&record, &scratch, mode);
    uint64_t number = 0;
    uint64_t size = 0;
    const bool first = reader.Predecessor(&number, &size);
    for (; more; more = reader.ReadRecord(&record, &scratch, mode)) {
      out->records.push_back(record.ToString());
    }
    out->has_predecessor =
        reader.Predecessor(&out->predecessor, &out->predecessor_size);
    out->known_after_first_read = first == out->has_predecessor &&
                                  number == out->predecessor &&
                                  size == out->predecessor_size;
    out->end_of_last_record = reader.EndOfLastRecord();
  }

  std::unique_ptr<Env> env_;
  test::TempDir dir_;
  const std::string fname_;
};

TEST_F(LogPredecessorTest, RoundTripInEveryMode) {
  const std::string big(50000, 'b');  // fragmented over two blocks
  {
    std::unique_ptr<Writer> w = NewWriter();
    ASSERT_TRUE(w->AddPredecessor(7, 123456789012ull).ok());
    ASSERT_TRUE(w->AddRecord("a").ok());
    ASSERT_TRUE(w->AddRecord(big).ok());
    ASSERT_TRUE(w->Close().ok());
  }
  EXPECT_EQ(std::string(1, static_cast<char>(kPredecessorType)),
            Contents().substr(6, 1));
  for (WALRecoveryMode mode : {WALRecoveryMode::kTolerateCorruptedTailRecords,
                               WALRecoveryMode::kAbsoluteConsistency,
                               WALRecoveryMode::kPointInTimeRecovery,
                               WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    Read r;
    ReadAll(mode, &r);
    EXPECT_EQ((std::vector<std::string>{"a", big}), r.records);
    EXPECT_TRUE(r.has_predecessor);
    EXPECT_TRUE(r.known_after_first_read);
    EXPECT_EQ(7u, r.predecessor);
    EXPECT_EQ(123456789012ull, r.predecessor_size);
    EXPECT_EQ(Contents().size(), r.end_of_last_record);
    EXPECT_TRUE(r.reports.messages_.empty());
  }
}

TEST_F(LogPredecessorTest, ALogOfOnlyThePredecessorRecord) {
  {
    std::unique_ptr<Writer> w = NewWriter();
    ASSERT_TRUE(w->AddPredecessor(3, 0).ok());
    ASSERT_TRUE(w->Close().ok());
  }
  Read r;
  ReadAll(WALRecoveryMode::kAbsoluteConsistency, &r);
  EXPECT_TRUE(r.records.empty());
  EXPECT_TRUE(r.has_predecessor);
  EXPECT_TRUE(r.known_after_first_read);
  EXPECT_EQ(3u, r.predecessor);
  EXPECT_EQ(kHeaderSize + kPredecessorPayloadSize, r.end_of_last_record);
  EXPECT_EQ(Contents().size(), r.end_of_last_record);
}

TEST_F(LogPredecessorTest, OnlyAsTheFirstRecordOfAnEmptyLog) {
  std::unique_ptr<Writer> w = NewWriter();
  ASSERT_TRUE(w->AddRecord("a").ok());
  Status s = w->AddPredecessor(8, 100);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("log #9")) << s.ToString();
  // Refused before anything was written: the log goes on.
  ASSERT_TRUE(w->AddRecord("b").ok());
  ASSERT_TRUE(w->Close().ok());
  Read r;
  ReadAll(WALRecoveryMode::kAbsoluteConsistency, &r);
  EXPECT_EQ((std::vector<std::string>{"a", "b"}), r.records);
  EXPECT_FALSE(r.has_predecessor);
  EXPECT_TRUE(r.reports.messages_.empty());
}

TEST_F(LogPredecessorTest, ElsewhereItIsDamage) {
  const std::string pred = Fragment(kPredecessorType, PredecessorPayload(4, 9));
  SetContents(Fragment(kFullType, "a") + pred + Fragment(kFullType, "b"));
  for (WALRecoveryMode mode : {WALRecoveryMode::kAbsoluteConsistency,
                               WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    Read r;
    ReadAll(mode, &r);
    EXPECT_EQ((std::vector<std::string>{"a", "b"}), r.records);
    EXPECT_FALSE(r.has_predecessor);
    ASSERT_EQ(1u, r.reports.messages_.size());
    EXPECT_EQ(pred.size(), r.reports.bytes_[0]);
    EXPECT_NE(std::string::npos,
              r.reports.messages_[0].find(
                  "log #9 offset 8: PREDECESSOR fragment not at the start"))
        << r.reports.messages_[0];
  }
}

TEST_F(LogPredecessorTest, InsideAFragmentedRecordItDropsThatRecord) {
  // A FIRST fragment that fills block 0, the predecessor fragment where its
  // continuation belongs, then a whole record.
  const std::string first =
      Fragment(kFirstType, std::string(kBlockSize - kHeaderSize, 'f'));
  SetContents(first + Fragment(kPredecessorType, PredecessorPayload(1, 2)) +
              Fragment(kFullType, "c"));
  Read r;
  ReadAll(WALRecoveryMode::kPointInTimeRecovery, &r);
  EXPECT_EQ((std::vector<std::string>{"c"}), r.records);
  EXPECT_FALSE(r.has_predecessor);
  ASSERT_EQ(2u, r.reports.messages_.size());
  EXPECT_NE(std::string::npos,
            r.reports.messages_[0].find("partial record dropped"))
      << r.reports.messages_[0];
  EXPECT_NE(std::string::npos, r.reports.messages_[1].find("not at the start"))
      << r.reports.messages_[1];
}

TEST_F(LogPredecessorTest, OfTheWrongSizeItIsDamage) {
  SetContents(Fragment(kPredecessorType, std::string(8, '\x01')) +
              Fragment(kFullType, "a"));
  Read r;
  ReadAll(WALRecoveryMode::kPointInTimeRecovery, &r);
  EXPECT_EQ((std::vector<std::string>{"a"}), r.records);
  EXPECT_FALSE(r.has_predecessor);
  ASSERT_EQ(1u, r.reports.messages_.size());
  EXPECT_NE(std::string::npos,
            r.reports.messages_[0].find(
                "offset 0: PREDECESSOR fragment of 8 bytes, not 16"))
      << r.reports.messages_[0];
}

TEST_F(LogPredecessorTest, EndOfLastRecordStopsBeforeATornTail) {
  {
    std::unique_ptr<Writer> w = NewWriter();
    ASSERT_TRUE(w->AddRecord("first").ok());  // 7 + 5 bytes
    ASSERT_TRUE(w->AddRecord(std::string(40000, 's')).ok());
    ASSERT_TRUE(w->Close().ok());
  }
  const std::string whole = Contents();
  // Cut inside the second record's LAST fragment, then inside its FIRST.
  for (size_t cut : {whole.size() - 10, size_t{100}}) {
    SetContents(whole.substr(0, cut));
    Read r;
    ReadAll(WALRecoveryMode::kPointInTimeRecovery, &r);
    EXPECT_EQ((std::vector<std::string>{"first"}), r.records);
    EXPECT_EQ(12u, r.end_of_last_record) << cut;
  }
  SetContents(whole);
  Read r;
  ReadAll(WALRecoveryMode::kPointInTimeRecovery, &r);
  EXPECT_EQ(whole.size(), r.end_of_last_record);
}

}  // namespace
}  // namespace log
}  // namespace strata
