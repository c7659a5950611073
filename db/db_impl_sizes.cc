// DBImpl: GetApproximateSizes — how many bytes a key range takes.
//
// Tables: Version::ApproximateBytesInRange. A table wholly inside [start,
// limit) counts in full and is not opened; one outside is skipped by its
// smallest and largest keys; one the range cuts counts the bytes between
// the positions of start and limit in its index
// (TableReader::ApproximateOffsetOf: the offset of the data block holding
// the key, the file size past the last key). So the estimate is exact to
// within a data block per cut table, and a range ending past every key
// includes the cut tables' metadata blocks.
//
// Memtables: the bytes (internal key and value) of the entries in the
// range, counted by walking them — exact, at a cost linear in the number
// of entries in range (a memtable holds at most write_buffer_size bytes).
// Range tombstones are not counted.
//
// Both read through a ReadView (refs on the memtables and the version)
// without the DB mutex.

#include "db/db_impl.h"
#include "db/version.h"
#include "memtable/memtable.h"

namespace strata {

namespace {

bool HasFlag(SizeApproximationFlags flags, SizeApproximationFlags flag) {
  return (flags & flag) != SizeApproximationFlags::NONE;
}

// The bytes of mem's entries in [start, limit) of user keys.
uint64_t MemTableBytesInRange(const InternalKeyComparator& icmp, MemTable* mem,
                              const Slice& start, const Slice& limit) {
  const Comparator* ucmp = icmp.user_comparator();
  const InternalKey start_key(start, kMaxSequenceNumber, kValueTypeForSeek);
  std::unique_ptr<InternalIterator> it(mem->NewIterator());
  uint64_t total = 0;
  for (it->Seek(start_key.Encode()); it->Valid(); it->Next()) {
    if (ucmp->Compare(ExtractUserKey(it->key()), limit) >= 0) break;
    total += it->key().size() + it->value().size();
  }
  return total;
}

}  // namespace

Status DBImpl::GetApproximateSizes(ColumnFamilyHandle* column_family,
                                   const Range* ranges, int n, uint64_t* sizes,
                                   SizeApproximationFlags include_flags) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  const bool include_files =
      HasFlag(include_flags, SizeApproximationFlags::INCLUDE_FILES);
  const bool include_mems =
      HasFlag(include_flags, SizeApproximationFlags::INCLUDE_MEMTABLES);
  if (!include_files && !include_mems) {
    return Status::InvalidArgument(
        "GetApproximateSizes: include_flags has neither INCLUDE_FILES nor "
        "INCLUDE_MEMTABLES");
  }
  if (n < 0) {
    return Status::InvalidArgument("GetApproximateSizes: negative n");
  }
  if (n > 0 && (ranges == nullptr || sizes == nullptr)) {
    return Status::InvalidArgument("GetApproximateSizes: null ranges or sizes");
  }
  if (n == 0) return Status::OK();

  ReadView view;
  s = AcquireReadView(ReadOptions(), cfd, &view);
  if (!s.ok()) return s;
  const std::vector<MemTable*> mems = view.MemTables();
  const Comparator* ucmp = cfd->user_comparator();
  for (int i = 0; i < n; i++) {
    const Range& r = ranges[i];
    sizes[i] = 0;
    if (ucmp->Compare(r.start, r.limit) >= 0) continue;  // empty
    if (include_files) {
      sizes[i] += view.version->ApproximateBytesInRange(cfd->table_cache(),
                                                        r.start, r.limit);
    }
    if (include_mems) {
      for (MemTable* m : mems) {
        sizes[i] += MemTableBytesInRange(cfd->icmp(), m, r.start, r.limit);
      }
    }
  }
  ReleaseReadView(view);
  return Status::OK();
}

}  // namespace strata
