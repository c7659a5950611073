// --show_properties: a table's properties under RocksDB sst_dump's names.
// Only what strata records is printed (no column family, merge operator
// or collectors: strata's tables do not hold them); strata's own
// properties (sequence numbers, format version, whole-key filtering)
// follow under names of the same style.

#include <cinttypes>
#include <cstdio>

#include "tools/sst_dump/commands.h"

namespace strata {
namespace sst_dump {

namespace {

void Line(std::string* out, const char* name, uint64_t value) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "  %s: %" PRIu64 "\n", name, value);
  out->append(buf);
}

void Line(std::string* out, const char* name, const std::string& value) {
  out->append("  ").append(name).append(": ").append(value).append("\n");
}

void Average(std::string* out, const char* name, uint64_t total,
             uint64_t count) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "  %s: %f\n", name,
                count == 0 ? 0.0 : static_cast<double>(total) / count);
  out->append(buf);
}

}  // namespace

std::string FormatProperties(const TableProperties& p, int rule_width) {
  std::string out = "Table Properties:\n";
  out.append(static_cast<size_t>(rule_width), '-').append("\n");
  Line(&out, "# data blocks", p.num_data_blocks);
  Line(&out, "# entries", p.num_entries);
  Line(&out, "# deletions", p.num_deletions);
  Line(&out, "# merge operands", p.num_merge_operands);
  Line(&out, "# range deletions", p.num_range_deletions);
  Line(&out, "raw key size", p.raw_key_size);
  Average(&out, "raw average key size", p.raw_key_size, p.num_entries);
  Line(&out, "raw value size", p.raw_value_size);
  Average(&out, "raw average value size", p.raw_value_size, p.num_entries);
  Line(&out, "data block size", p.data_size);
  // strata's index keys are internal keys and its values whole handles.
  Line(&out, "index block size (user-key? 0, delta-value? 0)", p.index_size);
  Line(&out, "filter block size", p.filter_size);
  Line(&out, "(estimated) table size",
       p.data_size + p.index_size + p.filter_size);
  Line(&out, "filter policy name",
       p.filter_policy_name.empty() ? "N/A" : p.filter_policy_name);
  Line(&out, "prefix extractor name",
       p.prefix_extractor_name.empty() ? "nullptr" : p.prefix_extractor_name);
  Line(&out, "comparator name", p.comparator_name);
  Line(&out, "SST file compression algo", p.compression_name);
  Line(&out, "creation time", p.creation_time);
  Line(&out, "format version", p.format_version);
  Line(&out, "smallest seqno", p.smallest_seqno);
  Line(&out, "largest seqno", p.largest_seqno);
  Line(&out, "whole key filtering", p.whole_key_filtering);
  return out;
}

}  // namespace sst_dump
}  // namespace strata
