// The backup metadata file's format (docs/formats/backup.md): what is
// encoded decodes to the same; every kind of damage is Corruption naming
// the file and the line; names that would lead out of the backup
// directory or to a file that is not a DB's are refused.

#include "db/utilities/backup/backup_meta.h"

#include "gtest/gtest.h"
#include "util/crc32c.h"

namespace strata {
namespace backup {
namespace {

BackupMeta Sample() {
  BackupMeta meta;
  meta.id = 7;
  meta.timestamp = 1700000000;
  meta.sequence = 123456789012ULL;
  meta.app_metadata = std::string("a\0b \n\xff", 6);
  meta.files.push_back({"shared_checksum/000012_3735928559_4096.sst",
                        "000012.sst", 4096, 3735928559u});
  meta.files.push_back({"shared/000013.sst", "000013.sst", 10, 1});
  meta.files.push_back(
      {"private/7/MANIFEST-000005", "MANIFEST-000005", 160, 0});
  meta.files.push_back({"private/7/000011.log", "000011.log", 0, 0});
  meta.files.push_back({"private/7/OPTIONS-000007", "OPTIONS-000007", 1, 2});
  meta.files.push_back({"private/7/CURRENT", "CURRENT", 16, 99});
  return meta;
}

void ExpectSame(const BackupMeta& a, const BackupMeta& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.timestamp, b.timestamp);
  EXPECT_EQ(a.sequence, b.sequence);
  EXPECT_EQ(a.app_metadata, b.app_metadata);
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t i = 0; i < a.files.size(); i++) {
    EXPECT_EQ(a.files[i].stored, b.files[i].stored);
    EXPECT_EQ(a.files[i].db_name, b.files[i].db_name);
    EXPECT_EQ(a.files[i].size, b.files[i].size);
    EXPECT_EQ(a.files[i].crc32c, b.files[i].crc32c);
  }
}

// text with its checksum line replaced by a right one for what precedes.
std::string Rechecksum(const std::string& text) {
  const size_t end = text.rfind("checksum ");
  const std::string body = text.substr(0, end);
  return body + "checksum " +
         std::to_string(crc32c::Value(body.data(), body.size())) + "\n";
}

// Replaces the first occurrence of from in the sample's text (keeping
// the checksum right) and decodes it.
Status DecodeEdited(const std::string& from, const std::string& to) {
  std::string text = EncodeBackupMeta(Sample());
  const size_t at = text.find(from);
  EXPECT_NE(std::string::npos, at) << from;
  text.replace(at, from.size(), to);
  BackupMeta meta;
  return DecodeBackupMeta("meta/7", 7, Rechecksum(text), &meta);
}

TEST(BackupMetaTest, RoundTrips) {
  const BackupMeta meta = Sample();
  const std::string text = EncodeBackupMeta(meta);
  BackupMeta decoded;
  Status s = DecodeBackupMeta("meta/7", 7, text, &decoded);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ExpectSame(meta, decoded);
  EXPECT_EQ(4096u + 10 + 160 + 0 + 1 + 16, decoded.TotalSize());

  BackupMeta empty;
  empty.id = 1;
  empty.timestamp = -5;
  ASSERT_TRUE(DecodeBackupMeta("m", 1, EncodeBackupMeta(empty), &decoded).ok());
  ExpectSame(empty, decoded);
}

TEST(BackupMetaTest, AnyChangedByteIsFound) {
  const std::string text = EncodeBackupMeta(Sample());
  for (size_t i = 0; i < text.size(); i++) {
    std::string damaged = text;
    damaged[i] ^= 0x01;
    BackupMeta meta;
    Status s = DecodeBackupMeta("meta/7", 7, damaged, &meta);
    EXPECT_TRUE(s.IsCorruption()) << "byte " << i << ": " << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("meta/7")) << s.ToString();
  }
  for (size_t cut = 0; cut < text.size(); cut++) {
    BackupMeta meta;
    Status s = DecodeBackupMeta("meta/7", 7, text.substr(0, cut), &meta);
    EXPECT_TRUE(s.IsCorruption()) << "cut at " << cut;
  }
}

TEST(BackupMetaTest, WrongLinesAreNamedByNumber) {
  struct Case {
    const char* from;
    const char* to;
    const char* message;
  };
  const Case cases[] = {
      {"strata-backup 1", "strata-backup 2", "line 1: format version 2"},
      {"strata-backup 1", "rocksdb", "line 1: not a strata backup"},
      {"id 7", "id 8", "line 2: records backup 8, not 7"},
      {"timestamp 1700000000", "timestamp x", "line 3"},
      {"sequence 123456789012", "sequence", "line 4"},
      {"app_metadata 61", "app_metadata 6", "line 5"},
      {"app_metadata 61", "app_metadata 6a", "line 5"},
      {"files 6", "files 7", "line 13: ends early"},
      {"files 6", "files 5", "line 12: more lines than the file count"},
      {"file shared/000013.sst", "file ../000013.sst",
       "line 8: not a file of this backup: ../000013.sst"},
      {"file private/7/CURRENT", "file private/6/CURRENT",
       "line 12: not a file"},
      {"file private/7/CURRENT", "file private/7/../CURRENT",
       "line 12: not a file"},
      {"private/7/OPTIONS-000007 OPTIONS-000007",
       "private/7/OPTIONS-000007 ../OPTIONS-000007", "line 11: not a DB file"},
      {"000011.log 0 0", "LOCK 0 0", "line 10: not a DB file name: LOCK"},
      {"160 0", "160 4294967296", "line 9: expected"},
      {"160 0", "-1 0", "line 9: expected"},
  };
  for (const Case& c : cases) {
    Status s = DecodeEdited(c.from, c.to);
    EXPECT_TRUE(s.IsCorruption()) << c.to << ": " << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(c.message))
        << c.to << ": " << s.ToString();
  }
}

}  // namespace
}  // namespace backup
}  // namespace strata
