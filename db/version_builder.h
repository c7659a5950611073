// VersionBuilder: applies a run of version edits to a base version and
// saves the result as a new version, without building the versions in
// between (recovery applies a whole MANIFEST this way).
//
// Edits come from a MANIFEST, so they are checked: a file added twice,
// the removal of a file not in its level, a level beyond num_levels, a
// file whose smallest key is above its largest, or files overlapping in
// a sorted level make Apply / SaveTo fail with Corruption (InvalidArgument
// for a level beyond num_levels: a DB opened with fewer levels than it
// has), and nothing is installed.
//
// Thread safety: one thread at a time. The base version must stay
// referenced while the builder lives (the builder holds a ref).

#ifndef STRATA_DB_VERSION_BUILDER_H_
#define STRATA_DB_VERSION_BUILDER_H_

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "db/version.h"
#include "db/version_edit.h"
#include "strata/status.h"

namespace strata {

class VersionBuilder {
 public:
  VersionBuilder(const InternalKeyComparator* icmp, Version* base);
  VersionBuilder(const VersionBuilder&) = delete;
  VersionBuilder& operator=(const VersionBuilder&) = delete;
  ~VersionBuilder();

  // Applies the file changes of edit. On error the builder is unchanged
  // by this edit.
  Status Apply(const VersionEdit& edit);

  // Fills v (new, empty, with the base's number of levels) with the base's
  // files plus the changes applied.
  Status SaveTo(Version* v) const;

 private:
  struct LevelChanges {
    std::set<uint64_t> deleted;               // files of the base
    std::map<uint64_t, FileMetaData*> added;  // owned (one ref each)
  };

  Status CheckLevel(const Slice& what, int level) const;

  const InternalKeyComparator* const icmp_;
  Version* const base_;
  std::vector<LevelChanges> levels_;
  // Every file in the version being built: number -> level.
  std::map<uint64_t, int> live_;
};

}  // namespace strata

#endif  // STRATA_DB_VERSION_BUILDER_H_
