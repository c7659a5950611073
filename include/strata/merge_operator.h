// MergeOperator: read-modify-write without a read (DB::Merge). A Merge
// stores an operand; reads and compactions combine the operands of a key
// with its older value through Options::merge_operator.
//
// Shaped as RocksDB's, so operators written for it compile here:
// implement FullMergeV2 (all operands over an existing value or none), and
// optionally PartialMerge / PartialMergeMulti (operands combined without
// the value, which lets compaction shrink operand chains). Or derive from
// AssociativeMergeOperator when merging is one associative step.
//
// A merge that returns false is an error: the read or compaction that
// needed it fails with Corruption.
//
// Thread safety: an operator is shared by every thread of the DB; its
// methods must be safe to call at once.

#ifndef STRATA_INCLUDE_MERGE_OPERATOR_H_
#define STRATA_INCLUDE_MERGE_OPERATOR_H_

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class Logger;

class STRATA_EXPORT MergeOperator {
 public:
  virtual ~MergeOperator();

  struct MergeOperationInput {
    MergeOperationInput(const Slice& k, const Slice* existing,
                        const std::vector<Slice>& operands, Logger* log)
        : key(k),
          existing_value(existing),
          operand_list(operands),
          logger(log) {}
    // The user key.
    const Slice& key;
    // The value the operands apply to; null if the key had none (never
    // written, or deleted).
    const Slice* existing_value;
    // The operands, oldest first.
    const std::vector<Slice>& operand_list;
    Logger* logger;
  };

  struct MergeOperationOutput {
    MergeOperationOutput(std::string& value, Slice& operand)
        : new_value(value), existing_operand(operand) {}
    // The result goes here...
    std::string& new_value;
    // ...or, if it equals existing_value or one of the operands, point
    // this at it instead (saves a copy).
    Slice& existing_operand;
  };

  // The legacy full merge: operands in a deque, front() oldest. Called by
  // the default FullMergeV2; override one of the two.
  virtual bool FullMerge(const Slice& key, const Slice* existing_value,
                         const std::deque<std::string>& operand_list,
                         std::string* new_value, Logger* logger) const;

  virtual bool FullMergeV2(const MergeOperationInput& merge_in,
                           MergeOperationOutput* merge_out) const;

  // Combines two operands (left older) into one, or returns false if it
  // cannot without the base value (the default).
  virtual bool PartialMerge(const Slice& key, const Slice& left_operand,
                            const Slice& right_operand, std::string* new_value,
                            Logger* logger) const;

  // Combines operands (front() oldest) into one; by default PartialMerge
  // pairwise, false if any step is false.
  virtual bool PartialMergeMulti(const Slice& key,
                                 const std::deque<Slice>& operand_list,
                                 std::string* new_value, Logger* logger) const;

  // Recorded nowhere on disk, but reads and compaction assume the operator
  // a DB was written with; keep it stable.
  virtual const char* Name() const = 0;

  // Whether FullMergeV2 may be called with no existing value and a single
  // operand as PartialMerge would be (RocksDB's hint; default false).
  virtual bool AllowSingleOperand() const { return false; }
};

// An operator whose merge is one associative step: merging operand b into
// a (existing value or earlier operand) gives the new value.
class STRATA_EXPORT AssociativeMergeOperator : public MergeOperator {
 public:
  ~AssociativeMergeOperator() override;

  // *existing_value is null if there is none. Returns false on bad data.
  virtual bool Merge(const Slice& key, const Slice* existing_value,
                     const Slice& value, std::string* new_value,
                     Logger* logger) const = 0;

  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
  bool PartialMerge(const Slice& key, const Slice& left_operand,
                    const Slice& right_operand, std::string* new_value,
                    Logger* logger) const override;
};

// Operators strata provides.
struct STRATA_EXPORT MergeOperators {
  // Values and operands are fixed64 (little-endian) unsigned integers;
  // the merge is their sum modulo 2^64. An operand or value of another
  // size is an error. Name(): "uint64add".
  static std::shared_ptr<MergeOperator> CreateUInt64AddOperator();
  // The merge appends each operand to the value, delim between them.
  // Name(): "stringappend".
  static std::shared_ptr<MergeOperator> CreateStringAppendOperator(
      char delim = ',');
};

}  // namespace strata

#endif  // STRATA_INCLUDE_MERGE_OPERATOR_H_
