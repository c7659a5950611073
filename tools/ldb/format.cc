#include "tools/ldb/format.h"

#include <cstring>

namespace strata {
namespace ldb {

namespace {

// The value of a hex digit, or -1 if c is none.
int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string ToHex(const Slice& bytes) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string hex = "0x";
  hex.reserve(2 + 2 * bytes.size());
  for (size_t i = 0; i < bytes.size(); i++) {
    const unsigned char byte = static_cast<unsigned char>(bytes[i]);
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 0xF]);
  }
  return hex;
}

bool FromHex(const std::string& text, std::string* out, std::string* error) {
  const std::string prefix = "Invalid hex input " + text + ".  ";
  if (text.compare(0, 2, "0x") != 0) {
    *error = prefix + "Must start with 0x";
    return false;
  }
  if (text.size() % 2 != 0) {
    *error = prefix + "Must have an even number of hex digits";
    return false;
  }
  out->clear();
  out->reserve((text.size() - 2) / 2);
  for (size_t i = 2; i < text.size(); i += 2) {
    const int high = DigitValue(text[i]);
    const int low = DigitValue(text[i + 1]);
    if (high < 0 || low < 0) {
      const char bad = high < 0 ? text[i] : text[i + 1];
      *error = prefix + "'" + std::string(1, bad) + "' is not a hex digit";
      return false;
    }
    out->push_back(static_cast<char>(high << 4 | low));
  }
  return true;
}

void PrintCString(std::FILE* out, const Slice& text) {
  const void* nul = std::memchr(text.data(), '\0', text.size());
  const size_t n =
      nul == nullptr
          ? text.size()
          : static_cast<size_t>(static_cast<const char*>(nul) - text.data());
  std::fwrite(text.data(), 1, n, out);
}

}  // namespace ldb
}  // namespace strata
