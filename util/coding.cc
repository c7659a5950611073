#include "util/coding.h"

namespace strata {

void PutFixed32(std::string* dst, uint32_t value) {
  char buf[sizeof(value)];
  EncodeFixed32(buf, value);
  dst->append(buf, sizeof(buf));
}

void PutFixed64(std::string* dst, uint64_t value) {
  char buf[sizeof(value)];
  EncodeFixed64(buf, value);
  dst->append(buf, sizeof(buf));
}

bool GetFixed32(Slice* input, uint32_t* value) {
  if (input->size() < sizeof(uint32_t)) return false;
  *value = DecodeFixed32(input->data());
  input->remove_prefix(sizeof(uint32_t));
  return true;
}

bool GetFixed64(Slice* input, uint64_t* value) {
  if (input->size() < sizeof(uint64_t)) return false;
  *value = DecodeFixed64(input->data());
  input->remove_prefix(sizeof(uint64_t));
  return true;
}

char* EncodeVarint32(char* dst, uint32_t value) {
  return EncodeVarint64(dst, value);
}

char* EncodeVarint64(char* dst, uint64_t value) {
  uint8_t* p = reinterpret_cast<uint8_t*>(dst);
  while (value >= 0x80) {
    *p++ = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  *p++ = static_cast<uint8_t>(value);
  return reinterpret_cast<char*>(p);
}

void PutVarint32(std::string* dst, uint32_t value) {
  if (value < 0x80) {  // the common case: small lengths and counts
    dst->push_back(static_cast<char>(value));
    return;
  }
  char buf[kMaxVarint32Length];
  char* end = EncodeVarint32(buf, value);
  dst->append(buf, static_cast<size_t>(end - buf));
}

void PutVarint64(std::string* dst, uint64_t value) {
  if (value < 0x80) {
    dst->push_back(static_cast<char>(value));
    return;
  }
  char buf[kMaxVarint64Length];
  char* end = EncodeVarint64(buf, value);
  dst->append(buf, static_cast<size_t>(end - buf));
}

int VarintLength(uint64_t value) {
  int len = 1;
  while (value >= 0x80) {
    value >>= 7;
    len++;
  }
  return len;
}

namespace {

// Shared decoder: at most max_bytes bytes; the last one may only carry the
// bits that still fit in a value of value_bits bits.
const char* DecodeVarint(const char* p, const char* limit, int max_bytes,
                         int value_bits, uint64_t* value) {
  uint64_t result = 0;
  for (int i = 0; i < max_bytes && p < limit; i++) {
    const uint64_t byte = static_cast<uint8_t>(*p++);
    const int shift = 7 * i;
    if (i == max_bytes - 1 && (byte >> (value_bits - shift)) != 0) {
      return nullptr;  // more bits than the type holds, or a continuation
    }
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return p;
    }
  }
  return nullptr;
}

}  // namespace

const char* GetVarint32PtrFallback(const char* p, const char* limit,
                                   uint32_t* value) {
  uint64_t v = 0;
  const char* q = DecodeVarint(p, limit, kMaxVarint32Length, 32, &v);
  if (q != nullptr) *value = static_cast<uint32_t>(v);
  return q;
}

const char* GetVarint64PtrFallback(const char* p, const char* limit,
                                   uint64_t* value) {
  return DecodeVarint(p, limit, kMaxVarint64Length, 64, value);
}

bool GetVarint32(Slice* input, uint32_t* value) {
  const char* p = input->data();
  const char* limit = p + input->size();
  const char* q = GetVarint32Ptr(p, limit, value);
  if (q == nullptr) return false;
  input->remove_prefix(static_cast<size_t>(q - p));
  return true;
}

bool GetVarint64(Slice* input, uint64_t* value) {
  const char* p = input->data();
  const char* limit = p + input->size();
  const char* q = GetVarint64Ptr(p, limit, value);
  if (q == nullptr) return false;
  input->remove_prefix(static_cast<size_t>(q - p));
  return true;
}

void PutLengthPrefixedSlice(std::string* dst, const Slice& value) {
  PutVarint32(dst, static_cast<uint32_t>(value.size()));
  dst->append(value.data(), value.size());
}

const char* GetLengthPrefixedSlicePtr(const char* p, const char* limit,
                                      Slice* result) {
  uint32_t len = 0;
  p = GetVarint32Ptr(p, limit, &len);
  if (p == nullptr) return nullptr;
  if (len > static_cast<size_t>(limit - p)) return nullptr;
  *result = Slice(p, len);
  return p + len;
}

bool GetLengthPrefixedSlice(Slice* input, Slice* result) {
  const char* p = input->data();
  const char* limit = p + input->size();
  const char* q = GetLengthPrefixedSlicePtr(p, limit, result);
  if (q == nullptr) return false;
  input->remove_prefix(static_cast<size_t>(q - p));
  return true;
}

}  // namespace strata
