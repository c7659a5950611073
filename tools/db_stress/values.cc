#include "tools/db_stress/values.h"

#include "util/coding.h"

namespace strata {
namespace stress {

namespace {

constexpr char kValueTag = 'V';
constexpr char kOperandTag = 'D';
constexpr size_t kValueHeader = 1 + 4 + 8;

// Payload length and bytes vary with key and base so that a value of one
// key or base never passes for another's, and blocks compress somewhat.
uint32_t Mix(int64_t key, uint32_t base) {
  uint64_t x = static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ull + base;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  return static_cast<uint32_t>(x >> 32);
}

void AppendPayload(int64_t key, uint32_t base, std::string* out) {
  const uint32_t mix = Mix(key, base);
  const size_t len = 4 + mix % 64;
  for (size_t i = 0; i < len; i++) {
    out->push_back(static_cast<char>('a' + (mix + i * 7) % 26));
  }
}

bool ParseOperand(const Slice& op, uint32_t* delta) {
  if (op.size() != 5 || op[0] != kOperandTag) return false;
  *delta = DecodeFixed32(op.data() + 1);
  return true;
}

class StressMergeOperator : public MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in,
                   MergeOperationOutput* out) const override {
    int64_t key;
    if (!ParseKeyString(in.key, &key)) return false;
    uint32_t base = 0;
    bool deleted = true;
    if (in.existing_value != nullptr) {
      if (!ParseValue(*in.existing_value, key, &base)) return false;
      deleted = false;
    }
    for (const Slice& op : in.operand_list) {
      uint32_t delta;
      if (!ParseOperand(op, &delta)) return false;
      base = MergedBase(base, deleted, delta);
      deleted = false;
    }
    out->new_value = ValueFor(key, base);
    return true;
  }

  bool PartialMerge(const Slice& /*key*/, const Slice& left, const Slice& right,
                    std::string* new_value, Logger* /*logger*/) const override {
    uint32_t a, b;
    if (!ParseOperand(left, &a) || !ParseOperand(right, &b)) return false;
    *new_value = MergeOperand((a + b) % kValueBaseLimit);
    return true;
  }

  const char* Name() const override { return "db_stress_add"; }
};

}  // namespace

std::string KeyString(int64_t key) {
  std::string k(8, '\0');
  for (int i = 7; i >= 0; i--) {
    k[i] = static_cast<char>(key & 0xff);
    key >>= 8;
  }
  return k;
}

bool ParseKeyString(const Slice& k, int64_t* key) {
  if (k.size() != 8) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < 8; i++) v = (v << 8) | static_cast<uint8_t>(k[i]);
  *key = static_cast<int64_t>(v);
  return true;
}

std::string ValueFor(int64_t key, uint32_t base) {
  std::string v(1, kValueTag);
  PutFixed32(&v, base);
  PutFixed64(&v, static_cast<uint64_t>(key));
  AppendPayload(key, base, &v);
  return v;
}

bool ParseValue(const Slice& value, int64_t key, uint32_t* base) {
  if (value.size() < kValueHeader || value[0] != kValueTag) return false;
  const uint32_t b = DecodeFixed32(value.data() + 1);
  if (b >= kValueBaseLimit) return false;
  if (DecodeFixed64(value.data() + 5) != static_cast<uint64_t>(key)) {
    return false;
  }
  if (Slice(ValueFor(key, b)) != value) return false;
  *base = b;
  return true;
}

std::string MergeOperand(uint32_t delta) {
  std::string op(1, kOperandTag);
  PutFixed32(&op, delta);
  return op;
}

std::shared_ptr<MergeOperator> NewStressMergeOperator() {
  return std::make_shared<StressMergeOperator>();
}

}  // namespace stress
}  // namespace strata
