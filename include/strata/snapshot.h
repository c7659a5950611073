// Snapshot: a frozen view of the DB, from DB::GetSnapshot().
//
// Reads through ReadOptions::snapshot see the DB as it was when the snapshot
// was taken. Release it with DB::ReleaseSnapshot; it must not outlive the
// DB. Immutable, so safe to share between threads.

#ifndef STRATA_INCLUDE_SNAPSHOT_H_
#define STRATA_INCLUDE_SNAPSHOT_H_

#include "strata/export.h"
#include "strata/types.h"

namespace strata {

class STRATA_EXPORT Snapshot {
 public:
  virtual SequenceNumber GetSequenceNumber() const = 0;

 protected:
  virtual ~Snapshot();
};

}  // namespace strata

#endif  // STRATA_INCLUDE_SNAPSHOT_H_
