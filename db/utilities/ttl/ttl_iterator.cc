// The iterator of a DBWithTTL family: the inner DB's, without the values
// expired when it was created, and with the stamps stripped.

#include <memory>

#include "db/utilities/ttl/db_ttl_impl.h"
#include "db/utilities/ttl/ttl_format.h"

namespace strata {

namespace {

class TtlIterator : public Iterator {
 public:
  TtlIterator(Iterator* base, int32_t ttl, int32_t now)
      : base_(base), ttl_(ttl), now_(now) {}

  bool Valid() const override { return status_.ok() && base_->Valid(); }
  void SeekToFirst() override {
    base_->SeekToFirst();
    SkipExpired(true);
  }
  void SeekToLast() override {
    base_->SeekToLast();
    SkipExpired(false);
  }
  void Seek(const Slice& target) override {
    base_->Seek(target);
    SkipExpired(true);
  }
  void SeekForPrev(const Slice& target) override {
    base_->SeekForPrev(target);
    SkipExpired(false);
  }
  void Next() override {
    base_->Next();
    SkipExpired(true);
  }
  void Prev() override {
    base_->Prev();
    SkipExpired(false);
  }
  Slice key() const override { return base_->key(); }
  Slice value() const override { return ttl::StripTimestamp(base_->value()); }
  Status status() const override {
    return status_.ok() ? base_->status() : status_;
  }

 private:
  // Moves past expired values; a value without a valid stamp stops the
  // iterator with Corruption.
  void SkipExpired(bool forward) {
    status_ = Status::OK();
    while (base_->Valid()) {
      const Slice v = base_->value();
      status_ = ttl::CheckValue(v);
      if (!status_.ok() || !ttl::IsStale(v, ttl_, now_)) return;
      if (forward) {
        base_->Next();
      } else {
        base_->Prev();
      }
    }
  }

  const std::unique_ptr<Iterator> base_;
  const int32_t ttl_;
  const int32_t now_;
  Status status_;
};

}  // namespace

Iterator* NewTtlIterator(Iterator* base, int32_t ttl, int32_t now) {
  return new TtlIterator(base, ttl, now);
}

}  // namespace strata
