// The value format of DBWithTTL (docs/formats/ttl.md):
//
//   +----------------------+--------------------------------+
//   | user value (n bytes) | write time: fixed32 LE seconds |
//   +----------------------+--------------------------------+
//
// The time is the Env's clock in whole seconds since the Unix epoch when
// the value (or merge operand, or merge result) was written, as a signed
// 32-bit number, as RocksDB's utilities/ttl stores it. A value is expired
// once write time + ttl < now, for a ttl > 0.
//
// Thread safety: plain functions.

#ifndef STRATA_DB_UTILITIES_TTL_TTL_FORMAT_H_
#define STRATA_DB_UTILITIES_TTL_TTL_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "strata/env.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {
namespace ttl {

constexpr size_t kTimestampLength = 4;
// RocksDB's TTL feature dates from this time (2013-05-10): a timestamp
// before it cannot have been written by DBWithTTL.
constexpr int32_t kMinTimestamp = 1368146402;

// Env's clock in whole seconds.
int32_t NowSeconds(Env* env);

// *out = value followed by now's timestamp.
void AppendTimestamp(const Slice& value, int32_t now, std::string* out);

// Corruption if value cannot be a DBWithTTL value (shorter than the
// timestamp, or stamped before kMinTimestamp).
Status CheckValue(const Slice& value);

// REQUIRES: CheckValue(value) is OK.
int32_t TimestampOf(const Slice& value);
Slice StripTimestamp(const Slice& value);

// Whether value (with its timestamp) has expired at now under ttl.
// REQUIRES: CheckValue(value) is OK.
bool IsStale(const Slice& value, int32_t ttl, int32_t now);

}  // namespace ttl
}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TTL_TTL_FORMAT_H_
