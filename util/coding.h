// Encoding of integers and strings into bytes, as every strata format uses.
//
//   fixed32 / fixed64   little-endian, 4 / 8 bytes
//   varint32 / varint64 7 bits a byte, low bits first; the high bit of a
//                       byte says another follows (at most 5 / 10 bytes)
//   length-prefixed     varint32 length, then the bytes
//
// Decoders never read past the input they are given: a truncated or
// overlong encoding makes them return false / nullptr, so callers can report
// Corruption instead of reading out of bounds.

#ifndef STRATA_UTIL_CODING_H_
#define STRATA_UTIL_CODING_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "strata/slice.h"

namespace strata {

// Maximum encoded lengths.
constexpr int kMaxVarint32Length = 5;
constexpr int kMaxVarint64Length = 10;

// ---- Fixed-width ----------------------------------------------------------

inline void EncodeFixed32(char* dst, uint32_t value) {
  uint8_t* const b = reinterpret_cast<uint8_t*>(dst);
  b[0] = static_cast<uint8_t>(value);
  b[1] = static_cast<uint8_t>(value >> 8);
  b[2] = static_cast<uint8_t>(value >> 16);
  b[3] = static_cast<uint8_t>(value >> 24);
}

inline void EncodeFixed64(char* dst, uint64_t value) {
  EncodeFixed32(dst, static_cast<uint32_t>(value));
  EncodeFixed32(dst + 4, static_cast<uint32_t>(value >> 32));
}

inline uint32_t DecodeFixed32(const char* ptr) {
  const uint8_t* const b = reinterpret_cast<const uint8_t*>(ptr);
  return static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
         (static_cast<uint32_t>(b[2]) << 16) |
         (static_cast<uint32_t>(b[3]) << 24);
}

inline uint64_t DecodeFixed64(const char* ptr) {
  return static_cast<uint64_t>(DecodeFixed32(ptr)) |
         (static_cast<uint64_t>(DecodeFixed32(ptr + 4)) << 32);
}

void PutFixed32(std::string* dst, uint32_t value);
void PutFixed64(std::string* dst, uint64_t value);

// Consume a fixed-width value from the front of *input. False (input
// unchanged) if it is too short.
bool GetFixed32(Slice* input, uint32_t* value);
bool GetFixed64(Slice* input, uint64_t* value);

// ---- Varint -----------------------------------------------------------------

// Write a varint at dst; return the byte after it.
// REQUIRES: dst has room for kMaxVarint32Length / kMaxVarint64Length bytes.
char* EncodeVarint32(char* dst, uint32_t value);
char* EncodeVarint64(char* dst, uint64_t value);

void PutVarint32(std::string* dst, uint32_t value);
void PutVarint64(std::string* dst, uint64_t value);

// Bytes the varint encoding of value takes.
int VarintLength(uint64_t value);

// Decode a varint from [p, limit). Return the byte after it, or nullptr if
// the encoding is truncated or longer than the type allows.
const char* GetVarint32PtrFallback(const char* p, const char* limit,
                                   uint32_t* value);
inline const char* GetVarint32Ptr(const char* p, const char* limit,
                                  uint32_t* value) {
  // Fast path: one byte, by far the most common case (small lengths).
  if (p < limit) {
    const uint32_t result = static_cast<uint8_t>(*p);
    if ((result & 128) == 0) {
      *value = result;
      return p + 1;
    }
  }
  return GetVarint32PtrFallback(p, limit, value);
}
const char* GetVarint64PtrFallback(const char* p, const char* limit,
                                   uint64_t* value);
inline const char* GetVarint64Ptr(const char* p, const char* limit,
                                  uint64_t* value) {
  if (p < limit) {
    const uint64_t result = static_cast<uint8_t>(*p);
    if ((result & 128) == 0) {
      *value = result;
      return p + 1;
    }
  }
  return GetVarint64PtrFallback(p, limit, value);
}

// Consume a varint from the front of *input. False (input unchanged) if it
// is malformed.
bool GetVarint32(Slice* input, uint32_t* value);
bool GetVarint64(Slice* input, uint64_t* value);

// ---- Length-prefixed slices -------------------------------------------------

void PutLengthPrefixedSlice(std::string* dst, const Slice& value);

// Consume a length-prefixed slice from *input; *result points into the
// input's bytes. False (input unchanged) if the length or bytes are missing.
bool GetLengthPrefixedSlice(Slice* input, Slice* result);

// Decode a length-prefixed slice at [p, limit); nullptr if malformed.
const char* GetLengthPrefixedSlicePtr(const char* p, const char* limit,
                                      Slice* result);

}  // namespace strata

#endif  // STRATA_UTIL_CODING_H_
