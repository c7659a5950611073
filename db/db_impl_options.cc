// DBImpl: the options check at Open — SanitizeOptions raises values no DB
// should run with to the smallest workable one, ValidateOptions refuses
// the rest with a Status naming the field.

#include <algorithm>
#include <memory>
#include <string>

#include "db/db_impl.h"
#include "table/compression.h"

namespace strata {

namespace {

// InvalidArgument for a value outside CompressionType, NotSupported for a
// codec this build lacks; field names the option in the message.
Status CheckCompression(CompressionType type, const std::string& field) {
  switch (type) {
    case kNoCompression:
    case kSnappyCompression:
    case kZlibCompression:
      break;
    default:
      return Status::InvalidArgument(field + ": unknown compression type ",
                                     std::to_string(static_cast<int>(type)));
  }
  if (!CompressionSupported(type)) {
    return Status::NotSupported(
        field + ": this build of strata has no codec for ",
        CompressionTypeName(type));
  }
  return Status::OK();
}

}  // namespace

// Raises options no DB should run with to the smallest workable value,
// as RocksDB does (ValidateOptions refuses the ones with no such value).
Options DBImpl::SanitizeOptions(const Options& options) {
  Options result = options;
  // An empty memtable already holds an arena chunk; a smaller buffer
  // would retire every memtable at its first write.
  constexpr size_t kMinWriteBufferSize = 64 << 10;
  result.write_buffer_size =
      std::max(result.write_buffer_size, kMinWriteBufferSize);
  // With one memtable, a full one would stop writes with nothing to
  // flush.
  result.max_write_buffer_number = std::max(result.max_write_buffer_number, 2);
  // Regions are whole huge pages. RocksDB names the page size here (its
  // db_bench sets 2048), so a value that is no multiple is rounded up.
  const size_t page = port::kHugePageSize;
  result.memtable_huge_page_size =
      (result.memtable_huge_page_size + page - 1) / page * page;
  // The L0 triggers in order (RocksDB's rule): writes slowed or stopped
  // below the compaction trigger would wait for a compaction that never
  // comes.
  result.level0_file_num_compaction_trigger =
      std::max(result.level0_file_num_compaction_trigger, 1);
  result.level0_slowdown_writes_trigger =
      std::max(result.level0_slowdown_writes_trigger,
               result.level0_file_num_compaction_trigger);
  result.level0_stop_writes_trigger = std::max(
      result.level0_stop_writes_trigger, result.level0_slowdown_writes_trigger);
  // db_write_buffer_size alone: a manager for this DB only, as RocksDB
  // makes. (The families' options are built from the DB's, which then
  // already holds it.)
  if (result.write_buffer_manager == nullptr &&
      result.db_write_buffer_size > 0) {
    result.write_buffer_manager =
        std::make_shared<WriteBufferManager>(result.db_write_buffer_size);
  }
  return result;
}

Status DBImpl::ValidateOptions(const Options& options) {
  if (options.env == nullptr) {
    return Status::InvalidArgument("Options::env is null");
  }
  if (options.comparator == nullptr) {
    return Status::InvalidArgument("Options::comparator is null");
  }
  if (options.write_buffer_size == 0) {
    return Status::InvalidArgument("Options::write_buffer_size is 0");
  }
  if (options.max_write_buffer_number < 1) {
    return Status::InvalidArgument("Options::max_write_buffer_number < 1");
  }
  if (options.num_levels < 2 || options.num_levels > config::kMaxNumLevels) {
    return Status::InvalidArgument("Options::num_levels outside [2, ",
                                   std::to_string(config::kMaxNumLevels) + "]");
  }
  if (options.table_factory == nullptr) {
    return Status::InvalidArgument("Options::table_factory is null");
  }
  Status s = CheckCompression(options.compression, "Options::compression");
  for (size_t i = 0; s.ok() && i < options.compression_per_level.size(); i++) {
    s = CheckCompression(
        options.compression_per_level[i],
        "Options::compression_per_level[" + std::to_string(i) + "]");
  }
  if (!s.ok()) return s;
  // A factory strata has no representation for is refused, not ignored.
  const MemTableRepFactory* factory = options.memtable_factory.get();
  if (factory != nullptr &&
      dynamic_cast<const SkipListFactory*>(factory) == nullptr &&
      dynamic_cast<const VectorRepFactory*>(factory) == nullptr) {
    return Status::InvalidArgument(
        "Options::memtable_factory: strata has no memtable representation ",
        std::string(factory->Name()) +
            " (only SkipListFactory and VectorRepFactory)");
  }
  // As RocksDB: concurrent memtable writes need a representation that
  // takes them, and exclude in-place updates (one writer rewrites values).
  // unordered_write needs concurrent writes (checked below), so it is
  // refused with these too.
  const std::string fix =
      options.unordered_write
          ? "set allow_concurrent_memtable_write and unordered_write (which "
            "needs it) to false"
          : "set allow_concurrent_memtable_write to false";
  if (options.allow_concurrent_memtable_write && factory != nullptr &&
      !factory->IsInsertConcurrentlySupported()) {
    return Status::InvalidArgument(
        "Options::memtable_factory " + std::string(factory->Name()) +
            " takes one writer at a time: incompatible with "
            "allow_concurrent_memtable_write",
        fix);
  }
  if (options.allow_concurrent_memtable_write &&
      options.inplace_update_support) {
    return Status::InvalidArgument(
        "Options::inplace_update_support is incompatible with "
        "allow_concurrent_memtable_write",
        fix);
  }
  if (options.inplace_update_support && options.inplace_update_num_locks == 0) {
    return Status::InvalidArgument(
        "Options::inplace_update_num_locks is 0 with inplace_update_support");
  }
  if (options.unordered_write && options.enable_pipelined_write) {
    return Status::InvalidArgument(
        "unordered_write is incompatible with enable_pipelined_write");
  }
  if (options.unordered_write_snapshot_safe && !options.unordered_write) {
    return Status::InvalidArgument(
        "unordered_write_snapshot_safe is set without unordered_write");
  }
  if (options.unordered_write && !options.allow_concurrent_memtable_write) {
    return Status::InvalidArgument(
        "unordered_write requires allow_concurrent_memtable_write");
  }
  switch (options.compaction_style) {
    case kCompactionStyleLevel:
    case kCompactionStyleNone:
      break;
    case kCompactionStyleUniversal:
      return Status::NotSupported(
          "Options::compaction_style: kCompactionStyleUniversal (strata "
          "compacts by level, or not at all with kCompactionStyleNone)");
    case kCompactionStyleFIFO:
      return Status::NotSupported(
          "Options::compaction_style: kCompactionStyleFIFO (strata "
          "compacts by level, or not at all with kCompactionStyleNone)");
    default:
      return Status::InvalidArgument(
          "Options::compaction_style: unknown value ",
          std::to_string(static_cast<int>(options.compaction_style)));
  }
  switch (options.wal_recovery_mode) {
    case WALRecoveryMode::kTolerateCorruptedTailRecords:
    case WALRecoveryMode::kAbsoluteConsistency:
    case WALRecoveryMode::kPointInTimeRecovery:
    case WALRecoveryMode::kSkipAnyCorruptedRecords:
      break;
    default:
      return Status::InvalidArgument("unknown Options::wal_recovery_mode");
  }
  return Status::OK();
}

}  // namespace strata
