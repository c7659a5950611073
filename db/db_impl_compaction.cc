// DBImpl: compactions on the LOW pool and CompactRange
// (docs/compaction.md).

#include "db/db_impl.h"

namespace strata {

Status DBImpl::CompactRange(const CompactRangeOptions& /*options*/,
                            const Slice* /*begin*/, const Slice* /*end*/) {
  return Status::NotSupported("CompactRange: compactions are not wired in");
}

}  // namespace strata
