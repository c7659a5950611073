// --show_properties: a table's properties under RocksDB sst_dump's names.
// Only what strata records is printed (no merge operator or collectors:
// strata's tables do not hold them); strata's own
// properties (sequence numbers, format version, whole-key filtering)
// follow under names of the same style.

#include <cinttypes>
#include <cstdio>

#include "tools/sst_dump/commands.h"

namespace strata {
namespace sst_dump {

namespace {

// Lines of one style: sst_dump's "  name: value" or ldb's "name=value".
class Lines {
 public:
  Lines(std::string* out, bool name_equals_value)
      : out_(out), equals_(name_equals_value) {}

  void Add(const char* name, const std::string& value) {
    out_->append(equals_ ? "" : "  ").append(name);
    out_->append(equals_ ? "=" : ": ").append(value).append("\n");
  }
  void Add(const char* name, uint64_t value) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%" PRIu64, value);
    Add(name, std::string(buf));
  }
  void Average(const char* name, uint64_t total, uint64_t count) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%f",
                  count == 0 ? 0.0 : static_cast<double>(total) / count);
    Add(name, std::string(buf));
  }

 private:
  std::string* const out_;
  const bool equals_;
};

}  // namespace

std::string FormatProperties(const TableProperties& p, int rule_width,
                             bool name_equals_value) {
  std::string out = "Table Properties:\n";
  if (rule_width > 0) {
    out.append(static_cast<size_t>(rule_width), '-').append("\n");
  }
  Lines lines(&out, name_equals_value);
  lines.Add("# data blocks", p.num_data_blocks);
  lines.Add("# entries", p.num_entries);
  lines.Add("# deletions", p.num_deletions);
  lines.Add("# merge operands", p.num_merge_operands);
  lines.Add("# range deletions", p.num_range_deletions);
  lines.Add("raw key size", p.raw_key_size);
  lines.Average("raw average key size", p.raw_key_size, p.num_entries);
  lines.Add("raw value size", p.raw_value_size);
  lines.Average("raw average value size", p.raw_value_size, p.num_entries);
  lines.Add("data block size", p.data_size);
  // strata's index keys are user keys from format version 2 on; its
  // values are whole handles.
  lines.Add(p.format_version >= kUserKeyIndexFormatVersion
                ? "index block size (user-key? 1, delta-value? 0)"
                : "index block size (user-key? 0, delta-value? 0)",
            p.index_size);
  lines.Add("filter block size", p.filter_size);
  lines.Add("(estimated) table size",
            p.data_size + p.index_size + p.filter_size);
  lines.Add("filter policy name",
            p.filter_policy_name.empty() ? "N/A" : p.filter_policy_name);
  lines.Add("prefix extractor name", p.prefix_extractor_name.empty()
                                         ? "nullptr"
                                         : p.prefix_extractor_name);
  if (p.column_family_id == kUnknownColumnFamilyId) {
    lines.Add("column family ID", "N/A");
  } else {
    lines.Add("column family ID", p.column_family_id);
  }
  lines.Add("column family name", p.column_family_name);
  lines.Add("comparator name", p.comparator_name);
  lines.Add("SST file compression algo", p.compression_name);
  lines.Add("creation time", p.creation_time);
  lines.Add("format version", p.format_version);
  lines.Add("smallest seqno", p.smallest_seqno);
  lines.Add("largest seqno", p.largest_seqno);
  lines.Add("whole key filtering", p.whole_key_filtering);
  return out;
}

}  // namespace sst_dump
}  // namespace strata
