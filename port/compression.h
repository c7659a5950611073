// The compression libraries strata may be built with, behind plain
// functions: snappy (its own framed format) and zlib (raw deflate
// streams). This file pair is the only place that knows whether a codec
// was compiled in (STRATA_HAVE_SNAPPY / STRATA_HAVE_ZLIB, set by CMake);
// table/compression.cc builds the block formats on top of it.
//
// Every function reports a codec not compiled in by returning false, so
// callers test *Supported() first to tell that apart from bad input.
// Decoders treat the input as hostile: they never read past it, never
// write past the output length they are given, and return false on any
// malformed stream.
//
// Thread safety: all functions are safe from many threads.

#ifndef STRATA_PORT_COMPRESSION_H_
#define STRATA_PORT_COMPRESSION_H_

#include <cstddef>
#include <string>

namespace strata {
namespace port {

bool SnappySupported();
bool ZlibSupported();

// Appends the snappy compression of input to *output.
bool SnappyCompress(const char* input, size_t length, std::string* output);

// The length input's header says it decodes to (false if the header is
// malformed). Only the header is read: the caller bounds the length before
// allocating, and SnappyUncompress checks the stream as it decodes.
bool SnappyUncompressedLength(const char* input, size_t length, size_t* result);

// Decodes input into output, which has room for the length
// SnappyUncompressedLength gave; false if the stream is malformed or does
// not decode to exactly that length (nothing is written past it).
bool SnappyUncompress(const char* input, size_t length, char* output);

// Appends the raw deflate stream (no zlib or gzip header) of input to
// *output. REQUIRES: length < 4 GiB.
bool ZlibCompress(const char* input, size_t length, std::string* output);

// Inflates the raw deflate stream in input into output, succeeding only
// if the stream is well formed, decodes to exactly output_length bytes
// and ends exactly at the end of input.
bool ZlibUncompress(const char* input, size_t length, char* output,
                    size_t output_length);

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_COMPRESSION_H_
