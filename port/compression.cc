#include "port/compression.h"

#include <cstdint>
#include <limits>

#if defined(STRATA_HAVE_SNAPPY)
#include <snappy.h>
#endif
#if defined(STRATA_HAVE_ZLIB)
#include <zlib.h>
#endif

namespace strata {
namespace port {

#if defined(STRATA_HAVE_SNAPPY)

bool SnappySupported() { return true; }

bool SnappyCompress(const char* input, size_t length, std::string* output) {
  const size_t start = output->size();
  output->resize(start + snappy::MaxCompressedLength(length));
  size_t written = 0;
  snappy::RawCompress(input, length, &(*output)[start], &written);
  output->resize(start + written);
  return true;
}

bool SnappyUncompressedLength(const char* input, size_t length,
                              size_t* result) {
  return snappy::GetUncompressedLength(input, length, result);
}

bool SnappyUncompress(const char* input, size_t length, char* output) {
  return snappy::RawUncompress(input, length, output);
}

#else  // !STRATA_HAVE_SNAPPY

bool SnappySupported() { return false; }
bool SnappyCompress(const char*, size_t, std::string*) { return false; }
bool SnappyUncompressedLength(const char*, size_t, size_t*) { return false; }
bool SnappyUncompress(const char*, size_t, char*) { return false; }

#endif  // STRATA_HAVE_SNAPPY

#if defined(STRATA_HAVE_ZLIB)

namespace {

// Negative window bits select a raw deflate stream: the block trailer
// already carries a checksum, so zlib's header and adler32 would be waste.
constexpr int kRawDeflateWindowBits = -15;
constexpr int kMemLevel = 8;

bool FitsUInt(size_t n) { return n <= std::numeric_limits<uInt>::max(); }

}  // namespace

bool ZlibSupported() { return true; }

bool ZlibCompress(const char* input, size_t length, std::string* output) {
  if (!FitsUInt(length)) return false;
  z_stream stream = {};
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED,
                   kRawDeflateWindowBits, kMemLevel,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return false;
  }
  const size_t start = output->size();
  const uLong bound = deflateBound(&stream, static_cast<uLong>(length));
  output->resize(start + bound);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input));
  stream.avail_in = static_cast<uInt>(length);
  stream.next_out = reinterpret_cast<Bytef*>(&(*output)[start]);
  stream.avail_out = static_cast<uInt>(bound);
  // deflateBound leaves room for the whole stream: one call finishes it.
  const int rc = deflate(&stream, Z_FINISH);
  output->resize(start + stream.total_out);
  deflateEnd(&stream);
  return rc == Z_STREAM_END;
}

bool ZlibUncompress(const char* input, size_t length, char* output,
                    size_t output_length) {
  if (!FitsUInt(length) || !FitsUInt(output_length)) return false;
  z_stream stream = {};
  if (inflateInit2(&stream, kRawDeflateWindowBits) != Z_OK) return false;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input));
  stream.avail_in = static_cast<uInt>(length);
  stream.next_out = reinterpret_cast<Bytef*>(output);
  stream.avail_out = static_cast<uInt>(output_length);
  int rc = inflate(&stream, Z_FINISH);
  if (rc != Z_STREAM_END && stream.avail_out == 0) {
    // The output is full but the stream has not ended: either only its
    // end-of-block code is left, or it decodes to more than claimed. One
    // spare byte of room tells which (total_out then exceeds the claim).
    Bytef spare;
    stream.next_out = &spare;
    stream.avail_out = 1;
    rc = inflate(&stream, Z_FINISH);
  }
  const bool ok = rc == Z_STREAM_END && stream.total_out == output_length &&
                  stream.avail_in == 0;
  inflateEnd(&stream);
  return ok;
}

#else  // !STRATA_HAVE_ZLIB

bool ZlibSupported() { return false; }
bool ZlibCompress(const char*, size_t, std::string*) { return false; }
bool ZlibUncompress(const char*, size_t, char*, size_t) { return false; }

#endif  // STRATA_HAVE_ZLIB

}  // namespace port
}  // namespace strata
