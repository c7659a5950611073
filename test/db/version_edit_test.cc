// VersionEdit: every field round trips, random edits round trip, and
// hostile bytes (every truncation, every bit flip, random garbage) decode
// to Corruption or to a valid edit, never a crash; unknown tags are
// skipped only in the ignorable range.

#include "db/version_edit.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

InternalKey Key(const std::string& user_key, SequenceNumber seq,
                ValueType type = kTypeValue) {
  return InternalKey(user_key, seq, type);
}

std::string Encode(const VersionEdit& edit) {
  std::string s;
  edit.EncodeTo(&s);
  return s;
}

// Decodes the encoding of edit and checks it encodes back to the same
// bytes (which covers every field, the encoding being canonical).
void ExpectRoundTrip(const VersionEdit& edit) {
  const std::string encoded = Encode(edit);
  VersionEdit parsed;
  Status s = parsed.DecodeFrom(encoded);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(encoded, Encode(parsed));
  EXPECT_EQ(edit.DebugString(), parsed.DebugString());
}

TEST(VersionEditTest, EmptyEdit) {
  VersionEdit edit;
  EXPECT_EQ("", Encode(edit));
  ExpectRoundTrip(edit);
  VersionEdit parsed;
  ASSERT_TRUE(parsed.DecodeFrom(Slice()).ok());
  EXPECT_FALSE(parsed.has_comparator());
  EXPECT_FALSE(parsed.has_log_number());
  EXPECT_FALSE(parsed.has_next_file_number());
  EXPECT_FALSE(parsed.has_last_sequence());
}

TEST(VersionEditTest, EveryFieldRoundTrips) {
  VersionEdit edit;
  edit.SetComparatorName("strata.BytewiseComparator");
  edit.SetLogNumber(17);
  edit.SetNextFile(uint64_t{1} << 40);
  edit.SetLastSequence(kMaxSequenceNumber);
  edit.SetMinLogNumberToKeep(12);
  edit.SetCompactPointer(3, Key("cp", 9, kTypeDeletion));
  edit.RemoveFile(2, 11);
  edit.RemoveFile(0, 12);
  edit.AddFile(config::kMaxNumLevels - 1, 99, 4096, Key("a", 5),
               Key("z", 1, kTypeRangeDeletion), 1, 5);
  FileMetaData f;
  f.number = 100;
  f.file_size = 0;
  f.smallest = Key(std::string("\0\xff", 2), 7, kTypeMerge);
  f.largest = Key(std::string("\xff\xff\xff", 3), 7, kTypeSingleDeletion);
  f.smallest_seqno = 7;
  f.largest_seqno = 7;
  f.refs = 5;  // not part of an edit
  edit.AddFile(0, f);

  VersionEdit parsed;
  ASSERT_TRUE(parsed.DecodeFrom(Encode(edit)).ok());
  EXPECT_EQ("strata.BytewiseComparator", parsed.comparator());
  EXPECT_EQ(17u, parsed.log_number());
  EXPECT_EQ(uint64_t{1} << 40, parsed.next_file_number());
  EXPECT_EQ(kMaxSequenceNumber, parsed.last_sequence());
  EXPECT_TRUE(parsed.has_min_log_number_to_keep());
  EXPECT_EQ(12u, parsed.min_log_number_to_keep());
  ASSERT_EQ(1u, parsed.compact_pointers().size());
  EXPECT_EQ(3, parsed.compact_pointers()[0].first);
  EXPECT_EQ(Key("cp", 9, kTypeDeletion).Encode(),
            parsed.compact_pointers()[0].second.Encode());
  EXPECT_EQ((VersionEdit::DeletedFileSet{{0, 12}, {2, 11}}),
            parsed.deleted_files());
  ASSERT_EQ(2u, parsed.new_files().size());
  const auto& a = parsed.new_files()[0];
  EXPECT_EQ(config::kMaxNumLevels - 1, a.first);
  EXPECT_EQ(99u, a.second.number);
  EXPECT_EQ(4096u, a.second.file_size);
  EXPECT_EQ(Key("a", 5).Encode(), a.second.smallest.Encode());
  EXPECT_EQ(Key("z", 1, kTypeRangeDeletion).Encode(),
            a.second.largest.Encode());
  EXPECT_EQ(1u, a.second.smallest_seqno);
  EXPECT_EQ(5u, a.second.largest_seqno);
  const auto& b = parsed.new_files()[1];
  EXPECT_EQ(0, b.first);
  EXPECT_EQ(f.smallest.Encode(), b.second.smallest.Encode());
  EXPECT_EQ(f.largest.Encode(), b.second.largest.Encode());
  EXPECT_EQ(0, b.second.refs);
  ExpectRoundTrip(edit);
}

VersionEdit RandomEdit(Random* rnd) {
  VersionEdit edit;
  auto key = [rnd]() {
    std::string k;
    const int len = static_cast<int>(rnd->Uniform(20));
    for (int i = 0; i < len; i++) k.push_back(static_cast<char>(rnd->Next()));
    const ValueType types[] = {kTypeValue, kTypeDeletion, kTypeMerge,
                               kTypeSingleDeletion, kTypeRangeDeletion};
    return InternalKey(k, rnd->Next() % 1000000, types[rnd->Uniform(5)]);
  };
  if (rnd->OneIn(2)) edit.SetComparatorName(key().user_key());
  if (rnd->OneIn(2)) edit.SetLogNumber(rnd->Next());
  if (rnd->OneIn(2)) edit.SetNextFile(uint64_t{rnd->Next()} << 20);
  if (rnd->OneIn(2)) edit.SetLastSequence(rnd->Next());
  if (rnd->OneIn(4)) edit.SetMinLogNumberToKeep(rnd->Next());
  const int n = static_cast<int>(rnd->Uniform(10));
  for (int i = 0; i < n; i++) {
    const int level = static_cast<int>(rnd->Uniform(config::kMaxNumLevels));
    switch (rnd->Uniform(3)) {
      case 0:
        edit.SetCompactPointer(level, key());
        break;
      case 1:
        edit.RemoveFile(level, rnd->Next());
        break;
      default: {
        const SequenceNumber lo = rnd->Uniform(1000);
        edit.AddFile(level, rnd->Next(), rnd->Next(), key(), key(), lo,
                     lo + rnd->Uniform(1000));
      }
    }
  }
  return edit;
}

TEST(VersionEditTest, RandomEditsRoundTrip) {
  Random rnd(301);
  for (int i = 0; i < 500; i++) {
    SCOPED_TRACE(i);
    ExpectRoundTrip(RandomEdit(&rnd));
  }
}

// A hostile decode either fails with Corruption (leaving the edit empty)
// or yields an edit whose fields are all in range.
void ExpectCorruptionOrValid(const Slice& bytes) {
  VersionEdit edit;
  Status s = edit.DecodeFrom(bytes);
  if (!s.ok()) {
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_EQ("", Encode(edit));
    return;
  }
  for (const auto& nf : edit.new_files()) {
    EXPECT_LT(nf.first, config::kMaxNumLevels);
    EXPECT_TRUE(nf.second.smallest.Valid());
    EXPECT_TRUE(nf.second.largest.Valid());
    EXPECT_LE(nf.second.smallest_seqno, nf.second.largest_seqno);
  }
  for (const auto& d : edit.deleted_files()) {
    EXPECT_LT(d.first, config::kMaxNumLevels);
  }
  if (edit.has_last_sequence()) {
    EXPECT_LE(edit.last_sequence(), kMaxSequenceNumber);
  }
}

TEST(VersionEditTest, EveryTruncationAndFlip) {
  Random rnd(17);
  for (int e = 0; e < 20; e++) {
    const std::string encoded = Encode(RandomEdit(&rnd));
    for (size_t len = 0; len < encoded.size(); len++) {
      ExpectCorruptionOrValid(Slice(encoded.data(), len));
    }
    for (size_t i = 0; i < encoded.size(); i++) {
      for (int bit = 0; bit < 8; bit++) {
        std::string flipped = encoded;
        flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
        ExpectCorruptionOrValid(flipped);
      }
    }
  }
  for (int i = 0; i < 2000; i++) {
    std::string garbage(rnd.Uniform(64), '\0');
    for (char& c : garbage) c = static_cast<char>(rnd.Next());
    ExpectCorruptionOrValid(garbage);
  }
}

TEST(VersionEditTest, TruncatedNewFileIsCorruption) {
  VersionEdit edit;
  edit.AddFile(1, 5, 100, Key("a", 1), Key("b", 2), 1, 2);
  const std::string encoded = Encode(edit);
  for (size_t len = 1; len < encoded.size(); len++) {
    VersionEdit parsed;
    Status s = parsed.DecodeFrom(Slice(encoded.data(), len));
    EXPECT_TRUE(s.IsCorruption()) << len;
    EXPECT_NE(std::string::npos, s.ToString().find("new file")) << len;
  }
}

TEST(VersionEditTest, BadFieldValuesAreCorruption) {
  std::string bad_level;
  PutVarint32(&bad_level, 6);  // kDeletedFile
  PutVarint32(&bad_level, config::kMaxNumLevels);
  PutVarint64(&bad_level, 3);
  VersionEdit edit;
  EXPECT_TRUE(edit.DecodeFrom(bad_level).IsCorruption());

  // A key without a trailer, and one with an unknown value type.
  for (const std::string& key :
       {std::string("short"), std::string("key\x42\0\0\0\0\0\0\0", 11)}) {
    std::string bytes;
    PutVarint32(&bytes, 5);  // kCompactPointer
    PutVarint32(&bytes, 1);
    PutLengthPrefixedSlice(&bytes, key);
    EXPECT_TRUE(edit.DecodeFrom(bytes).IsCorruption());
  }

  std::string bad_seq;
  PutVarint32(&bad_seq, 4);  // kLastSequence
  PutVarint64(&bad_seq, kMaxSequenceNumber + 1);
  EXPECT_TRUE(edit.DecodeFrom(bad_seq).IsCorruption());

  VersionEdit inverted;
  inverted.AddFile(1, 5, 100, Key("a", 9), Key("b", 9), 9, 2);
  Status s = edit.DecodeFrom(Encode(inverted));
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("smallest sequence"));

  // A length running past the end.
  std::string long_name;
  PutVarint32(&long_name, 1);  // kComparator
  PutVarint32(&long_name, 1000);
  long_name += "abc";
  EXPECT_TRUE(edit.DecodeFrom(long_name).IsCorruption());
}

TEST(VersionEditTest, IgnorableTagsAreSkippedOthersAreCorruption) {
  VersionEdit base;
  base.SetLogNumber(3);
  base.AddFile(1, 5, 100, Key("a", 1), Key("b", 2), 1, 2);

  // An ignorable tag (bit 0x2000) with its payload, between two fields.
  for (uint32_t tag : {0x2000u, 0x2001u, 0x3fffu, 0x12345u | 0x2000u}) {
    std::string bytes = Encode(base);
    PutVarint32(&bytes, tag);
    PutLengthPrefixedSlice(&bytes, "future field payload");
    VersionEdit tail;
    tail.SetNextFile(77);
    tail.EncodeTo(&bytes);
    VersionEdit parsed;
    Status s = parsed.DecodeFrom(bytes);
    ASSERT_TRUE(s.ok()) << tag << " " << s.ToString();
    EXPECT_EQ(3u, parsed.log_number());
    EXPECT_EQ(77u, parsed.next_file_number());
    EXPECT_EQ(1u, parsed.new_files().size());

    // Its payload cut short.
    std::string cut = Encode(base);
    PutVarint32(&cut, tag);
    PutVarint32(&cut, 50);
    cut += "short";
    EXPECT_TRUE(parsed.DecodeFrom(cut).IsCorruption());
  }

  // Unknown tags without the bit: Corruption naming the tag.
  for (uint32_t tag : {0u, 9u, 100u, 0x1fffu, 0x4000u}) {
    std::string bytes = Encode(base);
    PutVarint32(&bytes, tag);
    PutLengthPrefixedSlice(&bytes, "x");
    VersionEdit parsed;
    Status s = parsed.DecodeFrom(bytes);
    ASSERT_TRUE(s.IsCorruption()) << tag;
    EXPECT_NE(std::string::npos,
              s.ToString().find("unknown tag " + std::to_string(tag)))
        << s.ToString();
    EXPECT_FALSE(parsed.has_log_number());  // cleared on error
  }
}

TEST(VersionEditTest, FileCountsRoundTripAndAreOptional) {
  FileMetaData f;
  f.number = 9;
  f.file_size = 4096;
  f.smallest = Key("a", 1);
  f.largest = Key("z", 5);
  f.smallest_seqno = 1;
  f.largest_seqno = 5;
  f.num_entries = 120;
  f.num_deletions = 7;
  f.num_range_deletions = 2;
  f.counts_known = true;
  VersionEdit edit;
  edit.AddFile(2, f);
  f.number = 10;
  f.counts_known = false;  // e.g. recovered from an older MANIFEST
  edit.AddFile(2, f);
  ExpectRoundTrip(edit);
  VersionEdit parsed;
  ASSERT_TRUE(parsed.DecodeFrom(Encode(edit)).ok());
  ASSERT_EQ(2u, parsed.new_files().size());
  const FileMetaData& known = parsed.new_files()[0].second;
  EXPECT_TRUE(known.counts_known);
  EXPECT_EQ(120u, known.num_entries);
  EXPECT_EQ(7u, known.num_deletions);
  EXPECT_EQ(2u, known.num_range_deletions);
  EXPECT_FALSE(parsed.new_files()[1].second.counts_known);

  // Counts naming a file the edit does not add are ignored; damaged ones
  // are Corruption.
  std::string counts;
  PutVarint64(&counts, 77);
  PutVarint64(&counts, 1);
  PutVarint64(&counts, 0);
  PutVarint64(&counts, 0);
  std::string bytes = Encode(edit);
  PutVarint32(&bytes, 0x2007);
  PutLengthPrefixedSlice(&bytes, counts);
  ASSERT_TRUE(parsed.DecodeFrom(bytes).ok());
  EXPECT_FALSE(parsed.new_files()[1].second.counts_known);
  bytes = Encode(edit);
  PutVarint32(&bytes, 0x2007);
  PutLengthPrefixedSlice(&bytes, counts.substr(0, 2));
  Status s = parsed.DecodeFrom(bytes);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("new file counts"));
}

TEST(VersionEditTest, ClearAndDebugString) {
  VersionEdit edit;
  edit.SetComparatorName("cmp");
  edit.SetLogNumber(1);
  edit.AddFile(2, 7, 10, Key("a", 1), Key("b", 2), 1, 2);
  edit.RemoveFile(3, 8);
  const std::string debug = edit.DebugString();
  EXPECT_NE(std::string::npos, debug.find("Comparator: cmp"));
  EXPECT_NE(std::string::npos, debug.find("AddFile: L2 #7"));
  EXPECT_NE(std::string::npos, debug.find("DeleteFile: L3 #8"));
  edit.Clear();
  EXPECT_EQ("", Encode(edit));
  EXPECT_TRUE(edit.new_files().empty());
}

// Every edit of a group survives, an empty one (no field set) included:
// the group's encoding then ends with the tag that starts the next edit,
// or holds nothing but that tag.
TEST(VersionEditTest, GroupKeepsItsEmptyEdits) {
  VersionEdit full, empty;
  full.SetLogNumber(5);
  full.AddFile(1, 9, 100, Key("a", 1), Key("b", 2), 1, 2);
  const std::vector<std::vector<const VersionEdit*>> groups = {
      {&full, &empty},
      {&empty, &empty},
      {&empty, &full},
      {&full, &empty, &full},
      {&empty}};
  for (const auto& group : groups) {
    std::string record;
    VersionEdit::EncodeGroup(group, &record);
    std::vector<VersionEdit> decoded;
    Status s = VersionEdit::DecodeGroup(record, &decoded);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(group.size(), decoded.size());
    for (size_t i = 0; i < group.size(); i++) {
      EXPECT_EQ(Encode(*group[i]), Encode(decoded[i])) << i;
    }
  }
}

// A record ending with the next-edit tag is a group of two edits, which
// DecodeFrom (one edit) refuses.
TEST(VersionEditTest, TrailingNextEditTagIsAGroup) {
  VersionEdit full, empty;
  full.SetNextFile(12);
  std::string record;
  VersionEdit::EncodeGroup({&full, &empty}, &record);
  VersionEdit edit;
  EXPECT_TRUE(edit.DecodeFrom(record).IsCorruption());
  EXPECT_EQ("", Encode(edit));
}

}  // namespace
}  // namespace strata
