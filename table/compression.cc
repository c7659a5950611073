// Compressed block formats (docs/formats/table.md, "Compression"):
//
//   kSnappyCompression: the snappy stream of the block, as snappy frames
//                       it (varint length, then literals and copies).
//   kZlibCompression:   varint32 uncompressed size | raw deflate stream
//
// Raw deflate has no length of its own; the prefix lets the reader refuse
// an oversized claim before allocating, and then insist the stream
// produces exactly that many bytes.

#include "table/compression.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <utility>

#include "port/compression.h"
#include "util/coding.h"

namespace strata {

namespace {

// No deflate stream decodes to more than 1032 bytes per input byte: a
// length/distance pair needs at least two bits and yields at most 258
// bytes. A larger claim is a lie, refused before allocating for it.
constexpr uint64_t kMaxDeflateRatio = 1032;

Status TooLarge(const char* codec, size_t size) {
  char buf[128];
  std::snprintf(buf, sizeof(buf),
                "claimed uncompressed size %" PRIu64 " exceeds the limit",
                static_cast<uint64_t>(size));
  return Status::Corruption(codec, buf);
}

bool KnownType(CompressionType type) {
  return type == kNoCompression || type == kSnappyCompression ||
         type == kZlibCompression;
}

Status Unsupported(CompressionType type) {
  return Status::NotSupported(CompressionTypeName(type),
                              "compression not built into this strata");
}

Status UncompressSnappy(const Slice& in, std::unique_ptr<char[]>* out,
                        size_t* out_size) {
  size_t size = 0;
  // One decoding pass: the header's length is bounded before allocating,
  // and the decoder checks the stream against it.
  if (!port::SnappyUncompressedLength(in.data(), in.size(), &size)) {
    return Status::Corruption("snappy block", "malformed stream");
  }
  if (size > kMaxUncompressedBlockSize) return TooLarge("snappy block", size);
  // A snappy tag of 3 bytes yields at most 64: a header claiming more than
  // that ratio is damage, caught before allocating for it.
  if (size > in.size() * 22 + 64) {
    return Status::Corruption("snappy block", "claims " + std::to_string(size) +
                                                  " bytes from " +
                                                  std::to_string(in.size()));
  }
  std::unique_ptr<char[]> buf(new char[size]);
  if (!port::SnappyUncompress(in.data(), in.size(), buf.get())) {
    return Status::Corruption("snappy block", "malformed stream");
  }
  *out = std::move(buf);
  *out_size = size;
  return Status::OK();
}

Status UncompressZlib(const Slice& in, std::unique_ptr<char[]>* out,
                      size_t* out_size) {
  Slice stream = in;
  uint32_t size = 0;
  if (!GetVarint32(&stream, &size)) {
    return Status::Corruption("zlib block", "bad uncompressed size prefix");
  }
  if (size > kMaxUncompressedBlockSize ||
      size > stream.size() * kMaxDeflateRatio) {
    return TooLarge("zlib block", size);
  }
  std::unique_ptr<char[]> buf(new char[size]);
  if (!port::ZlibUncompress(stream.data(), stream.size(), buf.get(), size)) {
    return Status::Corruption(
        "zlib block", "malformed stream or size differs from its prefix");
  }
  *out = std::move(buf);
  *out_size = size;
  return Status::OK();
}

}  // namespace

const char* CompressionTypeName(CompressionType type) {
  switch (type) {
    case kNoCompression:
      return "NoCompression";
    case kSnappyCompression:
      return "Snappy";
    case kZlibCompression:
      return "Zlib";
  }
  return "Unknown";
}

bool CompressionSupported(CompressionType type) {
  switch (type) {
    case kNoCompression:
      return true;
    case kSnappyCompression:
      return port::SnappySupported();
    case kZlibCompression:
      return port::ZlibSupported();
  }
  return false;
}

bool GoodCompressionRatio(size_t compressed_size, size_t raw_size) {
  return compressed_size <= raw_size - raw_size / 8;
}

Status CompressBlock(CompressionType type, const Slice& raw, std::string* out) {
  if (!KnownType(type)) {
    return Status::InvalidArgument("unknown compression type");
  }
  if (!CompressionSupported(type)) return Unsupported(type);
  if (raw.size() > kMaxUncompressedBlockSize) {
    // Readers refuse such blocks; never write one.
    return Status::InvalidArgument(CompressionTypeName(type),
                                   "block larger than the uncompressed limit");
  }
  out->clear();
  bool ok = true;
  switch (type) {
    case kNoCompression:
      out->assign(raw.data(), raw.size());
      break;
    case kSnappyCompression:
      ok = port::SnappyCompress(raw.data(), raw.size(), out);
      break;
    case kZlibCompression:
      PutVarint32(out, static_cast<uint32_t>(raw.size()));
      ok = port::ZlibCompress(raw.data(), raw.size(), out);
      break;
  }
  if (!ok) {
    out->clear();
    return Status::IOError(CompressionTypeName(type), "compression failed");
  }
  return Status::OK();
}

Status UncompressBlock(CompressionType type, const Slice& compressed,
                       std::unique_ptr<char[]>* out, size_t* out_size) {
  switch (type) {
    case kNoCompression: {
      std::unique_ptr<char[]> buf(new char[compressed.size()]);
      std::memcpy(buf.get(), compressed.data(), compressed.size());
      *out = std::move(buf);
      *out_size = compressed.size();
      return Status::OK();
    }
    case kSnappyCompression:
      if (!port::SnappySupported()) return Unsupported(type);
      return UncompressSnappy(compressed, out, out_size);
    case kZlibCompression:
      if (!port::ZlibSupported()) return Unsupported(type);
      return UncompressZlib(compressed, out, out_size);
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "unknown compression type %u",
                static_cast<unsigned>(type));
  return Status::Corruption(buf);
}

}  // namespace strata
