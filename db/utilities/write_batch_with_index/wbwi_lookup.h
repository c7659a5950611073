// WriteBatchWithIndexInternal: looking keys up in a WriteBatchWithIndex,
// for the class itself and for the transaction layer built on it.
//
// A lookup reads the entries of one key newest first, collecting Merge
// operands until it meets a Put or a deletion:
//   kFound            a Put, with any newer operands already merged into
//                     it (or a deletion with newer operands, merged over
//                     no value): *value is the key's value.
//   kDeleted          a deletion with no newer operands.
//   kMergeInProgress  operands only: the base value is not in the batch;
//                     the operands are in *operands for the caller to
//                     merge over what the DB holds.
//   kNotFound         the batch does not touch the key.
//   kError            a merge the lookup had to do failed (*s says why:
//                     no merge operator, or the operator refused).
//
// Thread safety: lookups only read the batch.

#ifndef STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_LOOKUP_H_
#define STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_LOOKUP_H_

#include <cstdint>
#include <string>

#include "db/merge_helper.h"
#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/utilities/write_batch_with_index.h"

namespace strata {

class WriteBatchIndex;

class WriteBatchWithIndexInternal {
 public:
  enum Result { kNotFound, kFound, kDeleted, kMergeInProgress, kError };

  // Looks key up in column_family's entries (null: the default family's).
  // merge_operator resolves operands over a Put or deletion of the batch;
  // null makes such a lookup kError with InvalidArgument.
  static Result GetFromBatch(const WriteBatchWithIndex* batch,
                             ColumnFamilyHandle* column_family,
                             const MergeOperator* merge_operator,
                             const Slice& key, MergeContext* operands,
                             std::string* value, Status* s);

  // The family's id (0 for null), its key order (backup for null or a
  // handle without one), and its merge operator (null for a null handle or
  // one that strata's DB did not make).
  static uint32_t FamilyId(ColumnFamilyHandle* column_family);
  static const Comparator* ComparatorOf(ColumnFamilyHandle* column_family,
                                        const Comparator* backup);
  static const MergeOperator* MergeOperatorOf(
      ColumnFamilyHandle* column_family);

  static const WriteBatchIndex& Index(const WriteBatchWithIndex* batch);
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_LOOKUP_H_
