// ManifestState: the state a MANIFEST's edits build, replayed without a
// DB — the live column families, each with its comparator, log number
// and files per level, and the DB's counters. Edits are checked as
// recovery checks them (VersionBuilder for the files, the family rules of
// docs/formats/manifest.md), so a MANIFEST that would not open does not
// replay here either.
//
// Thread safety: one thread at a time.

#ifndef STRATA_TOOLS_INSPECT_MANIFEST_STATE_H_
#define STRATA_TOOLS_INSPECT_MANIFEST_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "db/version.h"
#include "db/version_builder.h"
#include "db/version_edit.h"
#include "strata/comparator.h"
#include "strata/status.h"

namespace strata {
namespace inspect {

class ManifestState {
 public:
  // One live family. version is null until Finish.
  struct Family {
    Family() = default;
    Family(const Family&) = delete;
    Family& operator=(const Family&) = delete;
    ~Family();

    std::string name;
    std::string comparator;  // the name recorded
    uint64_t log_number = 0;
    std::unique_ptr<InternalKeyComparator> icmp;
    Version* base = nullptr;  // empty, referenced
    std::unique_ptr<VersionBuilder> builder;
    Version* version = nullptr;   // the result, referenced
    uint64_t version_number = 0;  // as RocksDB numbers it (inspect.h)
  };

  // user_comparator (may be null): a comparator the families may name
  // besides RocksDB's built-in ones.
  explicit ManifestState(const Comparator* user_comparator);
  ManifestState(const ManifestState&) = delete;
  ManifestState& operator=(const ManifestState&) = delete;

  // Applies edit, read at where (the MANIFEST and the record's offset,
  // for messages).
  Status Apply(const VersionEdit& edit, const std::string& where);
  // Saves every family's version; checks the counters recovery requires.
  // manifest_number: the MANIFEST's own (0 if unknown), which the file
  // counter must pass. REQUIRES: every edit applied.
  Status Finish(const std::string& manifest, uint64_t manifest_number);

  // The live families by id (REQUIRES for version: Finish returned OK).
  const std::map<uint32_t, std::unique_ptr<Family>>& families() const {
    return families_;
  }
  // The counter strata's recovery restarts the file numbers from.
  uint64_t next_file_number() const { return next_file_number_; }
  SequenceNumber last_sequence() const { return recorded_.last_sequence(); }
  uint32_t max_column_family() const { return max_column_family_; }
  // The smallest log number of the live families.
  uint64_t min_log_number() const;

 private:
  // Creates family id (name, comparator); Corruption naming where if the
  // comparator is unknown.
  Status AddFamily(uint32_t id, const std::string& name,
                   const std::string& comparator, const std::string& where);

  const Comparator* const user_comparator_;
  std::map<uint32_t, std::unique_ptr<Family>> families_;
  bool default_seen_ = false;
  uint64_t versions_created_ = 0;
  // The last log number, next file number and last sequence recorded.
  VersionEdit recorded_;
  uint64_t max_file_number_ = 0;
  uint64_t next_file_number_ = 0;
  uint32_t max_column_family_ = 0;
};

}  // namespace inspect
}  // namespace strata

#endif  // STRATA_TOOLS_INSPECT_MANIFEST_STATE_H_
