#include "table/block_based_table_builder.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <string>

#include "db/dbformat.h"
#include "env/file_writer.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "table/compression.h"

namespace strata {

BlockBasedTableBuilder::BlockBasedTableBuilder(
    const BlockBasedTableOptions& table_options,
    const TableBuilderOptions& options, WritableFileWriter* file)
    : table_options_(table_options),
      options_(options),
      file_(file),
      data_block_(std::max(table_options.block_restart_interval, 1)),
      index_block_(std::max(table_options.index_block_restart_interval, 1)),
      user_key_index_block_(
          std::max(table_options.index_block_restart_interval, 1)) {
  if (!CompressionSupported(options.compression)) {
    status_ = Status::NotSupported(
        std::string("compression ") + CompressionTypeName(options.compression) +
        " (type " + std::to_string(static_cast<unsigned>(options.compression)) +
        ") is not built into this strata");
  }
  if (table_options_.filter_policy != nullptr) {
    filter_.reset(new FullFilterBlockBuilder(
        table_options_.filter_policy.get(), options.prefix_extractor,
        table_options_.whole_key_filtering));
  }
  props_.creation_time = options.creation_time;
  props_.format_version = kBlockBasedTableFormatVersion;
  props_.comparator_name = options.icmp->Name();
  props_.compression_name = CompressionTypeName(options.compression);
  props_.column_family_id = options.column_family_id;
  props_.column_family_name = options.column_family_name;
  props_.external_sst_file_version = options.external_sst_file_version;
}

BlockBasedTableBuilder::~BlockBasedTableBuilder() {
  assert(closed_);  // REQUIRES: Finish() or Abandon()
}

void BlockBasedTableBuilder::Add(const Slice& key, const Slice& value) {
  assert(!closed_);
  if (!status_.ok()) return;
  if (key.size() < kInternalKeyTrailerSize) {
    status_ = Status::InvalidArgument(
        "table key shorter than an internal key trailer");
    return;
  }
  const uint64_t trailer = ExtractTrailer(key);
  const SequenceNumber seq = trailer >> 8;
  const ValueType type = static_cast<ValueType>(trailer & 0xff);
  if (type == kTypeRangeDeletion) {
    // Kept aside, in any order; sorted into their own block by Finish.
    range_dels_.emplace_back(key.ToString(), value.ToString());
  } else {
    assert(num_point_entries_ == 0 ||
           options_.icmp->Compare(key, last_key_) > 0);
    if (pending_index_entry_) AddIndexEntry(&key);
    if (filter_ != nullptr) filter_->Add(ExtractUserKey(key));
    last_key_.assign(key.data(), key.size());
    data_block_.Add(key, value);
    num_point_entries_++;
  }

  switch (type) {
    case kTypeDeletion:
    case kTypeSingleDeletion:
      props_.num_deletions++;
      break;
    case kTypeRangeDeletion:
      props_.num_range_deletions++;
      break;
    case kTypeMerge:
      props_.num_merge_operands++;
      break;
    default:
      break;
  }
  if (props_.num_entries == 0) {
    props_.smallest_seqno = props_.largest_seqno = seq;
  } else {
    props_.smallest_seqno = std::min(props_.smallest_seqno, seq);
    props_.largest_seqno = std::max(props_.largest_seqno, seq);
  }
  props_.num_entries++;
  props_.raw_key_size += key.size();
  props_.raw_value_size += value.size();

  if (type != kTypeRangeDeletion &&
      data_block_.CurrentSizeEstimate() >= table_options_.block_size) {
    FlushDataBlock();
  }
}

void BlockBasedTableBuilder::WriteRangeDelBlock(BlockHandle* handle) {
  const InternalKeyComparator* icmp = options_.icmp;
  std::sort(range_dels_.begin(), range_dels_.end(),
            [icmp](const auto& a, const auto& b) {
              return icmp->Compare(a.first, b.first) < 0;
            });
  // Restart interval 1: every begin key stored whole; the block is
  // small and read whole anyway.
  BlockBuilder block(1);
  for (size_t i = 0; i < range_dels_.size(); i++) {
    if (i > 0 &&
        icmp->Compare(range_dels_[i - 1].first, range_dels_[i].first) == 0) {
      // One write has one sequence: two tombstones with the same begin
      // and sequence are a caller's bug, and a block needs distinct keys.
      status_ = Status::InvalidArgument(
          "two range tombstones with the same begin key and sequence");
      return;
    }
    block.Add(range_dels_[i].first, range_dels_[i].second);
  }
  WriteRawBlock(block.Finish(), kNoCompression, handle);
}

void BlockBasedTableBuilder::FlushDataBlock() {
  if (data_block_.empty() || !status_.ok()) return;
  assert(!pending_index_entry_);
  WriteBlock(data_block_.Finish(), options_.compression, &pending_handle_);
  data_block_.Reset();
  if (!status_.ok()) return;
  pending_index_entry_ = true;
  props_.num_data_blocks++;
  props_.data_size += pending_handle_.size() + kBlockTrailerSize;
}

void BlockBasedTableBuilder::AddIndexEntry(const Slice* next_key) {
  // Any key k with last <= k < next separates the blocks; the shortest
  // keeps the index small. The separator of the last block only needs
  // to be >= every key of the table.
  std::string separator = last_key_;
  if (next_key != nullptr) {
    options_.icmp->FindShortestSeparator(&separator, *next_key);
  } else {
    options_.icmp->FindShortSuccessor(&separator);
  }
  std::string handle_encoding;
  pending_handle_.EncodeTo(&handle_encoding);
  index_block_.Add(separator, handle_encoding);
  if (user_key_index_) AddUserKeyIndexEntry(next_key, handle_encoding);
  pending_index_entry_ = false;
}

void BlockBasedTableBuilder::AddUserKeyIndexEntry(const Slice* next_key,
                                                  const Slice& handle) {
  const Comparator* ucmp = options_.icmp->user_comparator();
  const Slice last = ExtractUserKey(last_key_);
  std::string separator(last.data(), last.size());
  if (next_key != nullptr) {
    const Slice next = ExtractUserKey(*next_key);
    if (ucmp->Compare(last, next) >= 0) {
      // Versions of one user key on both sides: a user key cannot tell
      // the blocks apart.
      user_key_index_ = false;
      user_key_index_block_.Reset();
      return;
    }
    ucmp->FindShortestSeparator(&separator, next);
    // A comparator's shortening is trusted only where it stays between.
    if (ucmp->Compare(separator, last) < 0 ||
        ucmp->Compare(separator, next) >= 0) {
      separator.assign(last.data(), last.size());
    }
  } else {
    ucmp->FindShortSuccessor(&separator);
    if (ucmp->Compare(separator, last) < 0) {
      separator.assign(last.data(), last.size());
    }
  }
  user_key_index_block_.Add(separator, handle);
}

void BlockBasedTableBuilder::WriteBlock(const Slice& contents,
                                        CompressionType compression,
                                        BlockHandle* handle) {
  if (compression != kNoCompression) {
    Status s = CompressBlock(compression, contents, &compressed_);
    if (!s.ok()) {
      status_ = s;
      return;
    }
    if (GoodCompressionRatio(compressed_.size(), contents.size())) {
      WriteRawBlock(compressed_, compression, handle);
      return;
    }
  }
  WriteRawBlock(contents, kNoCompression, handle);
}

void BlockBasedTableBuilder::WriteRawBlock(const Slice& stored,
                                           CompressionType type,
                                           BlockHandle* handle) {
  handle->set_offset(offset_);
  handle->set_size(stored.size());
  char trailer[kBlockTrailerSize];
  trailer[0] = static_cast<char>(type);
  EncodeFixed32(trailer + 1,
                ComputeBlockChecksum(stored.data(), stored.size(), trailer[0]));
  Status s = file_->Append(stored);
  if (s.ok()) s = file_->Append(Slice(trailer, kBlockTrailerSize));
  if (!s.ok()) {
    status_ = s;
    return;
  }
  offset_ += stored.size() + kBlockTrailerSize;
}

Status BlockBasedTableBuilder::Finish() {
  assert(!closed_);
  FlushDataBlock();
  closed_ = true;
  if (!status_.ok()) return status_;
  if (pending_index_entry_) AddIndexEntry(nullptr);

  // The filter, when it has anything in it.
  BlockBuilder metaindex(1);
  std::string filter_meta_key;
  BlockHandle filter_handle;
  if (filter_ != nullptr && !filter_->empty()) {
    const Slice filter = filter_->Finish();
    if (!filter.empty()) {
      WriteRawBlock(filter, kNoCompression, &filter_handle);
      if (!status_.ok()) return status_;
      const FilterPolicy* policy = table_options_.filter_policy.get();
      filter_meta_key = kFilterBlockPrefix;
      filter_meta_key += policy->Name();
      props_.filter_size = filter.size() + kBlockTrailerSize;
      props_.filter_policy_name = policy->Name();
      props_.whole_key_filtering = table_options_.whole_key_filtering ? 1 : 0;
      if (options_.prefix_extractor != nullptr) {
        props_.prefix_extractor_name = options_.prefix_extractor->Name();
      }
    }
  }

  BlockHandle range_del_handle;
  if (!range_dels_.empty()) {
    WriteRangeDelBlock(&range_del_handle);
    if (!status_.ok()) return status_;
  }

  // The index is complete now; its size goes in the properties, which
  // are written before it.
  Footer footer;
  if (user_key_index_) footer.format_version = kUserKeyIndexFormatVersion;
  props_.format_version = footer.format_version;
  const Slice index =
      user_key_index_ ? user_key_index_block_.Finish() : index_block_.Finish();
  props_.index_size = index.size() + kBlockTrailerSize;

  std::string properties;
  EncodeTableProperties(props_, &properties);
  BlockHandle properties_handle;
  WriteRawBlock(properties, kNoCompression, &properties_handle);
  if (!status_.ok()) return status_;

  // Metaindex entries in bytewise order: "strata.filter." sorts before
  // "strata.properties", which sorts before "strata.range_del".
  std::string encoding;
  if (!filter_meta_key.empty()) {
    filter_handle.EncodeTo(&encoding);
    metaindex.Add(filter_meta_key, encoding);
  }
  encoding.clear();
  properties_handle.EncodeTo(&encoding);
  metaindex.Add(kPropertiesBlockName, encoding);
  if (!range_dels_.empty()) {
    encoding.clear();
    range_del_handle.EncodeTo(&encoding);
    metaindex.Add(kRangeDelBlockName, encoding);
  }

  WriteRawBlock(metaindex.Finish(), kNoCompression, &footer.metaindex_handle);
  if (!status_.ok()) return status_;
  WriteRawBlock(index, kNoCompression, &footer.index_handle);
  if (!status_.ok()) return status_;

  std::string footer_encoding;
  footer.EncodeTo(&footer_encoding);
  status_ = file_->Append(footer_encoding);
  if (status_.ok()) offset_ += footer_encoding.size();
  return status_;
}

void BlockBasedTableBuilder::Abandon() {
  assert(!closed_);
  closed_ = true;
}

}  // namespace strata
