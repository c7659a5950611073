// CompactionFilter: an application hook that sees the entries a compaction
// rewrites and may drop them, replace their values, or drop a whole key
// range, so that data the application no longer wants (expired, garbage)
// goes away as the LSM tree rewrites it, without a Delete per key.
//
// Shaped as RocksDB 7.8's, so filters written for it compile here. Set
// either ColumnFamilyOptions::compaction_filter (one filter shared by
// every compaction of the family) or compaction_filter_factory (a fresh
// filter per compaction, told what the compaction is); the first wins when
// both are set.
//
// Which entries a filter sees (docs/compaction.md, "Compaction filters"):
// only the newest version of a key that no live snapshot can see; an
// entry a snapshot reads is never offered to it, so reads at that snapshot
// are not changed by a filter. Merge operands go to FilterMergeOperand
// under the same rule. Deletions are never offered.
//
// Thread safety: a filter set in compaction_filter is called from several
// compactions at once and must be safe for that; a filter a factory
// creates is used by one compaction (one thread) only. Filters must not
// call back into the DB.

#ifndef STRATA_INCLUDE_COMPACTION_FILTER_H_
#define STRATA_INCLUDE_COMPACTION_FILTER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/listener.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT CompactionFilter {
 public:
  // What kind of entry FilterV2 is shown.
  enum ValueType {
    kValue,
    kMergeOperand,
    kBlobIndex,  // RocksDB's BlobDB; strata never passes it
  };

  // FilterV2's answer.
  enum class Decision {
    kKeep,
    // The entry becomes a deletion: the key reads as absent from here on
    // (older versions a snapshot holds stay for that snapshot).
    kRemove,
    // *new_value replaces the value.
    kChangeValue,
    // Drops this entry and every filterable entry of the keys up to
    // *skip_until (exclusive) without leaving deletions, so older
    // versions below this compaction may show again. A skip_until not
    // after the key is taken as kKeep.
    kRemoveAndSkipUntil,
    // The rest are RocksDB's internal decisions; a filter returning one
    // fails the compaction with NotSupported.
    kChangeBlobIndex,
    kIOError,
    kPurge,
    kUndetermined,
  };

  // What a compaction filter factory is told about the compaction it
  // creates a filter for.
  struct Context {
    // The compaction reads every table file of the column family.
    bool is_full_compaction;
    // Started by CompactRange or CompactFiles, not by the DB itself.
    bool is_manual_compaction;
    uint32_t column_family_id;
    // kCompaction, or kFlush when the factory asked to filter flushes.
    TableFileCreationReason reason;
  };

  virtual ~CompactionFilter() {}

  // Decides one value of key (a user key) found at level (0 for a flush).
  // Return true to remove it; or set *new_value and *value_changed to
  // replace it. The default keeps every value.
  virtual bool Filter(int /*level*/, const Slice& /*key*/,
                      const Slice& /*existing_value*/,
                      std::string* /*new_value*/,
                      bool* /*value_changed*/) const {
    return false;
  }

  // Decides one merge operand: true drops it. The default keeps it.
  virtual bool FilterMergeOperand(int /*level*/, const Slice& /*key*/,
                                  const Slice& /*operand*/) const {
    return false;
  }

  // The general form, which the DB calls. The default answers through
  // Filter (values) and FilterMergeOperand (operands). For a merge
  // operand only kKeep and kRemove are allowed.
  virtual Decision FilterV2(int level, const Slice& key, ValueType value_type,
                            const Slice& existing_value, std::string* new_value,
                            std::string* /*skip_until*/) const {
    if (value_type == kMergeOperand) {
      return FilterMergeOperand(level, key, existing_value) ? Decision::kRemove
                                                            : Decision::kKeep;
    }
    if (value_type != kValue) return Decision::kKeep;
    bool value_changed = false;
    if (Filter(level, key, existing_value, new_value, &value_changed)) {
      return Decision::kRemove;
    }
    return value_changed ? Decision::kChangeValue : Decision::kKeep;
  }

  // RocksDB 7.8 no longer keeps the filter away from snapshots on
  // request: a filter returning false here fails every compaction it
  // would run in with NotSupported. strata's own rule keeps every entry a
  // snapshot can see away from the filter regardless.
  virtual bool IgnoreSnapshots() const { return true; }

  // Recorded in the OPTIONS file.
  virtual const char* Name() const = 0;

  // Whether a filter set in compaction_filter filters the table files
  // created for reason (a factory's filters: the factory's
  // ShouldFilterTableFileCreation). The default: compactions only.
  virtual bool FilterTableFileCreation(TableFileCreationReason reason) const {
    return reason == TableFileCreationReason::kCompaction;
  }
};

// Makes a filter for each compaction (and each flush it asks for).
//
// Thread safety: called from several background threads at once.
class STRATA_EXPORT CompactionFilterFactory {
 public:
  virtual ~CompactionFilterFactory() {}

  // Whether table files created for reason get a filter. The default:
  // compactions only.
  virtual bool ShouldFilterTableFileCreation(
      TableFileCreationReason reason) const {
    return reason == TableFileCreationReason::kCompaction;
  }

  // The filter for one compaction or flush; null filters nothing.
  virtual std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context& context) = 0;

  // Recorded in the OPTIONS file.
  virtual const char* Name() const = 0;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_COMPACTION_FILTER_H_
