#include "strata/slice_transform.h"

#include <string>

namespace strata {

SliceTransform::~SliceTransform() = default;

namespace {

// Keys of at least prefix_len bytes share a prefix with every key that
// starts with the same prefix_len bytes; shorter keys have none.
class FixedPrefixTransform : public SliceTransform {
 public:
  explicit FixedPrefixTransform(size_t prefix_len)
      : prefix_len_(prefix_len),
        name_("strata.FixedPrefix." + std::to_string(prefix_len)) {}

  const char* Name() const override { return name_.c_str(); }

  Slice Transform(const Slice& key) const override {
    // Out of the domain (a caller's bug) yields the whole key rather than
    // a read past its end.
    return Slice(key.data(),
                 key.size() < prefix_len_ ? key.size() : prefix_len_);
  }

  bool InDomain(const Slice& key) const override {
    return key.size() >= prefix_len_;
  }

 private:
  const size_t prefix_len_;
  const std::string name_;
};

}  // namespace

const SliceTransform* NewFixedPrefixTransform(size_t prefix_len) {
  return new FixedPrefixTransform(prefix_len);
}

}  // namespace strata
