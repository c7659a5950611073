// VectorIterator: an InternalIterator over key/value pairs held in memory,
// sorted by a comparator — a stand-in for a memtable or table in tests of
// the iterators built on top of them.

#ifndef STRATA_TEST_UTIL_VECTOR_ITERATOR_H_
#define STRATA_TEST_UTIL_VECTOR_ITERATOR_H_

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "strata/comparator.h"
#include "table/internal_iterator.h"

namespace strata {
namespace test {

class VectorIterator : public InternalIterator {
 public:
  using Entries = std::vector<std::pair<std::string, std::string>>;

  VectorIterator(const Comparator* cmp, Entries entries)
      : cmp_(cmp), entries_(std::move(entries)), pos_(entries_.size()) {
    std::sort(entries_.begin(), entries_.end(),
              [this](const auto& a, const auto& b) {
                return cmp_->Compare(a.first, b.first) < 0;
              });
  }

  bool Valid() const override { return pos_ < entries_.size(); }
  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override {
    pos_ = entries_.empty() ? entries_.size() : entries_.size() - 1;
  }
  void Seek(const Slice& target) override {
    pos_ = 0;
    while (pos_ < entries_.size() &&
           cmp_->Compare(entries_[pos_].first, target) < 0) {
      pos_++;
    }
  }
  void SeekForPrev(const Slice& target) override {
    pos_ = entries_.size();  // invalid unless an entry <= target exists
    for (size_t i = 0; i < entries_.size(); i++) {
      if (cmp_->Compare(entries_[i].first, target) > 0) break;
      pos_ = i;
    }
  }
  void Next() override { pos_++; }
  void Prev() override {
    pos_ = pos_ == 0 || pos_ > entries_.size() ? entries_.size() : pos_ - 1;
  }
  Slice key() const override { return entries_[pos_].first; }
  Slice value() const override { return entries_[pos_].second; }
  Status status() const override { return Status::OK(); }

 private:
  const Comparator* const cmp_;
  Entries entries_;
  size_t pos_;
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_UTIL_VECTOR_ITERATOR_H_
