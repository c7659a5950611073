// The pieces of the block-based table format shared by its builder and
// reader (docs/formats/table.md): block handles, the per-block trailer,
// the footer, and reading one block from a file.
//
// Block trailer: every block on disk is followed by 5 bytes — the
// compression type (1 byte, a CompressionType) and the masked crc32c of
// the block's stored bytes and that type byte (fixed32).
//
// Thread safety: plain values; ReadBlock is safe from many threads.

#ifndef STRATA_TABLE_FORMAT_H_
#define STRATA_TABLE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class RandomAccessFileReader;

// The bytes of one block, uncompressed, trailer removed. data points into
// allocation when that is set, else into memory that outlives the
// contents (an mmap'ed file).
struct STRATA_EXPORT BlockContents {
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

}  // namespace strata

#endif  // STRATA_TABLE_FORMAT_H_
