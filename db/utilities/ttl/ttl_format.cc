#include "db/utilities/ttl/ttl_format.h"

#include "util/coding.h"
#include "util/logging.h"

namespace strata {
namespace ttl {

int32_t NowSeconds(Env* env) {
  return static_cast<int32_t>(env->NowMicros() / 1000000);
}

void AppendTimestamp(const Slice& value, int32_t now, std::string* out) {
  out->assign(value.data(), value.size());
  char buf[kTimestampLength];
  EncodeFixed32(buf, static_cast<uint32_t>(now));
  out->append(buf, sizeof(buf));
}

Status CheckValue(const Slice& value) {
  if (value.size() < kTimestampLength) {
    return Status::Corruption(
        "value of a DBWithTTL shorter than its 4-byte timestamp: ",
        NumberToString(value.size()) + " bytes");
  }
  const int32_t ts = TimestampOf(value);
  if (ts < kMinTimestamp) {
    return Status::Corruption(
        "value of a DBWithTTL stamped before the TTL format existed: ",
        NumberToString(static_cast<uint64_t>(static_cast<uint32_t>(ts))));
  }
  return Status::OK();
}

int32_t TimestampOf(const Slice& value) {
  return static_cast<int32_t>(
      DecodeFixed32(value.data() + value.size() - kTimestampLength));
}

Slice StripTimestamp(const Slice& value) {
  return Slice(value.data(), value.size() - kTimestampLength);
}

bool IsStale(const Slice& value, int32_t ttl, int32_t now) {
  if (ttl <= 0) return false;
  return static_cast<int64_t>(TimestampOf(value)) + ttl < now;
}

}  // namespace ttl
}  // namespace strata
