// WriteBatch decoding of damaged and foreign bytes: every malformed batch
// must give a clear error, never a crash or a read outside the batch.

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
using test::IterateBytes;
using test::Recorder;

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

TEST(WriteBatchTest, UnknownTagIsCorruption) {
  for (char tag : {'\x04', '\x05', '\x10', '\x42', '\xff'}) {
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

// A batch decoded as docs/formats/write_batch.md defines it, without the
// WriteBatch code: the Recorder calls of its records up to the first
// malformed one, and whether the whole is valid (every record well formed,
// the header count equal to the updates).
struct SpecBatch {
  std::vector<std::string> calls;
  bool valid = false;
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
    switch (tag) {
      case 0x01:
        name = "Put";
        two_parts = true;
        break;
      case 0x00:
        name = "Delete";
        break;
      case 0x07:
        name = "SingleDelete";
        break;
      case 0x0f:
        name = "DeleteRange";
        two_parts = true;
        break;
      case 0x02:
        name = "Merge";
        two_parts = true;
        break;
      case 0x03:
        name = "LogData";
        break;
      default:
        return spec;
    }
    std::string a, b;
    if (!varstring(&a) || (two_parts && !varstring(&b))) return spec;
    spec.calls.push_back(std::string(name) + "(" + a +
                         (two_parts ? "," + b : std::string()) + ")");
    if (tag != 0x03) updates++;
  }
  spec.valid = updates == DecodeFixed32(bytes.data() + 8);
  return spec;
}

// Random valid batches, randomly damaged: Iterate must return (under ASan:
// without reading out of bounds) exactly what the format says — OK for a
// valid batch, else Corruption — after handing over the records decoded
// before the damage, as the spec decodes them.
TEST(WriteBatchTest, FuzzMutatedBatches) {
  Random rnd(301);
  int valid = 0, corrupt = 0;
  for (int iter = 0; iter < 3000; iter++) {
    WriteBatch b;
    const int n = static_cast<int>(rnd.Uniform(8));
    for (int i = 0; i < n; i++) {
      const std::string k(rnd.Skewed(8), 'k');
      const std::string v(rnd.Skewed(9), 'v');
      switch (rnd.Uniform(6)) {
        case 0:
          ASSERT_TRUE(b.Put(k, v).ok());
          break;
        case 1:
          ASSERT_TRUE(b.Delete(k).ok());
          break;
        case 2:
          ASSERT_TRUE(b.SingleDelete(k).ok());
          break;
        case 3:
          ASSERT_TRUE(b.DeleteRange(k, v).ok());
          break;
        case 4:
          ASSERT_TRUE(b.Merge(k, v).ok());
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
    ASSERT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
    ASSERT_EQ(spec.calls, r.seen) << EscapeString(bytes);
    EXPECT_EQ(s.ToString(), WriteBatchInternal::Validate(&damaged).ToString());
    if (s.ok()) {
      valid++;
    } else {
      corrupt++;
    }
  }
  // Both outcomes were checked: damage to a value keeps a batch valid.
  EXPECT_GT(valid, 300);
  EXPECT_GT(corrupt, 1000);
}

}  // namespace
}  // namespace strata
