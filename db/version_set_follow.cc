// VersionSet::FollowManifest: a secondary instance reading the edits its
// primary keeps appending (docs/operations.md, "Secondary instances").

#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "db/filename.h"
#include "db/version_builder.h"
#include "db/version_set.h"

namespace strata {

Status VersionSet::FollowManifest(
    const std::function<Status(const ColumnFamilyData&, const Version&)>&
        check) {
  std::string fname;
  uint64_t number = 0;
  Status s = ReadCurrentFile(&fname, &number);
  if (!s.ok()) return s;
  // A new MANIFEST starts with a snapshot of the whole state: it is read
  // from its start onto empty versions. The same one is read on from the
  // end of the last record applied.
  const bool fresh = number != manifest_file_number_;
  const uint64_t skip = fresh ? 0 : recovered_manifest_end_;
  std::map<uint32_t, std::unique_ptr<VersionBuilder>> builders;
  if (fresh) {
    for (ColumnFamilyData* cfd : column_families_.All()) {
      builders[cfd->id()].reset(new VersionBuilder(
          &cfd->icmp(), new Version(&cfd->icmp(), cfd->num_levels())));
    }
  }
  // What is applied once every new version passed check.
  std::vector<std::pair<ColumnFamilyData*, VersionEdit>> counters;
  std::set<uint32_t> seen;  // families the new MANIFEST still holds
  std::set<uint32_t> dropped;
  uint64_t next_file = 0;
  SequenceNumber last_sequence = 0;
  uint64_t end = 0;
  s = ReadManifest(
      fname, number,
      [&](const VersionEdit& edit, const std::string& where) {
        const uint32_t id = edit.column_family();
        if (edit.has_next_file_number()) next_file = edit.next_file_number();
        if (edit.has_last_sequence()) {
          last_sequence = std::max(last_sequence, edit.last_sequence());
        }
        ColumnFamilyData* cfd = column_families_.Find(id);
        // A family not opened here, or one already dropped.
        if (cfd == nullptr || dropped.count(id) > 0) return Status::OK();
        seen.insert(id);
        if (edit.is_column_family_drop()) {
          if (id == 0) {
            return Status::Corruption(where, "drops the default column family");
          }
          dropped.insert(id);
          return Status::OK();
        }
        std::unique_ptr<VersionBuilder>& builder = builders[id];
        if (builder == nullptr) {
          builder.reset(new VersionBuilder(&cfd->icmp(), cfd->current()));
        }
        Status a = builder->Apply(edit);
        if (!a.ok()) return Status::Corruption(where, a.getState());
        counters.emplace_back(cfd, edit);
        return Status::OK();
      },
      &end, skip);
  if (!s.ok()) {
    // The primary switched to a newer MANIFEST and deleted this one.
    if (env_->FileExists(fname).IsNotFound()) {
      return Status::TryAgain(fname, "deleted by the primary while read");
    }
    return s;
  }
  if (fresh) {
    // A family the new MANIFEST does not hold was dropped before it began.
    for (const auto& entry : builders) {
      if (entry.first != 0 && seen.count(entry.first) == 0) {
        dropped.insert(entry.first);
      }
    }
  }
  std::vector<std::pair<ColumnFamilyData*, Version*>> built;
  for (const auto& entry : builders) {
    if (dropped.count(entry.first) > 0) continue;
    ColumnFamilyData* cfd = column_families_.Find(entry.first);
    Version* v = new Version(&cfd->icmp(), cfd->num_levels());
    s = entry.second->SaveTo(v);
    if (!s.ok()) s = Status::Corruption(fname, s.getState());
    if (s.ok()) s = check(*cfd, *v);
    built.emplace_back(cfd, v);
    if (!s.ok()) break;
  }
  builders.clear();  // they hold refs on the families' versions
  if (!s.ok()) {
    for (auto& b : built) delete b.second;
    return s;
  }
  for (auto& b : built) b.first->AppendVersion(b.second);
  for (const auto& c : counters) {
    if (dropped.count(c.first->id()) == 0) ApplyCounters(c.first, c.second);
  }
  for (uint32_t id : dropped) {
    column_families_.Remove(column_families_.Find(id));
  }
  manifest_file_number_ = number;
  recovered_manifest_end_ = end;
  MarkFileNumberUsed(next_file == 0 ? 0 : next_file - 1);
  if (last_sequence > LastSequence()) SetLastSequence(last_sequence);
  return Status::OK();
}

}  // namespace strata
