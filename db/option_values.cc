#include "db/option_values.h"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace strata {

namespace {

struct CompressionName {
  CompressionType type;
  const char* name;
};
constexpr CompressionName kCompressionNames[] = {
    {kNoCompression, "kNoCompression"},
    {kSnappyCompression, "kSnappyCompression"},
    {kZlibCompression, "kZlibCompression"},
};

struct RecoveryName {
  WALRecoveryMode mode;
  const char* name;
};
constexpr RecoveryName kRecoveryNames[] = {
    {WALRecoveryMode::kTolerateCorruptedTailRecords,
     "kTolerateCorruptedTailRecords"},
    {WALRecoveryMode::kAbsoluteConsistency, "kAbsoluteConsistency"},
    {WALRecoveryMode::kPointInTimeRecovery, "kPointInTimeRecovery"},
    {WALRecoveryMode::kSkipAnyCorruptedRecords, "kSkipAnyCorruptedRecords"},
};

struct StyleName {
  CompactionStyle style;
  const char* name;
};
constexpr StyleName kStyleNames[] = {
    {kCompactionStyleLevel, "kCompactionStyleLevel"},
    {kCompactionStyleUniversal, "kCompactionStyleUniversal"},
    {kCompactionStyleFIFO, "kCompactionStyleFIFO"},
    {kCompactionStyleNone, "kCompactionStyleNone"},
};

// Decimal, whole text, no sign; false on overflow.
bool ParseUnsigned(const std::string& text, unsigned long long max,
                   unsigned long long* value) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || n > max) return false;
  *value = n;
  return true;
}

}  // namespace

bool ParseOptionValue(const std::string& text, bool* value) {
  if (text == "true" || text == "1") {
    *value = true;
  } else if (text == "false" || text == "0") {
    *value = false;
  } else {
    return false;
  }
  return true;
}

bool ParseOptionValue(const std::string& text, int* value) {
  const bool negative = !text.empty() && text[0] == '-';
  unsigned long long n = 0;
  const unsigned long long limit = negative
                                       ? 1ull + std::numeric_limits<int>::max()
                                       : std::numeric_limits<int>::max();
  if (!ParseUnsigned(negative ? text.substr(1) : text, limit, &n)) {
    return false;
  }
  *value = negative ? static_cast<int>(-static_cast<long long>(n))
                    : static_cast<int>(n);
  return true;
}

bool ParseOptionValue(const std::string& text, unsigned long* value) {
  unsigned long long n = 0;
  if (!ParseUnsigned(text, std::numeric_limits<unsigned long>::max(), &n)) {
    return false;
  }
  *value = static_cast<unsigned long>(n);
  return true;
}

bool ParseOptionValue(const std::string& text, unsigned long long* value) {
  return ParseUnsigned(text, std::numeric_limits<unsigned long long>::max(),
                       value);
}

bool ParseOptionValue(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double d = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(d)) return false;
  *value = d;
  return true;
}

bool ParseOptionValue(const std::string& text, CompressionType* value) {
  for (const CompressionName& c : kCompressionNames) {
    if (text == c.name) {
      *value = c.type;
      return true;
    }
  }
  return false;
}

bool ParseOptionValue(const std::string& text, WALRecoveryMode* value) {
  for (const RecoveryName& r : kRecoveryNames) {
    if (text == r.name) {
      *value = r.mode;
      return true;
    }
  }
  return false;
}

bool ParseOptionValue(const std::string& text, CompactionStyle* value) {
  for (const StyleName& n : kStyleNames) {
    if (text == n.name) {
      *value = n.style;
      return true;
    }
  }
  return false;
}

bool ParseOptionValue(const std::string& text,
                      std::vector<CompressionType>* value) {
  std::vector<CompressionType> result;
  size_t start = 0;
  while (start < text.size()) {
    size_t colon = text.find(':', start);
    if (colon == std::string::npos) colon = text.size();
    CompressionType type;
    if (!ParseOptionValue(text.substr(start, colon - start), &type)) {
      return false;
    }
    result.push_back(type);
    start = colon + 1;
  }
  *value = std::move(result);
  return true;
}

std::string PrintOptionValue(bool value) { return value ? "true" : "false"; }
std::string PrintOptionValue(int value) { return std::to_string(value); }
std::string PrintOptionValue(unsigned long value) {
  return std::to_string(value);
}
std::string PrintOptionValue(unsigned long long value) {
  return std::to_string(value);
}

// Six decimals as RocksDB writes them (10.000000) when that text reads
// back as the same value; otherwise (1e-9, 1e300) the shortest form of 17
// significant digits, which always does.
std::string PrintOptionValue(double value) {
  std::vector<char> buf(std::numeric_limits<double>::max_exponent10 + 32);
  std::snprintf(buf.data(), buf.size(), "%f", value);
  if (std::strtod(buf.data(), nullptr) != value) {
    std::snprintf(buf.data(), buf.size(), "%.17g", value);
  }
  return buf.data();
}

std::string PrintOptionValue(CompressionType value) {
  for (const CompressionName& c : kCompressionNames) {
    if (c.type == value) return c.name;
  }
  return std::to_string(static_cast<int>(value));
}

std::string PrintOptionValue(WALRecoveryMode value) {
  for (const RecoveryName& r : kRecoveryNames) {
    if (r.mode == value) return r.name;
  }
  return std::to_string(static_cast<int>(value));
}

std::string PrintOptionValue(CompactionStyle value) {
  for (const StyleName& n : kStyleNames) {
    if (n.style == value) return n.name;
  }
  return std::to_string(static_cast<int>(value));
}

std::string PrintOptionValue(const std::vector<CompressionType>& value) {
  std::string result;
  for (size_t i = 0; i < value.size(); i++) {
    if (i > 0) result += ':';
    result += PrintOptionValue(value[i]);
  }
  return result;
}

std::string OptionObjectId(const std::string& text) {
  if (text == "nullptr") return "";
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') {
    return text;
  }
  const std::string body = text.substr(1, text.size() - 2);
  size_t start = 0;
  while (start < body.size()) {
    size_t end = body.find(';', start);
    if (end == std::string::npos) end = body.size();
    const std::string pair = body.substr(start, end - start);
    if (pair.compare(0, 3, "id=") == 0) return pair.substr(3);
    start = end + 1;
  }
  return "";
}

}  // namespace strata
