// scan, check and verify: reading a table's entries and blocks.

#include <cinttypes>
#include <cstdio>

#include "db/dbformat.h"
#include "table/block.h"
#include "tools/sst_dump/commands.h"

namespace strata {
namespace sst_dump {

namespace {

// Walks entries in key order, keeping those in [from, to) and stopping
// after read_num of them.
class EntryWalk {
 public:
  EntryWalk(const TableFile& table, const Flags& flags, bool print)
      : table_(table), flags_(flags), print_(print) {}

  // Hands over one block's entries. Returns false to stop the walk.
  Status Block(BlockKind kind, const BlockHandle& handle, size_t number,
               bool verify, uint64_t* count) {
    Status bad;
    Status s = table_.ForEachEntry(
        kind, handle, number, verify,
        [&](const Slice& key, const Slice& value) {
          ParsedInternalKey ikey;
          if (!ParseInternalKey(key, &ikey).ok() ||
              !TypeFits(kind, ikey.type)) {
            bad = Status::Corruption(
                TableFile::Where(kind, handle, number),
                "entry " + std::to_string(*count + 1) +
                    " has no valid internal key: " + ToHex(key));
            return false;
          }
          if (flags_.has_from && Compare(ikey.user_key, flags_.from) < 0) {
            return true;
          }
          if (flags_.has_to && Compare(ikey.user_key, flags_.to) >= 0) {
            done_ = true;
            return false;
          }
          if (flags_.read_num > 0 && read_ >= flags_.read_num) {
            done_ = true;
            return false;
          }
          read_++;
          (*count)++;
          if (print_) Print(ikey, value);
          return true;
        });
    return s.ok() ? bad : s;
  }

  bool done() const { return done_; }
  void Restart() { done_ = false; }
  // Whether no key of a block whose index separator is sep can be at or
  // after --from (the separator is >= every key of its block).
  bool BlockBeforeFrom(const Slice& sep) const {
    return flags_.has_from && sep.size() >= kInternalKeyTrailerSize &&
           Compare(ExtractUserKey(sep), flags_.from) < 0;
  }

 private:
  static bool TypeFits(BlockKind kind, ValueType type) {
    if (kind == BlockKind::kRangeDel) return type == kTypeRangeDeletion;
    return type == kTypeValue || type == kTypeDeletion || type == kTypeMerge ||
           type == kTypeSingleDeletion;
  }
  int Compare(const Slice& a, const Slice& b) const {
    return table_.user_comparator()->Compare(a, b);
  }
  void Print(const ParsedInternalKey& ikey, const Slice& value) const {
    const std::string k =
        flags_.output_hex ? ToHex(ikey.user_key) : ikey.user_key.ToString();
    const std::string v = flags_.output_hex ? ToHex(value) : value.ToString();
    // Whole bytes, NULs included (printf's %s would stop at one).
    char trailer[64];
    std::snprintf(trailer, sizeof(trailer), "' seq:%" PRIu64 ", type:%d => ",
                  ikey.sequence, static_cast<int>(ikey.type));
    const std::string line = "'" + k + trailer + v + "\n";
    std::fwrite(line.data(), 1, line.size(), stdout);
  }

  const TableFile& table_;
  const Flags& flags_;
  const bool print_;
  uint64_t read_ = 0;
  bool done_ = false;
};

}  // namespace

std::string ToHex(const Slice& bytes) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (size_t i = 0; i < bytes.size(); i++) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

Status ScanTable(const TableFile& table, const Flags& flags, bool print,
                 bool verify_checksum, ScanCounts* counts) {
  *counts = ScanCounts();
  if ((flags.has_from || flags.has_to) && table.user_comparator() == nullptr) {
    return Status::NotSupported(
        table.path() +
        ": --from/--to need the table's comparator, unknown "
        "to sst_dump: " +
        table.properties().comparator_name);
  }
  EntryWalk walk(table, flags, print);
  const auto& blocks = table.data_blocks();
  for (size_t i = 0; i < blocks.size() && !walk.done(); i++) {
    if (walk.BlockBeforeFrom(blocks[i].name)) continue;
    Status s = walk.Block(BlockKind::kData, blocks[i].handle, i + 1,
                          verify_checksum, &counts->entries);
    if (!s.ok()) return s;
  }
  // Range tombstones live apart from the point entries; they follow them.
  const BlockHandle* range_dels = table.range_del_handle();
  walk.Restart();
  if (range_dels != nullptr) {
    Status s = walk.Block(BlockKind::kRangeDel, *range_dels, 0,
                          /*verify=*/true, &counts->range_deletions);
    if (!s.ok()) return s;
  }
  const bool whole = !flags.has_from && !flags.has_to && flags.read_num == 0;
  const TableProperties& p = table.properties();
  if (whole && (counts->entries + counts->range_deletions != p.num_entries ||
                counts->range_deletions != p.num_range_deletions)) {
    return Status::Corruption(
        table.path(),
        "table properties say " + std::to_string(p.num_entries) +
            " entries and " + std::to_string(p.num_range_deletions) +
            " range deletions, the blocks hold " +
            std::to_string(counts->entries + counts->range_deletions) +
            " and " + std::to_string(counts->range_deletions));
  }
  return Status::OK();
}

Status VerifyTable(const TableFile& table) {
  // Every block in the format of block.h, then the filter (its own
  // format: only the checksum says it is intact).
  const auto check = [&](BlockKind kind, const BlockHandle& h, size_t n) {
    return table.ForEachEntry(kind, h, n, /*verify_checksum=*/true,
                              [](const Slice&, const Slice&) { return true; });
  };
  const auto& blocks = table.data_blocks();
  for (size_t i = 0; i < blocks.size(); i++) {
    Status s = check(BlockKind::kData, blocks[i].handle, i + 1);
    if (!s.ok()) return s;
  }
  Status s = check(BlockKind::kIndex, table.footer().index_handle, 0);
  if (s.ok())
    s = check(BlockKind::kMetaindex, table.footer().metaindex_handle, 0);
  for (const NamedHandle& e : table.metaindex()) {
    if (!s.ok()) break;
    if (e.name == kPropertiesBlockName) {
      s = check(BlockKind::kProperties, e.handle, 0);
    } else if (e.name == kRangeDelBlockName) {
      s = check(BlockKind::kRangeDel, e.handle, 0);
    } else if (Slice(e.name).starts_with(kFilterBlockPrefix)) {
      BlockContents contents;
      s = table.ReadBlock(BlockKind::kFilter, e.handle, 0, true, &contents);
    }
  }
  return s;
}

}  // namespace sst_dump
}  // namespace strata
