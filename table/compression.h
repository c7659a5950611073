// Block compression (docs/formats/table.md, "Compression"): the codecs of
// CompressionType behind one interface, and the rule for keeping a
// compressed block.
//
// A codec strata was built without (STRATA_WITH_SNAPPY / STRATA_WITH_ZLIB
// off) reports itself unsupported: CompressionSupported is false and
// compressing or decompressing with it returns NotSupported.
//
// Thread safety: all functions are safe from many threads.

#ifndef STRATA_TABLE_COMPRESSION_H_
#define STRATA_TABLE_COMPRESSION_H_

#include <cstddef>
#include <memory>
#include <string>

#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// "NoCompression", "Snappy", "Zlib"; "Unknown" for other values.
const char* CompressionTypeName(CompressionType type);

// Whether type is a known codec compiled into this build (kNoCompression
// always is).
bool CompressionSupported(CompressionType type);

// Compresses raw with type into *out (replacing it). NotSupported for a
// codec not built in, InvalidArgument for an unknown type.
Status CompressBlock(CompressionType type, const Slice& raw, std::string* out);

// Whether a block compressed from raw_size bytes to compressed_size bytes
// is worth storing compressed: it must save at least raw_size / 8.
bool GoodCompressionRatio(size_t compressed_size, size_t raw_size);

// The largest block a table may claim to decompress to.
enum : size_t { kMaxUncompressedBlockSize = size_t{1} << 30 };

// Decompresses a block stored with type. Never trusts the input: a
// malformed stream, or a claimed uncompressed size above
// kMaxUncompressedBlockSize, is Corruption; a codec not built in is
// NotSupported. On success *out holds *out_size bytes.
Status UncompressBlock(CompressionType type, const Slice& compressed,
                       std::unique_ptr<char[]>* out, size_t* out_size);

}  // namespace strata

#endif  // STRATA_TABLE_COMPRESSION_H_
