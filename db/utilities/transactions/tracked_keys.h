// TrackedKeys: the keys a transaction tracks (writes, and reads with
// GetForUpdate), per column family, each with the sequence number it was
// first tracked at and how many reads and writes tracked it; with save
// points that undo the tracking done since they were set.
//
// A key tracked again keeps its first (smallest) sequence number: a
// conflict check must cover the whole time since the transaction first
// depended on the key.
//
// Thread safety: none; a transaction's own state.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_TRACKED_KEYS_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_TRACKED_KEYS_H_

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/db.h"
#include "strata/types.h"

namespace strata {

struct TrackedKeyInfo {
  SequenceNumber seq = 0;
  uint32_t num_reads = 0;
  uint32_t num_writes = 0;
  bool exclusive = false;
};

class TrackedKeys {
 public:
  struct Family {
    ColumnFamilyHandle* handle = nullptr;  // the first handle it came by
    std::unordered_map<std::string, TrackedKeyInfo> keys;
  };

  // Records one read (read_only) or write of key in family.
  void Track(ColumnFamilyHandle* family, const std::string& key,
             SequenceNumber seq, bool read_only, bool exclusive);
  // Undoes one read of key (UndoGetForUpdate): the key is forgotten when
  // no read or write tracks it any more. A key not read, or read only
  // before the last save point: nothing.
  void UndoRead(uint32_t family_id, const std::string& key);

  // The key's info, or null.
  const TrackedKeyInfo* Find(uint32_t family_id, const std::string& key) const;
  size_t size() const;
  const std::map<uint32_t, Family>& families() const { return families_; }
  void Clear();

  void SetSavePoint();
  // Undoes the tracking since the last save point. REQUIRES: one is set.
  void RollbackToSavePoint();
  // Forgets the last save point, its tracking joining the one before.
  void PopSavePoint();

 private:
  struct Op {
    uint32_t family_id;
    std::string key;
    bool read;
  };

  // Takes back one read or write of key; forgets it when none is left.
  void Undo(uint32_t family_id, const std::string& key, bool read);

  std::map<uint32_t, Family> families_;
  // For each save point, the tracking done since it was set.
  std::vector<std::vector<Op>> save_points_;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_TRACKED_KEYS_H_
