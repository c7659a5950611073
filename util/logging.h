// Helpers for human-readable text: numbers and escaped bytes for messages,
// decimal parsing for file names, and the engine's log macros, which write
// "[file.cc:123] message" to an info_log at a level.

#ifndef STRATA_UTIL_LOGGING_H_
#define STRATA_UTIL_LOGGING_H_

#include <cstdint>
#include <string>

#include "strata/env.h"
#include "strata/slice.h"

namespace strata {

void AppendNumberTo(std::string* str, uint64_t num);
std::string NumberToString(uint64_t num);

// Printable bytes as they are; others as \xNN.
void AppendEscapedStringTo(std::string* str, const Slice& value);
std::string EscapeString(const Slice& value);

// Parses a decimal number at the front of *in and removes it. False if
// there are no digits or the number overflows uint64_t.
bool ConsumeDecimalNumber(Slice* in, uint64_t* val);

namespace internal {
// The part of a path after its last '/' or '\'.
constexpr const char* Basename(const char* path) {
  const char* base = path;
  for (const char* p = path; *p != '\0'; p++) {
    if (*p == '/' || *p == '\\') base = p + 1;
  }
  return base;
}
}  // namespace internal

}  // namespace strata

#define STRATA_LOG_AT(level, logger, fmt, ...)                    \
  ::strata::Log((level), (logger), "[%s:%d] " fmt,                \
                ::strata::internal::Basename(__FILE__), __LINE__, \
                ##__VA_ARGS__)

#define STRATA_LOG_DEBUG(logger, ...) \
  STRATA_LOG_AT(::strata::DEBUG_LEVEL, logger, __VA_ARGS__)
#define STRATA_LOG_INFO(logger, ...) \
  STRATA_LOG_AT(::strata::INFO_LEVEL, logger, __VA_ARGS__)
#define STRATA_LOG_WARN(logger, ...) \
  STRATA_LOG_AT(::strata::WARN_LEVEL, logger, __VA_ARGS__)
#define STRATA_LOG_ERROR(logger, ...) \
  STRATA_LOG_AT(::strata::ERROR_LEVEL, logger, __VA_ARGS__)
#define STRATA_LOG_FATAL(logger, ...) \
  STRATA_LOG_AT(::strata::FATAL_LEVEL, logger, __VA_ARGS__)
#define STRATA_LOG_HEADER(logger, ...) \
  STRATA_LOG_AT(::strata::HEADER_LEVEL, logger, __VA_ARGS__)

#endif  // STRATA_UTIL_LOGGING_H_
