// The whole-DB byte-flip sweep (docs/reliability.md, "Byte-flip sweep"):
// a small DB closed cleanly — tables in two levels, one compressed, a
// range tombstone, merge operands, two column families, a WAL holding
// synced writes not yet flushed, a MANIFEST of several edits — has one
// bit flipped at a time, in a copy, at every offset of each small file
// and at a fixed sample of offsets (both ends, every block boundary, a
// stride) of each larger one. Each damaged copy is opened with the
// default options (paranoid checks on, point-in-time WAL recovery), and
// then:
//   - an open that fails must name the damaged file;
//   - an open that succeeds must give, for every Get and through a full
//     forward and backward iteration, either Corruption or exactly the
//     contents recorded before the flip: no acknowledged write missing,
//     no wrong value, no deleted key back.
// Entries an iteration returned before its Corruption must be the
// expected ones too. The DB lives in a MemEnv, so the sweep is the same
// natively and under Wine, and costs no disk I/O.
//
// The number of offsets sampled per large file is a compile-time
// constant set by cmake/StrataTests.cmake (smaller in the Windows cross
// build, which runs under Wine).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/filename.h"
#include "db/log_format.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/table.h"
#include "table/block.h"
#include "table/compression.h"
#include "table/format.h"
#include "table/internal_iterator.h"

#ifndef STRATA_FLIP_SAMPLE
#define STRATA_FLIP_SAMPLE 300
#endif
#ifndef STRATA_FLIP_WHOLE_FILE
#define STRATA_FLIP_WHOLE_FILE 4096
#endif

namespace strata {
namespace {

// Offsets flipped per file larger than kWholeFile bytes (at least).
constexpr size_t kSample = STRATA_FLIP_SAMPLE;
// Files up to this size have every byte flipped.
constexpr size_t kWholeFile = STRATA_FLIP_WHOLE_FILE;
// Whether this build compiled snappy / zlib in (cmake sets these from
// STRATA_WITH_SNAPPY / STRATA_WITH_ZLIB).
constexpr bool kBuiltWithSnappy = STRATA_TEST_WITH_SNAPPY != 0;
constexpr bool kBuiltWithZlib = STRATA_TEST_WITH_ZLIB != 0;

const char kOrig[] = "/flip/orig";
const char kCopy[] = "/flip/copy";
const char kOther[] = "other";

// Expected contents: per family, key -> value; and per family every key
// ever written (a key written and deleted must stay deleted).
struct Model {
  std::map<std::string, std::string> cf[2];
  std::set<std::string> keys[2];
};

std::string Value(const std::string& key, int version) {
  // Compressible: a repeated pattern.
  std::string v = key + "/v" + std::to_string(version) + ":";
  while (v.size() < 120) v += "abcdefgh";
  return v;
}

// The sweep's outcome for one kind of file.
struct Tally {
  size_t files = 0;
  size_t bytes = 0;
  size_t flips = 0;
  size_t open_failed = 0;  // the open failed, naming the file
  size_t read_failed = 0;  // opened; a read returned Corruption
  size_t identical = 0;    // opened; every read gave the expected data
  size_t not_flipped = 0;  // bytes outside the sample
};

class ByteFlipSweepTest : public testing::Test {
 protected:
  ByteFlipSweepTest() : env_(NewMemEnv(Env::Default())) {
    EXPECT_TRUE(env_->CreateDir("/flip").ok());
  }

  ~ByteFlipSweepTest() override { CloseDB(); }

  // The compression of the default family: the first one compiled in.
  CompressionType Compression() const {
    if (CompressionSupported(kSnappyCompression)) return kSnappyCompression;
    if (CompressionSupported(kZlibCompression)) return kZlibCompression;
    return kNoCompression;
  }

  Options DBOpts() const {
    Options o;
    o.env = env_.get();
    o.create_if_missing = true;
    o.create_missing_column_families = true;
    o.disable_auto_compactions = true;  // tables stay where put
    return o;
  }

  std::vector<ColumnFamilyDescriptor> Families() const {
    ColumnFamilyOptions def(DBOpts());
    def.compression = Compression();
    BlockBasedTableOptions table;
    table.block_size = 512;  // several data blocks per table
    def.table_factory.reset(NewBlockBasedTableFactory(table));
    ColumnFamilyOptions other(DBOpts());
    other.compression = kNoCompression;
    other.merge_operator = MergeOperators::CreateStringAppendOperator(',');
    return {ColumnFamilyDescriptor(kDefaultColumnFamilyName, def),
            ColumnFamilyDescriptor(kOther, other)};
  }

  Status OpenDB(const std::string& name) {
    return DB::Open(DBOptions(DBOpts()), name, Families(), &handles_, &db_);
  }

  void CloseDB() {
    for (ColumnFamilyHandle* h : handles_) db_->DestroyColumnFamilyHandle(h);
    handles_.clear();
    delete db_;
    db_ = nullptr;
  }

  void Put(int cf, const std::string& k, const std::string& v, bool sync) {
    WriteOptions wo;
    wo.sync = sync;
    ASSERT_TRUE(db_->Put(wo, handles_[cf], k, v).ok());
    model_.cf[cf][k] = v;
    model_.keys[cf].insert(k);
  }
  void Delete(int cf, const std::string& k, bool sync) {
    WriteOptions wo;
    wo.sync = sync;
    ASSERT_TRUE(db_->Delete(wo, handles_[cf], k).ok());
    model_.cf[cf].erase(k);
    model_.keys[cf].insert(k);
  }
  void Merge(int cf, const std::string& k, const std::string& operand,
             bool sync) {
    WriteOptions wo;
    wo.sync = sync;
    ASSERT_TRUE(db_->Merge(wo, handles_[cf], k, operand).ok());
    auto it = model_.cf[cf].find(k);
    if (it == model_.cf[cf].end()) {
      model_.cf[cf][k] = operand;
    } else {
      it->second += "," + operand;
    }
    model_.keys[cf].insert(k);
  }
  void DeleteRange(int cf, const std::string& b, const std::string& e) {
    ASSERT_TRUE(db_->DeleteRange(WriteOptions(), handles_[cf], b, e).ok());
    auto& m = model_.cf[cf];
    m.erase(m.lower_bound(b), m.lower_bound(e));
  }
  void Flush(int cf) {
    ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[cf]).ok());
  }

  std::string Key(char prefix, int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%c%03d", prefix, i);
    return buf;
  }

  int FilesAtLevel(int cf, int level) {
    std::string v;
    EXPECT_TRUE(db_->GetProperty(
        handles_[cf], "strata.num-files-at-level" + std::to_string(level), &v));
    return std::atoi(v.c_str());
  }

  // Builds the DB in kOrig and closes it; keeps its files in files_.
  void Build() {
    ASSERT_TRUE(OpenDB(kOrig).ok());
    // A bottom table: the default family's keys, compacted below L0.
    for (int i = 0; i < 60; i++) Put(0, Key('a', i), Value(Key('a', i), 1), 0);
    Flush(0);
    ASSERT_TRUE(
        db_->CompactRange(CompactRangeOptions(), handles_[0], nullptr, nullptr)
            .ok());
    // An L0 table over it: overwrites, deletes and a range tombstone.
    for (int i = 0; i < 10; i++) Put(0, Key('a', i), Value(Key('a', i), 2), 0);
    for (int i = 10; i < 15; i++) Delete(0, Key('a', i), false);
    DeleteRange(0, Key('a', 20), Key('a', 30));
    Flush(0);
    // The other family: values and merge operands, in a table.
    for (int i = 0; i < 20; i++)
      Put(1, Key('b', i), "x" + std::to_string(i), 0);
    for (int i = 0; i < 10; i++)
      Merge(1, Key('b', i), "m" + std::to_string(i), 0);
    Merge(1, Key('b', 50), "only", false);
    Flush(1);
    EXPECT_GE(FilesAtLevel(0, 0), 1);
    int below = 0;
    for (int level = 1; level < 7; level++) below += FilesAtLevel(0, level);
    EXPECT_GE(below, 1) << "no table below level 0";
    // Synced writes left in the WAL, one record each.
    for (int i = 100; i < 110; i++)
      Put(0, Key('a', i), Value(Key('a', i), 3), 1);
    Delete(0, Key('a', 40), true);
    Merge(1, Key('b', 5), "w", true);
    Put(1, Key('b', 100), "y", true);
    Merge(1, Key('b', 101), "z", true);
    CloseDB();

    std::vector<std::string> children;
    ASSERT_TRUE(env_->GetChildren(kOrig, &children).ok());
    for (const std::string& child : children) {
      std::string contents;
      const std::string path = std::string(kOrig) + "/" + child;
      if (env_->FileExists(path).ok() &&
          ReadFileToString(env_.get(), path, &contents).ok()) {
        files_[child] = contents;
      }
    }
  }

  // The offsets of a file flipped by the sweep.
  std::vector<size_t> Offsets(const std::string& name, FileType type) {
    const std::string& c = files_[name];
    std::vector<size_t> all;
    if (c.size() <= kWholeFile) {
      for (size_t i = 0; i < c.size(); i++) all.push_back(i);
      return all;
    }
    std::set<size_t> s;
    for (size_t i = 0; i < 64; i++) {
      s.insert(i);
      s.insert(c.size() - 1 - i);
    }
    for (size_t b : Boundaries(c, type)) {
      for (size_t d : {size_t{0}, size_t{1}}) {
        if (b >= d && b - d < c.size()) s.insert(b - d);
      }
    }
    // A stride through the rest, till the sample is full.
    const size_t stride = std::max<size_t>(1, c.size() / kSample);
    for (size_t i = 7; i < c.size() && s.size() < kSample; i += stride) {
      s.insert(i);
    }
    return std::vector<size_t>(s.begin(), s.end());
  }

  // Block starts and ends of a file: a log's 32 KiB blocks, a table's
  // blocks (found through its footer and index block) and trailers.
  std::vector<size_t> Boundaries(const std::string& c, FileType type) {
    std::vector<size_t> b;
    if (type == FileType::kWalFile || type == FileType::kDescriptorFile) {
      for (size_t o = log::kBlockSize; o < c.size(); o += log::kBlockSize) {
        b.push_back(o);
      }
      return b;
    }
    if (type != FileType::kTableFile || c.size() < Footer::kEncodedLength) {
      return b;
    }
    Footer footer;
    const Slice tail(c.data() + c.size() - Footer::kEncodedLength,
                     Footer::kEncodedLength);
    if (!footer.DecodeFrom(tail, "table", c.size()).ok()) {
      ADD_FAILURE() << "footer of an intact table";
      return b;
    }
    std::vector<BlockHandle> handles = {footer.metaindex_handle,
                                        footer.index_handle};
    const BlockHandle& index = footer.index_handle;
    Block block(BlockContents(Slice(c.data() + index.offset(), index.size())));
    std::unique_ptr<InternalIterator> it(
        block.NewIterator(BytewiseComparator()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      Slice v = it->value();
      BlockHandle h;
      if (h.DecodeFrom(&v)) handles.push_back(h);
    }
    EXPECT_GE(handles.size(), 3u) << "the index names no data blocks";
    for (const BlockHandle& h : handles) {
      b.push_back(h.offset());
      b.push_back(h.offset() + h.size());  // the trailer's type byte
      b.push_back(h.offset() + h.size() + kBlockTrailerSize);
    }
    b.push_back(c.size() - Footer::kEncodedLength);
    return b;
  }

  void WriteCopy(const std::string& damaged, size_t offset) {
    std::vector<std::string> children;
    if (env_->GetChildren(kCopy, &children).ok()) {
      for (const std::string& child : children) {
        env_->RemoveFile(std::string(kCopy) + "/" + child);
      }
    }
    env_->CreateDirIfMissing(kCopy);
    for (const auto& f : files_) {
      std::string contents = f.second;
      if (f.first == damaged) {
        contents[offset] =
            static_cast<char>(contents[offset] ^ (1 << (offset % 8)));
      }
      ASSERT_TRUE(WriteStringToFile(env_.get(), contents,
                                    std::string(kCopy) + "/" + f.first, false)
                      .ok());
    }
  }

  enum Result { kOpenFailed, kReadFailed, kIdentical, kWrong };

  // Opens kCopy and checks it against model_; what it found. On kWrong,
  // *why says what was wrong.
  Result Check(const std::string& damaged, std::string* why) {
    Status s = OpenDB(kCopy);
    if (!s.ok()) {
      CloseDB();
      const std::string m = s.ToString();
      if (m.find(damaged) == std::string::npos) {
        *why = "open failed without naming the file: " + m;
        return kWrong;
      }
      return kOpenFailed;
    }
    bool corruption = false;
    for (int cf = 0; cf < 2 && why->empty(); cf++) {
      const auto& expected = model_.cf[cf];
      for (const std::string& k : model_.keys[cf]) {
        std::string v;
        s = db_->Get(ReadOptions(), handles_[cf], k, &v);
        auto it = expected.find(k);
        if (s.IsCorruption()) {
          corruption = true;
        } else if (it == expected.end() ? !s.IsNotFound()
                                        : !s.ok() || v != it->second) {
          *why = "Get(" + k + ") of family " + std::to_string(cf) + ": " +
                 s.ToString() + " '" + v + "'";
          break;
        }
      }
      if (!why->empty()) break;
      // Forward: the entries before any Corruption are the first ones.
      std::unique_ptr<Iterator> iter(
          db_->NewIterator(ReadOptions(), handles_[cf]));
      auto e = expected.begin();
      for (iter->SeekToFirst(); iter->Valid(); iter->Next(), ++e) {
        if (e == expected.end() || iter->key() != e->first ||
            iter->value() != e->second) {
          *why = "forward iteration of family " + std::to_string(cf) + " at " +
                 iter->key().ToString();
          break;
        }
      }
      if (!why->empty()) break;
      if (iter->status().IsCorruption()) {
        corruption = true;
      } else if (!iter->status().ok() || e != expected.end()) {
        *why = "forward iteration of family " + std::to_string(cf) +
               " ended early: " + iter->status().ToString();
        break;
      }
      auto r = expected.rbegin();
      for (iter->SeekToLast(); iter->Valid(); iter->Prev(), ++r) {
        if (r == expected.rend() || iter->key() != r->first ||
            iter->value() != r->second) {
          *why = "backward iteration of family " + std::to_string(cf) + " at " +
                 iter->key().ToString();
          break;
        }
      }
      if (!why->empty()) break;
      if (iter->status().IsCorruption()) {
        corruption = true;
      } else if (!iter->status().ok() || r != expected.rend()) {
        *why = "backward iteration of family " + std::to_string(cf) +
               " ended early: " + iter->status().ToString();
        break;
      }
    }
    CloseDB();
    if (!why->empty()) return kWrong;
    return corruption ? kReadFailed : kIdentical;
  }

  std::unique_ptr<Env> env_;
  DB* db_ = nullptr;
  std::vector<ColumnFamilyHandle*> handles_;
  Model model_;
  std::map<std::string, std::string> files_;  // name -> contents
};

const char* KindName(FileType type) {
  switch (type) {
    case FileType::kWalFile:
      return "WAL";
    case FileType::kTableFile:
      return "table";
    case FileType::kDescriptorFile:
      return "MANIFEST";
    case FileType::kCurrentFile:
      return "CURRENT";
    case FileType::kIdentityFile:
      return "IDENTITY";
    case FileType::kOptionsFile:
      return "OPTIONS";
    default:
      return "other";
  }
}

TEST_F(ByteFlipSweepTest, EveryFileOfAClosedDB) {
  // Which compressions this build has is stated, not guessed: a build
  // without either has no compressed table, and says so below.
  EXPECT_EQ(kBuiltWithSnappy, CompressionSupported(kSnappyCompression));
  EXPECT_EQ(kBuiltWithZlib, CompressionSupported(kZlibCompression));
  const auto start = std::chrono::steady_clock::now();
  Build();
  ASSERT_FALSE(HasFatalFailure());

  // The undamaged copy opens with the recorded contents.
  WriteCopy("", 0);
  std::string why;
  ASSERT_EQ(kIdentical, Check("-", &why)) << why;

  std::map<std::string, Tally> tallies;
  std::vector<std::string> skipped;
  int failures = 0;
  for (const auto& f : files_) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(f.first, &number, &type)) {
      ADD_FAILURE() << "unexpected file " << f.first;
      continue;
    }
    if (type == FileType::kInfoLogFile || type == FileType::kDBLockFile) {
      // The info log is only written; the lock file's bytes are never
      // read (it is empty).
      skipped.push_back(f.first);
      continue;
    }
    Tally& t = tallies[KindName(type)];
    t.files++;
    t.bytes += f.second.size();
    const std::vector<size_t> offsets = Offsets(f.first, type);
    t.not_flipped += f.second.size() - offsets.size();
    for (size_t offset : offsets) {
      WriteCopy(f.first, offset);
      ASSERT_FALSE(HasFatalFailure());
      why.clear();
      t.flips++;
      switch (Check(f.first, &why)) {
        case kOpenFailed:
          t.open_failed++;
          break;
        case kReadFailed:
          t.read_failed++;
          break;
        case kIdentical:
          t.identical++;
          break;
        case kWrong:
          if (++failures <= 30) {
            ADD_FAILURE() << f.first << " (" << f.second.size()
                          << " bytes) bit " << offset % 8 << " of byte "
                          << offset << ": " << why;
          }
          break;
      }
    }
  }
  EXPECT_EQ(0, failures) << "flips that gave wrong results";

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf(
      "byte-flip sweep (%s compression; sample %zu, whole files up "
      "to %zu bytes), %.1f s\n",
      CompressionTypeName(Compression()), kSample, kWholeFile, seconds);
  std::printf("%-9s %5s %7s %6s %11s %11s %9s %11s\n", "kind", "files", "bytes",
              "flips", "open-failed", "read-failed", "identical",
              "not-flipped");
  Tally total;
  for (const auto& kv : tallies) {
    const Tally& t = kv.second;
    std::printf("%-9s %5zu %7zu %6zu %11zu %11zu %9zu %11zu\n",
                kv.first.c_str(), t.files, t.bytes, t.flips, t.open_failed,
                t.read_failed, t.identical, t.not_flipped);
    total.files += t.files;
    total.bytes += t.bytes;
    total.flips += t.flips;
    total.open_failed += t.open_failed;
    total.read_failed += t.read_failed;
    total.identical += t.identical;
    total.not_flipped += t.not_flipped;
  }
  std::printf("%-9s %5zu %7zu %6zu %11zu %11zu %9zu %11zu\n", "total",
              total.files, total.bytes, total.flips, total.open_failed,
              total.read_failed, total.identical, total.not_flipped);
  for (const std::string& s : skipped) {
    std::printf("not flipped: %s (never read by an open)\n", s.c_str());
  }
  if (Compression() == kNoCompression) {
    std::printf("this build has no compression: no compressed table\n");
  }
  // Every kind the DB is made of was swept.
  for (const char* kind : {"table", "WAL", "MANIFEST", "CURRENT"}) {
    EXPECT_EQ(1u, tallies.count(kind)) << kind;
  }
  EXPECT_GE(tallies["table"].files, 3u);
}

}  // namespace
}  // namespace strata
