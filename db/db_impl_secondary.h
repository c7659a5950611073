// DBImplSecondary: the DB DB::OpenAsSecondary returns (docs/operations.md,
// "Secondary instances"). A read-only DB that, on TryCatchUpWithPrimary,
// reads again what a live primary has written since: the MANIFEST's new
// edits and the WALs. It refuses what DBImplReadOnly refuses.

#ifndef STRATA_DB_DB_IMPL_SECONDARY_H_
#define STRATA_DB_DB_IMPL_SECONDARY_H_

#include <string>
#include <vector>

#include "db/db_impl_readonly.h"

namespace strata {

class DBImplSecondary final : public DBImplReadOnly {
 public:
  DBImplSecondary(const Options& options, const std::string& dbname)
      : DBImplReadOnly(options, dbname) {
    secondary_ = true;
  }

  Status TryCatchUpWithPrimary() override;
  // NotSupported: the WALs this instance replayed keep changing under it,
  // so it cannot list what a copy of the DB needs (a Checkpoint is taken
  // from the primary).
  Status GetLiveFilesStorageInfo(
      const LiveFilesStorageInfoOptions& opts,
      std::vector<LiveFileStorageInfo>* files) override;
};

}  // namespace strata

#endif  // STRATA_DB_DB_IMPL_SECONDARY_H_
