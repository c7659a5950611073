// WriteBatch decoding of damaged and foreign bytes: every malformed batch
// must give a clear error, never a crash or a read outside the batch.

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "strata/write_batch.h"
#include "test/db/write_batch_test_util.h"
#include "util/coding.h"
#include "util/logging.h"
#include "util/random.h"

namespace strata {
namespace {

using test::EveryType;
using test::FakeHandle;
using test::IterateBytes;
using test::Recorder;

// The record tags RocksDB 7.8 writes in a batch that strata does not
// implement, by name.
const std::map<int, std::string> kRocksDBOnlyTags = {
    {0x10, "ColumnFamilyBlobIndex"},        {0x11, "BlobIndex"},
    {0x12, "BeginPersistedPrepareXID"},     {0x13, "BeginUnprepareXID"},
    {0x15, "CommitXIDAndTimestamp"},        {0x16, "WideColumnEntity"},
    {0x17, "ColumnFamilyWideColumnEntity"},
};

TEST(WriteBatchTest, TruncatedAtEveryCutIsCorruption) {
  const std::string full = EveryType().Data();
  ASSERT_TRUE(IterateBytes(full).ok());
  for (size_t cut = 0; cut < full.size(); cut++) {
    Status s = IterateBytes(full.substr(0, cut));
    EXPECT_TRUE(s.IsCorruption()) << cut << " " << s.ToString();
  }
  // A cut inside a record names the record's offset: the Put at 12.
  Status s = IterateBytes(full.substr(0, 14));
  EXPECT_NE(std::string::npos, s.ToString().find("offset 12")) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("truncated"));
  // A cut between records leaves the count wrong.
  s = IterateBytes(full.substr(0, 12 + 7));
  EXPECT_NE(std::string::npos, s.ToString().find("count 5")) << s.ToString();
}

// 0x14 is RocksDB's DeletionWithTimestamp, a type of internal keys that
// RocksDB does not take in a batch either; 0x18 is past RocksDB 7.8's tags.
TEST(WriteBatchTest, UnknownTagIsCorruption) {
  for (char tag : {'\x14', '\x18', '\x42', '\x7f', '\xff'}) {
    WriteBatch b;
    ASSERT_TRUE(b.Put("k", "v").ok());
    std::string bytes = b.Data() + tag + std::string("\x01x\x01y", 4);
    EncodeFixed32(&bytes[8], 2);
    Status s = IterateBytes(bytes);
    EXPECT_TRUE(s.IsCorruption());
    EXPECT_NE(std::string::npos, s.ToString().find("unknown tag"));
    EXPECT_NE(std::string::npos, s.ToString().find("offset 17"))
        << s.ToString();
  }
  Status s = IterateBytes(std::string(12, '\0') + "\x42");
  EXPECT_NE(std::string::npos, s.ToString().find("0x42")) << s.ToString();
}

TEST(WriteBatchTest, WrongCountIsCorruption) {
  WriteBatch b;
  ASSERT_TRUE(b.Put("a", "1").ok());
  ASSERT_TRUE(b.Put("b", "2").ok());
  for (uint32_t count : {0u, 1u, 3u, 0xffffffffu}) {
    std::string bytes = b.Data();
    EncodeFixed32(&bytes[8], count);
    Status s = IterateBytes(bytes);
    EXPECT_TRUE(s.IsCorruption()) << count;
    EXPECT_NE(std::string::npos,
              s.ToString().find("count " + std::to_string(count)))
        << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("2 records found"));
  }
}

TEST(WriteBatchTest, VarintGarbageIsCorruption) {
  const std::string header("\0\0\0\0\0\0\0\0\x01\0\0\0", 12);
  const char* const kBodies[] = {
      "\x01\xff\xff\xff\xff\xff\xff",   // key length: overlong varint
      "\x01\xff\xff\xff\xff\x0f",       // key length 2^32-1, no bytes
      "\x01\x80",                       // key length cut short
      "\x01",                           // no key length at all
      "\x01\x01k\xff\xff\xff\xff\x7f",  // value length: 5th byte too big
      "\x01\x01k\x05val",               // value shorter than its length
      "\x0f\x01\x61",                   // DeleteRange "a" without its end key
      "\x03\x81\x01",                   // LogData blob length 129, no bytes
  };
  for (const char* body : kBodies) {
    Status s = IterateBytes(header + body);
    EXPECT_TRUE(s.IsCorruption()) << EscapeString(body);
    EXPECT_NE(std::string::npos, s.ToString().find("offset 12"))
        << s.ToString();
  }
}

// Every byte as a tag, before a record body that would suit it: the
// sixteen tags strata writes decode, RocksDB's others are NotSupported (by
// name), and the rest are Corruption.
TEST(WriteBatchTest, EveryTagIsDecodedOrRefused) {
  // The call each decodable tag makes of a body ("x", then "y" for a
  // two-field record) in family 7 where the tag carries one.
  const std::map<int, std::string> kDecoded = {
      {0x00, "Delete(x)"},
      {0x01, "Put(x,y)"},
      {0x02, "Merge(x,y)"},
      {0x03, "LogData(x)"},
      {0x04, "Delete(x)@7"},
      {0x05, "Put(x,y)@7"},
      {0x06, "Merge(x,y)@7"},
      {0x07, "SingleDelete(x)"},
      {0x08, "SingleDelete(x)@7"},
      {0x0e, "DeleteRange(x,y)@7"},
      {0x0f, "DeleteRange(x,y)"},
      // Two-phase commit's markers; the first and last have no body.
      {0x09, "BeginPrepare"},
      {0x0a, "EndPrepare(x)"},
      {0x0b, "Commit(x)"},
      {0x0c, "Rollback(x)"},
      {0x0d, "Noop(empty)"},
  };
  for (int tag = 0; tag < 256; tag++) {
    auto decoded = kDecoded.find(tag);
    const bool family = decoded != kDecoded.end() &&
                        decoded->second.find('@') != std::string::npos;
    const bool two_fields = decoded != kDecoded.end() &&
                            decoded->second.find(',') != std::string::npos;
    const bool bodyless = tag == 0x09 || tag == 0x0d;
    const bool counted = tag != 0x03 && (tag < 0x09 || tag > 0x0d);
    std::string bytes = std::string(8, '\0') +
                        std::string(counted ? "\1\0\0\0" : "\0\0\0\0", 4) +
                        static_cast<char>(tag) + (family ? "\x07" : "") +
                        (bodyless ? "" : "\x01x") + (two_fields ? "\x01y" : "");
    WriteBatch b;
    ASSERT_TRUE(WriteBatchInternal::SetContents(&b, bytes).ok());
    Recorder r;
    Status s = b.Iterate(&r);
    EXPECT_EQ(s.ToString(), WriteBatchInternal::Validate(&b).ToString());
    char hex[8];
    std::snprintf(hex, sizeof(hex), "0x%02x", tag);
    if (decoded != kDecoded.end()) {
      EXPECT_TRUE(s.ok()) << hex << " " << s.ToString();
      EXPECT_EQ(std::vector<std::string>{decoded->second}, r.seen);
    } else if (kRocksDBOnlyTags.count(tag) != 0) {
      EXPECT_TRUE(s.IsNotSupported()) << hex << " " << s.ToString();
      EXPECT_EQ(
          std::string("WriteBatch record at offset 12: RocksDB record type ") +
              hex + " (" + kRocksDBOnlyTags.at(tag) +
              ") not supported by strata",
          std::string(s.getState()));
    } else {
      EXPECT_TRUE(s.IsCorruption()) << hex << " " << s.ToString();
      EXPECT_NE(std::string::npos, s.ToString().find("unknown tag"));
    }
  }
}

// A record of a family cut short in its id or its fields, or with an id
// that is no varint32: Corruption at the record's offset.
TEST(WriteBatchTest, TruncatedColumnFamilyRecordIsCorruption) {
  const std::string header("\0\0\0\0\0\0\0\0\x01\0\0\0", 12);
  const std::string kBadIds[] = {
      "",                                           // no id
      "\x80",                                       // id cut short
      "\xff\xff\xff",                               // id cut short
      std::string("\xff\xff\xff\xff\xff\x01", 6),   // overlong varint
      std::string("\xff\xff\xff\xff\x7f\x01k", 7),  // 5th byte too big
  };
  for (char tag : {'\x04', '\x05', '\x06', '\x08', '\x0e'}) {
    for (const std::string& id : kBadIds) {
      Status s = IterateBytes(header + tag + id);
      EXPECT_TRUE(s.IsCorruption()) << EscapeString(tag + id);
      EXPECT_EQ(
          "WriteBatch record at offset 12: truncated or malformed column "
          "family id",
          std::string(s.getState()));
    }
    // An id, then fields missing or cut short.
    for (const std::string& fields : {std::string(), std::string("\x02k")}) {
      Status s = IterateBytes(header + tag + "\x03" + fields);
      EXPECT_TRUE(s.IsCorruption()) << EscapeString(tag + fields);
      EXPECT_NE(std::string::npos, s.ToString().find("offset 12: truncated"))
          << s.ToString();
    }
    if (tag != '\x04' && tag != '\x08') {  // a second field is missing
      Status s = IterateBytes(header + tag + "\x03\x01k");
      EXPECT_NE(std::string::npos,
                s.ToString().find("offset 12: truncated or malformed value"))
          << s.ToString();
    }
  }

  // Every proper prefix of a batch of family records.
  FakeHandle cf(300);
  WriteBatch b;
  ASSERT_TRUE(b.Put(&cf, "k1", "v1").ok());
  ASSERT_TRUE(b.Delete(&cf, "k2").ok());
  ASSERT_TRUE(b.SingleDelete(&cf, "k3").ok());
  ASSERT_TRUE(b.DeleteRange(&cf, "a", "z").ok());
  ASSERT_TRUE(b.Merge(&cf, "k4", "m").ok());
  const std::string full = b.Data();
  ASSERT_TRUE(IterateBytes(full).ok());
  for (size_t cut = 12; cut < full.size(); cut++) {
    Status s = IterateBytes(full.substr(0, cut));
    EXPECT_TRUE(s.IsCorruption()) << cut << " " << s.ToString();
  }
}

// A batch decoded as docs/formats/write_batch.md defines it, without the
// WriteBatch code: the Recorder calls of its records up to the first
// malformed one, whether the whole is valid (every record well formed, the
// header count equal to the updates), and if not, whether the first bad
// record is one of RocksDB's that strata does not implement.
struct SpecBatch {
  std::vector<std::string> calls;
  bool valid = false;
  bool rocksdb_only = false;
};

// REQUIRES: bytes holds at least the 12-byte header.
SpecBatch DecodeAsSpecified(const std::string& bytes) {
  SpecBatch spec;
  Slice in(bytes);
  in.remove_prefix(12);
  auto varstring = [&in](std::string* out) {
    uint32_t n = 0;
    if (!GetVarint32(&in, &n) || n > in.size()) return false;
    out->assign(in.data(), n);
    in.remove_prefix(n);
    return true;
  };
  uint32_t updates = 0;
  while (!in.empty()) {
    const uint8_t tag = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    const char* name = nullptr;
    bool two_parts = false;
    bool family = false;
    switch (tag) {
      case 0x05:
        family = true;
        [[fallthrough]];
      case 0x01:
        name = "Put";
        two_parts = true;
        break;
      case 0x04:
        family = true;
        [[fallthrough]];
      case 0x00:
        name = "Delete";
        break;
      case 0x08:
        family = true;
        [[fallthrough]];
      case 0x07:
        name = "SingleDelete";
        break;
      case 0x0e:
        family = true;
        [[fallthrough]];
      case 0x0f:
        name = "DeleteRange";
        two_parts = true;
        break;
      case 0x06:
        family = true;
        [[fallthrough]];
      case 0x02:
        name = "Merge";
        two_parts = true;
        break;
      case 0x03:
        name = "LogData";
        break;
      case 0x09:
        spec.calls.push_back("BeginPrepare");
        continue;
      case 0x0d:
        spec.calls.push_back(updates == 0 ? "Noop(empty)" : "Noop");
        continue;
      case 0x0a:
        name = "EndPrepare";
        break;
      case 0x0b:
        name = "Commit";
        break;
      case 0x0c:
        name = "Rollback";
        break;
      default:
        spec.rocksdb_only = kRocksDBOnlyTags.count(tag) != 0;
        return spec;
    }
    uint32_t cf = 0;
    if (family && !GetVarint32(&in, &cf)) return spec;
    std::string a, b;
    if (!varstring(&a) || (two_parts && !varstring(&b))) return spec;
    spec.calls.push_back(std::string(name) + "(" + a +
                         (two_parts ? "," + b : std::string()) + ")" +
                         (cf != 0 ? "@" + std::to_string(cf) : std::string()));
    if (tag != 0x03 && (tag < 0x09 || tag > 0x0d)) updates++;
  }
  spec.valid = updates == DecodeFixed32(bytes.data() + 8);
  return spec;
}

// Random valid batches of several families, randomly damaged: Iterate must
// return (under ASan: without reading out of bounds) exactly what the format
// says — OK for a valid batch, NotSupported at a RocksDB record strata
// lacks, else Corruption — after handing over the records decoded before
// the damage, as the spec decodes them.
TEST(WriteBatchTest, FuzzMutatedBatches) {
  Random rnd(301);
  FakeHandle cf1(1), cf200(200), cf70000(70000);
  ColumnFamilyHandle* const kFamilies[] = {nullptr, nullptr, &cf1, &cf200,
                                           &cf70000};
  int valid = 0, corrupt = 0, not_supported = 0;
  for (int iter = 0; iter < 3000; iter++) {
    WriteBatch b;
    const int n = static_cast<int>(rnd.Uniform(8));
    for (int i = 0; i < n; i++) {
      const std::string k(rnd.Skewed(8), 'k');
      const std::string v(rnd.Skewed(9), 'v');
      ColumnFamilyHandle* cf = kFamilies[rnd.Uniform(5)];
      switch (rnd.Uniform(6)) {
        case 0:
          ASSERT_TRUE(b.Put(cf, k, v).ok());
          break;
        case 1:
          ASSERT_TRUE(b.Delete(cf, k).ok());
          break;
        case 2:
          ASSERT_TRUE(b.SingleDelete(cf, k).ok());
          break;
        case 3:
          ASSERT_TRUE(b.DeleteRange(cf, k, v).ok());
          break;
        case 4:
          ASSERT_TRUE(b.Merge(cf, k, v).ok());
          break;
        default:
          ASSERT_TRUE(b.PutLogData(v).ok());
          break;
      }
    }
    std::string bytes = b.Data();
    const int mutations = 1 + static_cast<int>(rnd.Uniform(3));
    for (int m = 0; m < mutations && !bytes.empty(); m++) {
      const size_t pos = rnd.Uniform(static_cast<int>(bytes.size()));
      switch (rnd.Uniform(4)) {
        case 0:
          bytes[pos] = static_cast<char>(rnd.Next());
          break;
        case 1:
          bytes[pos] ^= static_cast<char>(1 << rnd.Uniform(8));
          break;
        case 2:
          bytes.resize(pos);
          break;
        default:
          bytes.insert(pos, 1, static_cast<char>(rnd.Next()));
          break;
      }
    }
    WriteBatch damaged;
    if (!WriteBatchInternal::SetContents(&damaged, bytes).ok()) {
      EXPECT_LT(bytes.size(), WriteBatchInternal::kHeader);
      continue;
    }
    const SpecBatch spec = DecodeAsSpecified(bytes);
    Recorder r;
    const Status s = damaged.Iterate(&r);
    ASSERT_EQ(spec.valid, s.ok()) << s.ToString() << " " << EscapeString(bytes);
    if (!s.ok()) {
      ASSERT_TRUE(spec.rocksdb_only ? s.IsNotSupported() : s.IsCorruption())
          << s.ToString() << " " << EscapeString(bytes);
    }
    ASSERT_EQ(spec.calls, r.seen) << EscapeString(bytes);
    EXPECT_EQ(s.ToString(), WriteBatchInternal::Validate(&damaged).ToString());
    if (s.ok()) {
      valid++;
    } else if (s.IsNotSupported()) {
      not_supported++;
    } else {
      corrupt++;
    }
  }
  // Every outcome was checked: damage to a value keeps a batch valid, a
  // random tag byte is now and then one of RocksDB's.
  EXPECT_GT(valid, 300);
  EXPECT_GT(corrupt, 1000);
  EXPECT_GT(not_supported, 3);
}

}  // namespace
}  // namespace strata
