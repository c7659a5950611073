// The properties block (docs/formats/table.md, "Properties") is a block
// built by BlockBuilder, restart interval 1, bytewise-sorted names:
//
//   name ("strata.num.entries", ...) -> varint64 number | string as is
//
// One table of descriptors below names every field once, for encoding,
// decoding and ToString alike.

#include "table/table_properties.h"

#include <map>
#include <memory>
#include <string>

#include "strata/comparator.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "util/coding.h"

namespace strata {

namespace {

struct NumberProperty {
  const char* name;
  uint64_t TableProperties::*field;
};

struct StringProperty {
  const char* name;
  std::string TableProperties::*field;
};

constexpr NumberProperty kNumberProperties[] = {
    {"strata.num.entries", &TableProperties::num_entries},
    {"strata.num.deletions", &TableProperties::num_deletions},
    {"strata.num.range-deletions", &TableProperties::num_range_deletions},
    {"strata.num.merge-operands", &TableProperties::num_merge_operands},
    {"strata.num.data-blocks", &TableProperties::num_data_blocks},
    {"strata.raw.key.size", &TableProperties::raw_key_size},
    {"strata.raw.value.size", &TableProperties::raw_value_size},
    {"strata.data.size", &TableProperties::data_size},
    {"strata.index.size", &TableProperties::index_size},
    {"strata.filter.size", &TableProperties::filter_size},
    {"strata.creation.time", &TableProperties::creation_time},
    {"strata.smallest.seqno", &TableProperties::smallest_seqno},
    {"strata.largest.seqno", &TableProperties::largest_seqno},
    {"strata.format.version", &TableProperties::format_version},
    {"strata.whole.key.filtering", &TableProperties::whole_key_filtering},
    {"strata.column.family.id", &TableProperties::column_family_id},
    {"strata.external.sst.file.version",
     &TableProperties::external_sst_file_version},
};

constexpr StringProperty kStringProperties[] = {
    {"strata.comparator", &TableProperties::comparator_name},
    {"strata.compression", &TableProperties::compression_name},
    {"strata.filter.policy", &TableProperties::filter_policy_name},
    {"strata.prefix.extractor", &TableProperties::prefix_extractor_name},
    {"strata.column.family.name", &TableProperties::column_family_name},
};

}  // namespace

std::string TableProperties::ToString() const {
  std::string out;
  for (const NumberProperty& p : kNumberProperties) {
    if (!out.empty()) out += "; ";
    out += p.name;
    out += '=';
    out += std::to_string(this->*p.field);
  }
  for (const StringProperty& p : kStringProperties) {
    out += "; ";
    out += p.name;
    out += '=';
    out += this->*p.field;
  }
  return out;
}

void EncodeTableProperties(const TableProperties& props, std::string* out) {
  // A block needs its keys sorted.
  std::map<std::string, std::string> sorted;
  for (const NumberProperty& p : kNumberProperties) {
    // Tables the DB writes stay as they were before external files.
    if (p.field == &TableProperties::external_sst_file_version &&
        props.external_sst_file_version == 0) {
      continue;
    }
    std::string value;
    PutVarint64(&value, props.*p.field);
    sorted[p.name] = std::move(value);
  }
  for (const StringProperty& p : kStringProperties) {
    sorted[p.name] = props.*p.field;
  }
  BlockBuilder builder(1);
  for (const auto& entry : sorted) builder.Add(entry.first, entry.second);
  const Slice block = builder.Finish();
  out->assign(block.data(), block.size());
}

Status DecodeTableProperties(const Slice& contents, TableProperties* props) {
  Block block{BlockContents(contents)};
  if (!block.status().ok()) return block.status();
  std::unique_ptr<InternalIterator> iter(
      block.NewIterator(BytewiseComparator()));
  TableProperties result;
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    const Slice name = iter->key();
    const Slice value = iter->value();
    bool known = false;
    for (const NumberProperty& p : kNumberProperties) {
      if (name != Slice(p.name)) continue;
      Slice in = value;
      uint64_t number;
      if (!GetVarint64(&in, &number) || !in.empty()) {
        return Status::Corruption("properties block",
                                  "malformed number of " + name.ToString());
      }
      result.*p.field = number;
      known = true;
      break;
    }
    if (known) continue;
    for (const StringProperty& p : kStringProperties) {
      if (name == Slice(p.name)) {
        result.*p.field = value.ToString();
        break;
      }
    }
    // Anything else: a property a newer writer added; ignored.
  }
  if (!iter->status().ok()) return iter->status();
  *props = std::move(result);
  return Status::OK();
}

}  // namespace strata
