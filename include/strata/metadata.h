// What a DB reports about its table files: DB::GetLiveFilesMetaData and
// DB::GetColumnFamilyMetaData fill these in. RocksDB's structs, field for
// field; the blob fields are always empty (strata keeps values in its
// tables).
//
// Thread safety: plain values.

#ifndef STRATA_INCLUDE_METADATA_H_
#define STRATA_INCLUDE_METADATA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/types.h"

namespace strata {

// A file of the DB: its name relative to directory, its number and size.
struct STRATA_EXPORT FileStorageInfo {
  std::string relative_filename;
  std::string directory;
  uint64_t file_number = 0;
  FileType file_type = kTempFile;
  uint64_t size = 0;
  Temperature temperature = Temperature::kUnknown;
  // strata records no whole-file checksums: both are empty.
  std::string file_checksum;
  std::string file_checksum_func_name;
};

// A file of a live DB as a copy of it must take it
// (DB::GetLiveFilesStorageInfo): files that grow (the MANIFEST, WALs) are
// copied only up to size.
struct STRATA_EXPORT LiveFileStorageInfo : public FileStorageInfo {
  // When not empty, what the copy must hold in place of the file on disk
  // (CURRENT, which a live DB may replace); size is its length.
  std::string replacement_contents;
  // The file on disk may be longer than size; only its first size bytes
  // belong to the copy. When false it must be exactly size bytes long.
  bool trim_to_size = false;
};

// A table file.
struct STRATA_EXPORT SstFileMetaData : public FileStorageInfo {
  SstFileMetaData() { file_type = kTableFile; }
  // file_name is relative to directory, with or without a leading '/'.
  SstFileMetaData(const std::string& _file_name, uint64_t _file_number,
                  const std::string& _directory, uint64_t _size,
                  SequenceNumber _smallest_seqno, SequenceNumber _largest_seqno,
                  const std::string& _smallestkey,
                  const std::string& _largestkey, uint64_t _num_reads_sampled,
                  bool _being_compacted, Temperature _temperature,
                  uint64_t _oldest_blob_file_number,
                  uint64_t _oldest_ancester_time, uint64_t _file_creation_time,
                  std::string& _file_checksum,
                  std::string& _file_checksum_func_name);

  SequenceNumber smallest_seqno = 0;
  SequenceNumber largest_seqno = 0;
  std::string smallestkey;  // user keys
  std::string largestkey;
  uint64_t num_reads_sampled = 0;  // not sampled by strata: 0
  bool being_compacted = false;    // an input of a running compaction
  // From the table's properties; 0 when the MANIFEST did not record them
  // (a table written before they were recorded).
  uint64_t num_entries = 0;
  uint64_t num_deletions = 0;
  uint64_t oldest_blob_file_number = 0;
  uint64_t oldest_ancester_time = 0;
  uint64_t file_creation_time = 0;

  // Older names: "/" + relative_filename, and directory.
  std::string name;
  std::string db_path;
};

// A table file with the family and level holding it.
struct STRATA_EXPORT LiveFileMetaData : SstFileMetaData {
  std::string column_family_name;
  int level = 0;
};

// RocksDB's blob files; a strata DB has none.
struct STRATA_EXPORT BlobMetaData {
  uint64_t blob_file_number = 0;
  std::string blob_file_name;
  std::string blob_file_path;
  uint64_t blob_file_size = 0;
  uint64_t total_blob_count = 0;
  uint64_t total_blob_bytes = 0;
  uint64_t garbage_blob_count = 0;
  uint64_t garbage_blob_bytes = 0;
  std::string checksum_method;
  std::string checksum_value;
};

// One level of a family: its files, smallest key first (level 0: newest
// first), and their total size.
struct STRATA_EXPORT LevelMetaData {
  LevelMetaData(int _level, uint64_t _size,
                const std::vector<SstFileMetaData>&& _files)
      : level(_level), size(_size), files(_files) {}

  const int level;
  const uint64_t size;
  const std::vector<SstFileMetaData> files;
};

// A column family's files, every level listed (empty ones too).
struct STRATA_EXPORT ColumnFamilyMetaData {
  ColumnFamilyMetaData() = default;
  ColumnFamilyMetaData(const std::string& _name, uint64_t _size,
                       const std::vector<LevelMetaData>&& _levels)
      : size(_size), name(_name), levels(_levels) {}

  uint64_t size = 0;  // bytes in all levels
  size_t file_count = 0;
  std::string name;
  std::vector<LevelMetaData> levels;
  uint64_t blob_file_size = 0;
  size_t blob_file_count = 0;
  std::vector<BlobMetaData> blob_files;
};

// The tables of one exported column family (Checkpoint::ExportColumnFamily,
// which strata does not implement).
struct STRATA_EXPORT ExportImportFilesMetaData {
  std::string db_comparator_name;
  std::vector<LiveFileMetaData> files;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_METADATA_H_
