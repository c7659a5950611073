// The state behind a WriteBatchWithIndex: the plain batch and its index.
// Shared by the files that implement the class; not part of the API.

#ifndef STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_REP_H_
#define STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_REP_H_

#include <cstddef>

#include "db/utilities/write_batch_with_index/wbwi_index.h"
#include "strata/comparator.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"

namespace strata {

struct WriteBatchWithIndex::Rep {
  Rep(const Comparator* backup_cmp, size_t reserved_bytes, bool overwrite_key,
      size_t max_bytes)
      : batch(reserved_bytes, max_bytes),
        index(&batch, overwrite_key),
        backup_comparator(backup_cmp) {}

  WriteBatch batch;
  WriteBatchIndex index;  // of batch, which it points to
  const Comparator* const backup_comparator;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_WBWI_REP_H_
