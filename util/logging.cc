#include "util/logging.h"

#include <cinttypes>
#include <cstdio>
#include <limits>

namespace strata {

void AppendNumberTo(std::string* str, uint64_t num) {
  char buf[30];
  std::snprintf(buf, sizeof(buf), "%" PRIu64, num);
  str->append(buf);
}

std::string NumberToString(uint64_t num) {
  std::string r;
  AppendNumberTo(&r, num);
  return r;
}

void AppendEscapedStringTo(std::string* str, const Slice& value) {
  for (size_t i = 0; i < value.size(); i++) {
    const char c = value[i];
    if (c >= ' ' && c <= '~') {
      str->push_back(c);
    } else {
      char buf[10];
      std::snprintf(buf, sizeof(buf), "\\x%02x",
                    static_cast<unsigned int>(static_cast<unsigned char>(c)));
      str->append(buf);
    }
  }
}

std::string EscapeString(const Slice& value) {
  std::string r;
  AppendEscapedStringTo(&r, value);
  return r;
}

bool ConsumeDecimalNumber(Slice* in, uint64_t* val) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t v = 0;
  size_t digits = 0;
  while (digits < in->size()) {
    const char c = (*in)[digits];
    if (c < '0' || c > '9') break;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (kMax - d) / 10) return false;  // would overflow
    v = v * 10 + d;
    digits++;
  }
  if (digits == 0) return false;
  *val = v;
  in->remove_prefix(digits);
  return true;
}

}  // namespace strata
