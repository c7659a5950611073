// The pieces of the block-based table format shared by its builder and
// reader (docs/formats/table.md): block handles, the per-block trailer,
// the footer, and reading one block from a file.
//
// Block trailer: every block on disk is followed by 5 bytes — the
// compression type (1 byte, a CompressionType) and the masked crc32c of
// the block's stored bytes and that type byte (fixed32).
//
// Footer: the last Footer::kEncodedLength (52) bytes of a table:
//
//   metaindex handle | index handle | zero padding   (40 bytes together)
//   fixed32 format version | fixed64 magic number
//
// Everything read from a file is untrusted: decoders check every length
// against the file before using it, and errors are Corruption naming the
// file and the offset of the damaged part.
//
// Thread safety: plain values; ReadBlock and ReadFooter are safe from many
// threads.

#ifndef STRATA_TABLE_FORMAT_H_
#define STRATA_TABLE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "strata/slice.h"
#include "strata/status.h"
#include "util/coding.h"

namespace strata {

class FilePrefetchBuffer;
class RandomAccessFileReader;

// The bytes of one block, uncompressed, trailer removed. data points into
// allocation when that is set, else into memory that outlives the
// contents (an mmap'ed file).
struct BlockContents {
  Slice data;
  std::unique_ptr<char[]> allocation;

  BlockContents() = default;
  BlockContents(std::unique_ptr<char[]> buf, size_t size)
      : data(buf.get(), size), allocation(std::move(buf)) {}
  explicit BlockContents(const Slice& unowned) : data(unowned) {}
  BlockContents(BlockContents&&) = default;
  BlockContents& operator=(BlockContents&&) = default;

  // Bytes of memory held (for cache charges).
  size_t usable_size() const { return allocation ? data.size() : 0; }
};

enum : size_t { kBlockTrailerSize = 5 };
// A read of a likely compressed block up to this size (trailer included)
// goes to a buffer on the stack (ReadBlock).
enum : size_t { kBlockReadStackBuffer = 5000 };

// The last 8 bytes of every block-based table: "strataTB" in ASCII (the
// fixed64 encoding is little-endian).
constexpr uint64_t kBlockBasedTableMagicNumber = 0x4254617461727473ull;
// Format versions (docs/formats/table.md): 1, the index keys are internal
// keys; 2, they are user keys, written when no user key of the table spans
// two data blocks. A reader refuses any other.
constexpr uint32_t kBlockBasedTableFormatVersion = 1;
constexpr uint32_t kUserKeyIndexFormatVersion = 2;

// Names of the metaindex entries: the properties block, and the filter
// block as kFilterBlockPrefix + the FilterPolicy's Name().
constexpr char kPropertiesBlockName[] = "strata.properties";
constexpr char kFilterBlockPrefix[] = "strata.filter.";
// The range-deletion block (absent when the table has no range tombstone).
constexpr char kRangeDelBlockName[] = "strata.range_del";

// Where a block lives in the file: the offset of its first byte and its
// stored size (without the trailer). Encoded as varint64 offset, varint64
// size.
class BlockHandle {
 public:
  enum : size_t { kMaxEncodedLength = 2 * kMaxVarint64Length };

  BlockHandle() = default;
  BlockHandle(uint64_t offset, uint64_t size) : offset_(offset), size_(size) {}

  uint64_t offset() const { return offset_; }
  uint64_t size() const { return size_; }
  void set_offset(uint64_t offset) { offset_ = offset; }
  void set_size(uint64_t size) { size_ = size; }

  void EncodeTo(std::string* dst) const;
  // Consumes a handle from the front of *input. False (input unchanged)
  // if it is malformed.
  bool DecodeFrom(Slice* input);

 private:
  uint64_t offset_ = 0;
  uint64_t size_ = 0;
};

class Footer {
 public:
  enum : size_t {
    kHandlesLength = 2 * BlockHandle::kMaxEncodedLength,
    kEncodedLength = kHandlesLength + 4 + 8,
  };

  BlockHandle metaindex_handle;
  BlockHandle index_handle;
  uint32_t format_version = kBlockBasedTableFormatVersion;

  // Whether the index block's keys are user keys (version 2).
  bool index_has_user_keys() const {
    return format_version == kUserKeyIndexFormatVersion;
  }
  // The footer has no checksum, and both versions are valid: a table's
  // properties (checksummed) must name the same version, so that a
  // damaged version byte is found. Corruption (without a location)
  // otherwise.
  Status CheckVersion(uint64_t properties_version) const;

  // Appends exactly kEncodedLength bytes.
  void EncodeTo(std::string* dst) const;

  // Decodes the footer of a file of file_size bytes from its last
  // kEncodedLength bytes (input). Checks the magic number, the version,
  // the zero padding and that both handles lie before the footer;
  // Corruption "<file_name>: footer at <offset>: ..." otherwise.
  Status DecodeFrom(const Slice& input, const std::string& file_name,
                    uint64_t file_size);
};

// "<file_name>: block at <offset>": how every error about a block begins.
std::string BlockLocation(const std::string& file_name, uint64_t offset);

// The masked crc32c a block trailer stores for n stored bytes and type.
uint32_t ComputeBlockChecksum(const char* data, size_t n, char type);

// Reads and decodes the footer of a table of file_size bytes.
Status ReadFooter(const RandomAccessFileReader* file, uint64_t file_size,
                  Footer* footer);

// Reads the block at handle of a table of file_size bytes: its stored
// bytes and trailer, checks the checksum if verify_checksum, and
// decompresses. A handle reaching into the footer or past the end of the
// file is refused before anything is allocated. Errors read
// "<file name>: block at <offset>: <what>".
//
// An uncompressed block of a file that serves reads from its own memory
// (mmap) is returned unowned, pointing into the file: no copy. With
// file_in_memory the caller says it knows the file is such a file, and no
// scratch buffer is allocated for the read.
//
// With prefetch (not for a file in memory), the block is read through it.
// With preread, the block's stored bytes and trailer, already read (a
// batched MultiGet's ReadBatch), the file is not read at all: the bytes
// are checked and decoded as if read, and copied where they are kept.
//
// likely_compressed (the table was written with compression): a block of
// up to kBlockReadStackBuffer bytes is read into the stack and
// decompressed from there, saving an allocation; one stored uncompressed
// after all is then copied out.
Status ReadBlock(const RandomAccessFileReader* file, uint64_t file_size,
                 const BlockHandle& handle, bool verify_checksum,
                 BlockContents* contents, bool file_in_memory = false,
                 bool likely_compressed = false,
                 FilePrefetchBuffer* prefetch = nullptr,
                 const Slice* preread = nullptr);

}  // namespace strata

#endif  // STRATA_TABLE_FORMAT_H_
