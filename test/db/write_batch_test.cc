#include "strata/write_batch.h"

#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/logging.h"
#include "util/random.h"

namespace strata {
namespace {

// Records every call as text, through the column-family forms.
class Recorder : public WriteBatch::Handler {
 public:
  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, "Put(" + key.ToString() + "," + value.ToString() + ")");
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, "Delete(" + key.ToString() + ")");
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, "SingleDelete(" + key.ToString() + ")");
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin,
                       const Slice& end) override {
    return Add(cf,
               "DeleteRange(" + begin.ToString() + "," + end.ToString() + ")");
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, "Merge(" + key.ToString() + "," + value.ToString() + ")");
  }
  void LogData(const Slice& blob) override {
    seen.push_back("LogData(" + blob.ToString() + ")");
  }
  bool Continue() override {
    return stop_after < 0 || static_cast<int>(seen.size()) < stop_after;
  }

  std::vector<std::string> seen;
  int stop_after = -1;  // Continue() is false once this many were seen
  int fail_at = -1;     // this update returns Aborted

 private:
  Status Add(uint32_t cf, std::string call) {
    if (cf != 0) call += "@" + std::to_string(cf);
    if (static_cast<int>(seen.size()) == fail_at) {
      return Status::Aborted("fail_at");
    }
    seen.push_back(std::move(call));
    return Status::OK();
  }
};

// Only the plain (void) forms, as a LevelDB-style handler would write.
class PlainHandler : public WriteBatch::Handler {
 public:
  void Put(const Slice& key, const Slice& value) override {
    seen.push_back("Put(" + key.ToString() + "," + value.ToString() + ")");
  }
  void Delete(const Slice& key) override {
    seen.push_back("Delete(" + key.ToString() + ")");
  }
  std::vector<std::string> seen;
};

std::vector<std::string> Contents(const WriteBatch& b, Status* s = nullptr) {
  Recorder r;
  Status st = b.Iterate(&r);
  if (s != nullptr) {
    *s = st;
  } else {
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  return r.seen;
}

// A batch with every record type; the LogData is not last, so that every
// proper prefix of it is missing a counted record.
WriteBatch EveryType() {
  WriteBatch b;
  EXPECT_TRUE(b.Put("k1", "v1").ok());
  EXPECT_TRUE(b.Delete("k2").ok());
  EXPECT_TRUE(b.PutLogData("blob").ok());
  EXPECT_TRUE(b.SingleDelete("k3").ok());
  EXPECT_TRUE(b.DeleteRange("a", "z").ok());
  EXPECT_TRUE(b.Merge("k4", "m").ok());
  return b;
}

const std::vector<std::string> kEveryType = {
    "Put(k1,v1)",       "Delete(k2)",       "LogData(blob)",
    "SingleDelete(k3)", "DeleteRange(a,z)", "Merge(k4,m)"};

Status IterateBytes(const std::string& bytes) {
  WriteBatch b;
  Status s = WriteBatchInternal::SetContents(&b, bytes);
  if (!s.ok()) return s;
  Recorder r;
  s = b.Iterate(&r);
  EXPECT_EQ(s.ToString(), WriteBatchInternal::Validate(&b).ToString());
  return s;
}

TEST(WriteBatchTest, Empty) {
  WriteBatch b;
  EXPECT_EQ(0u, b.Count());
  EXPECT_EQ(WriteBatchInternal::kHeader, b.GetDataSize());
  EXPECT_EQ(std::string(12, '\0'), b.Data());
  EXPECT_TRUE(Contents(b).empty());
  EXPECT_TRUE(WriteBatchInternal::Validate(&b).ok());
}

TEST(WriteBatchTest, EveryRecordTypeRoundTrips) {
  WriteBatch b = EveryType();
  EXPECT_EQ(5u, b.Count());  // LogData is not counted
  EXPECT_EQ(b.Data().size(), b.GetDataSize());
  EXPECT_EQ(kEveryType, Contents(b));
}

TEST(WriteBatchTest, BinaryAndLongKeysRoundTrip) {
  const std::string key("a\0b\xff", 4);
  const std::string value(300, '\x80');  // a two-byte length varint
  WriteBatch b;
  ASSERT_TRUE(b.Put(key, value).ok());
  ASSERT_TRUE(b.Put("", "").ok());
  std::vector<std::string> seen = Contents(b);
  ASSERT_EQ(2u, seen.size());
  EXPECT_EQ("Put(" + key + "," + value + ")", seen[0]);
  EXPECT_EQ("Put(,)", seen[1]);
  EXPECT_EQ(12u + 1 + 1 + 4 + 2 + 300 + 1 + 1 + 1, b.GetDataSize());
}

TEST(WriteBatchTest, EncodingIsRocksDBs) {
  WriteBatch b;
  WriteBatchInternal::SetSequence(&b, 0x0102030405060708ull);
  ASSERT_TRUE(b.Put("k", "vv").ok());
  ASSERT_TRUE(b.Delete("d").ok());
  ASSERT_TRUE(b.DeleteRange("b", "e").ok());
  const std::string expected(
      "\x08\x07\x06\x05\x04\x03\x02\x01"  // sequence
      "\x03\x00\x00\x00"                  // count
      "\x01\x01k\x02vv"                   // Put
      "\x00\x01\x64"                      // Delete "d"
      "\x0f\x01\x62\x01\x65",             // DeleteRange "b" "e"
      12 + 6 + 3 + 5);
  EXPECT_EQ(expected, b.Data());
}

TEST(WriteBatchTest, ContentFlagsFollowEveryChange) {
  WriteBatch b;
  b.Put("k", "v");
  b.Delete("k");
  EXPECT_FALSE(b.HasMerge());
  EXPECT_FALSE(b.HasDeleteRange());
  b.Merge("k", "m");
  EXPECT_TRUE(b.HasMerge());
  EXPECT_FALSE(b.HasDeleteRange());

  WriteBatch range;
  range.DeleteRange("a", "b");
  EXPECT_TRUE(range.HasDeleteRange());
  WriteBatch merged;
  merged.Put("x", "y");
  WriteBatchInternal::Append(&merged, &range);
  EXPECT_TRUE(merged.HasDeleteRange());
  EXPECT_FALSE(merged.HasMerge());

  WriteBatch decoded;
  ASSERT_TRUE(WriteBatchInternal::SetContents(&decoded,
                                              WriteBatchInternal::Contents(&b))
                  .ok());
  EXPECT_TRUE(decoded.HasMerge());
  WriteBatch copy(decoded);
  EXPECT_TRUE(copy.HasMerge());
  WriteBatch moved(std::move(copy));
  EXPECT_TRUE(moved.HasMerge());
  EXPECT_FALSE(copy.HasMerge());  // NOLINT: moved-from is empty
  moved.Clear();
  EXPECT_FALSE(moved.HasMerge());

  // A record refused by max_bytes sets nothing.
  WriteBatch capped(0, WriteBatchInternal::kHeader + 8);
  EXPECT_FALSE(capped.Merge("a key too long", "v").ok());
  EXPECT_FALSE(capped.HasMerge());
}

TEST(WriteBatchTest, SequenceAndCount) {
  WriteBatch b;
  ASSERT_TRUE(b.Put("a", "1").ok());
  EXPECT_EQ(0u, WriteBatchInternal::Sequence(&b));
  WriteBatchInternal::SetSequence(&b, kMaxSequenceNumber);
  EXPECT_EQ(kMaxSequenceNumber, WriteBatchInternal::Sequence(&b));
  EXPECT_EQ(1u, WriteBatchInternal::Count(&b));
  WriteBatchInternal::SetCount(&b, 7);
  EXPECT_EQ(7u, b.Count());
  EXPECT_EQ(b.Data(), WriteBatchInternal::Contents(&b).ToString());
  EXPECT_EQ(b.GetDataSize(), WriteBatchInternal::ByteSize(&b));
}

TEST(WriteBatchTest, ClearDropsUpdatesAndSequence) {
  WriteBatch b = EveryType();
  WriteBatchInternal::SetSequence(&b, 99);
  b.Clear();
  EXPECT_EQ(0u, b.Count());
  EXPECT_EQ(0u, WriteBatchInternal::Sequence(&b));
  EXPECT_EQ(WriteBatchInternal::kHeader, b.GetDataSize());
  EXPECT_TRUE(Contents(b).empty());
  ASSERT_TRUE(b.Put("x", "y").ok());
  EXPECT_EQ(std::vector<std::string>{"Put(x,y)"}, Contents(b));
}

TEST(WriteBatchTest, AppendConcatenatesAndAddsCounts) {
  WriteBatch dst;
  WriteBatchInternal::SetSequence(&dst, 200);
  ASSERT_TRUE(dst.Put("a", "1").ok());
  WriteBatch src = EveryType();
  WriteBatchInternal::SetSequence(&src, 7);
  const std::string src_before = src.Data();

  WriteBatchInternal::Append(&dst, &src);
  EXPECT_EQ(6u, dst.Count());
  EXPECT_EQ(200u, WriteBatchInternal::Sequence(&dst));
  std::vector<std::string> expected = {"Put(a,1)"};
  expected.insert(expected.end(), kEveryType.begin(), kEveryType.end());
  EXPECT_EQ(expected, Contents(dst));
  EXPECT_EQ(src_before, src.Data());

  WriteBatch empty;
  WriteBatchInternal::Append(&dst, &empty);
  EXPECT_EQ(6u, dst.Count());
  EXPECT_EQ(expected, Contents(dst));
  WriteBatchInternal::Append(&empty, &dst);
  EXPECT_EQ(expected, Contents(empty));
}

TEST(WriteBatchTest, SetContents) {
  WriteBatch b = EveryType();
  WriteBatch c;
  ASSERT_TRUE(c.Put("old", "x").ok());
  ASSERT_TRUE(WriteBatchInternal::SetContents(&c, b.Data()).ok());
  EXPECT_EQ(b.Data(), c.Data());
  EXPECT_EQ(kEveryType, Contents(c));

  Status s = WriteBatchInternal::SetContents(&c, Slice("short", 5));
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("12-byte header"));
  EXPECT_EQ(b.Data(), c.Data());  // unchanged
}

TEST(WriteBatchTest, CopyAndMove) {
  WriteBatch a = EveryType();
  WriteBatch copy(a);
  EXPECT_EQ(a.Data(), copy.Data());
  ASSERT_TRUE(copy.Put("only", "copy").ok());
  EXPECT_EQ(5u, a.Count());
  EXPECT_EQ(6u, copy.Count());

  WriteBatch assigned;
  assigned = a;
  EXPECT_EQ(a.Data(), assigned.Data());

  WriteBatch moved(std::move(copy));
  EXPECT_EQ(6u, moved.Count());
  // The moved-from batch is empty and usable.
  EXPECT_EQ(0u, copy.Count());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(WriteBatchInternal::kHeader, copy.GetDataSize());
  ASSERT_TRUE(copy.Put("again", "1").ok());
  EXPECT_EQ(std::vector<std::string>{"Put(again,1)"}, Contents(copy));

  WriteBatch move_assigned;
  move_assigned = std::move(moved);
  EXPECT_EQ(6u, move_assigned.Count());
  EXPECT_EQ(0u, moved.Count());  // NOLINT(bugprone-use-after-move)
  WriteBatch& self = move_assigned;
  move_assigned = std::move(self);
  EXPECT_EQ(6u, move_assigned.Count());
}

TEST(WriteBatchTest, MaxBytesRejectsAndLeavesBatchUnchanged) {
  // Header 12 + Put("k1","v1") 7 = 19.
  WriteBatch b(0, 25);
  ASSERT_TRUE(b.Put("k1", "v1").ok());
  const std::string before = b.Data();
  Status s = b.Put("k2", "v2");  // would be 26
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("max_bytes"));
  EXPECT_EQ(before, b.Data());
  EXPECT_EQ(1u, b.Count());
  EXPECT_TRUE(b.PutLogData("0123456").IsInvalidArgument());
  EXPECT_TRUE(b.DeleteRange("a", "bcd").IsInvalidArgument());
  EXPECT_EQ(before, b.Data());
  ASSERT_TRUE(b.Delete("k2").ok());      // exactly 19 + 4 = 23
  ASSERT_TRUE(b.SingleDelete("").ok());  // exactly 25 fits
  EXPECT_EQ(3u, b.Count());
  EXPECT_TRUE(b.Merge("", "").IsInvalidArgument());

  WriteBatch copy(b);  // the limit travels with the batch
  copy.Clear();
  ASSERT_TRUE(copy.Put("k1", "v1").ok());
  EXPECT_TRUE(copy.Put("k2", "v2").IsInvalidArgument());

  WriteBatch unlimited(1 << 10);
  ASSERT_TRUE(unlimited.Put(std::string(4000, 'k'), "v").ok());
}

TEST(WriteBatchTest, DefaultHandlerForwardsToPlainForms) {
  WriteBatch b;
  ASSERT_TRUE(b.Put("k", "v").ok());
  ASSERT_TRUE(b.Delete("d").ok());
  ASSERT_TRUE(b.SingleDelete("s").ok());  // default: ignored
  ASSERT_TRUE(b.Merge("m", "x").ok());    // default: ignored
  ASSERT_TRUE(b.PutLogData("blob").ok());
  ASSERT_TRUE(b.Put("k2", "v2").ok());
  PlainHandler h;
  ASSERT_TRUE(b.Iterate(&h).ok());
  EXPECT_EQ((std::vector<std::string>{"Put(k,v)", "Delete(d)", "Put(k2,v2)"}),
            h.seen);

  // DeleteRange has no plain form: the default refuses it.
  ASSERT_TRUE(b.DeleteRange("a", "b").ok());
  ASSERT_TRUE(b.Put("after", "range").ok());
  PlainHandler h2;
  Status s = b.Iterate(&h2);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ("DeleteRange not implemented by this handler",
            std::string(s.getState()));
  EXPECT_EQ(3u, h2.seen.size());
}

TEST(WriteBatchTest, DefaultHandlerRejectsOtherColumnFamilies) {
  PlainHandler h;
  Status s = h.PutCF(3, "k", "v");
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("column family 3"));
  EXPECT_TRUE(h.DeleteCF(4, "k").IsInvalidArgument());
  EXPECT_TRUE(h.SingleDeleteCF(5, "k").IsInvalidArgument());
  EXPECT_TRUE(h.MergeCF(6, "k", "v").IsInvalidArgument());
  EXPECT_TRUE(h.seen.empty());
  EXPECT_TRUE(h.PutCF(0, "k", "v").ok());
  EXPECT_TRUE(h.SingleDeleteCF(0, "k").ok());
  EXPECT_TRUE(h.MergeCF(0, "k", "v").ok());
  EXPECT_EQ(std::vector<std::string>{"Put(k,v)"}, h.seen);
  EXPECT_TRUE(h.Continue());
}

TEST(WriteBatchTest, ContinueFalseStops) {
  WriteBatch b = EveryType();
  Recorder r;
  r.stop_after = 2;
  ASSERT_TRUE(b.Iterate(&r).ok());
  EXPECT_EQ((std::vector<std::string>{"Put(k1,v1)", "Delete(k2)"}), r.seen);
  Recorder none;
  none.stop_after = 0;
  ASSERT_TRUE(b.Iterate(&none).ok());
  EXPECT_TRUE(none.seen.empty());
}

TEST(WriteBatchTest, HandlerErrorStopsIteration) {
  WriteBatch b = EveryType();
  Recorder r;
  r.fail_at = 1;  // the Delete
  Status s = b.Iterate(&r);
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  EXPECT_EQ(std::vector<std::string>{"Put(k1,v1)"}, r.seen);
}

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
