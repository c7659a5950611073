// DBOptions: how a DB uses its Env — the options that decide how files are
// opened, synced and logged, with RocksDB's names and defaults. The engine
// adds the rest of RocksDB's DBOptions and the column-family options (and
// Options, which flattens both) as it arrives.
//
// Thread safety: a plain struct; copy it, or share it read-only.

#ifndef STRATA_INCLUDE_OPTIONS_H_
#define STRATA_INCLUDE_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "strata/env.h"
#include "strata/export.h"

namespace strata {

struct STRATA_EXPORT DBOptions {
  // The Env for all file and thread work. Default: Env::Default().
  Env* env = Env::Default();

  // Where the DB writes its informational log; null: a LOG file in the
  // DB's directory.
  std::shared_ptr<Logger> info_log = nullptr;

  // Sync with fsync (data and metadata) rather than fdatasync.
  bool use_fsync = false;

  // Read / write table files through memory maps.
  bool allow_mmap_reads = false;
  bool allow_mmap_writes = false;

  // Direct (unbuffered) I/O for user reads, and for the writes and reads of
  // flush and compaction. The WAL and MANIFEST stay buffered.
  bool use_direct_reads = false;
  bool use_direct_io_for_flush_and_compaction = false;

  // Reserve file space ahead of writes where the file system allows.
  bool allow_fallocate = true;

  // Start OS write-back every this many bytes of a table file / of the WAL
  // (0: never).
  uint64_t bytes_per_sync = 0;
  uint64_t wal_bytes_per_sync = 0;

  // The largest buffer the file writer keeps before writing.
  size_t writable_file_max_buffer_size = 1024 * 1024;

  // Write the WAL through to the device (FILE_FLAG_WRITE_THROUGH on
  // Windows, O_DSYNC on POSIX): a sync=true write then costs one
  // write-through WriteFile and no FlushFileBuffers — on Windows much
  // cheaper than the flush (see docs/windows.md). Not in RocksDB.
  bool wal_write_through = false;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_OPTIONS_H_
