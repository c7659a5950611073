#include "table/two_level_iterator.h"

#include <memory>
#include <string>
#include <utility>

namespace strata {

namespace {

// Invariant: data_ (when set) iterates the block named by the index entry
// the index iterator is on, and was made from block_handle_. Valid() only
// on an entry of data_. An error stops the walk where it happened: the
// skip loops never step past a block whose iterator failed, so status()
// reports it until the next Seek* moves elsewhere.
class TwoLevelIterator final : public InternalIterator {
 public:
  TwoLevelIterator(InternalIterator* index_iter,
                   BlockIteratorFunction block_function)
      : index_(index_iter), block_function_(std::move(block_function)) {}

  bool Valid() const override { return data_ != nullptr && data_->Valid(); }
  Slice key() const override { return data_->key(); }
  Slice value() const override { return data_->value(); }

  Status status() const override {
    Status s = index_->status();
    if (s.ok() && data_ != nullptr) s = data_->status();
    return s;
  }

  void SeekToFirst() override {
    index_->SeekToFirst();
    InitDataBlock();
    if (data_ != nullptr) data_->SeekToFirst();
    SkipEmptyBlocksForward();
  }

  void SeekToLast() override {
    index_->SeekToLast();
    InitDataBlock();
    if (data_ != nullptr) data_->SeekToLast();
    SkipEmptyBlocksBackward();
  }

  void Seek(const Slice& target) override {
    // The first index key >= target names the first block that may hold
    // an entry >= target.
    index_->Seek(target);
    InitDataBlock();
    if (data_ != nullptr) data_->Seek(target);
    SkipEmptyBlocksForward();
  }

  void SeekForPrev(const Slice& target) override {
    // The last entry <= target is in the block Seek would pick, or, if
    // that block's entries are all > target, in an earlier one. With no
    // index key >= target every entry is <= target.
    index_->Seek(target);
    if (!index_->Valid() && index_->status().ok()) {
      index_->SeekToLast();
      InitDataBlock();
      if (data_ != nullptr) data_->SeekToLast();
    } else {
      InitDataBlock();
      if (data_ != nullptr) data_->SeekForPrev(target);
    }
    SkipEmptyBlocksBackward();
  }

  void Next() override {
    data_->Next();
    SkipEmptyBlocksForward();
  }

  void Prev() override {
    data_->Prev();
    SkipEmptyBlocksBackward();
  }

 private:
  // Whether the walk may move on to the next block: the current one is
  // exhausted without error.
  bool BlockExhausted() const {
    return data_ == nullptr || (!data_->Valid() && data_->status().ok());
  }

  // Moves the index forward (or back) past exhausted blocks, positioning
  // each new block at its first (last) entry.
  void SkipEmptyBlocks(bool forward) {
    while (BlockExhausted()) {
      if (!index_->Valid()) {
        SetDataIterator(nullptr);
        return;
      }
      if (forward) {
        index_->Next();
      } else {
        index_->Prev();
      }
      InitDataBlock();
      if (data_ == nullptr) continue;
      if (forward) {
        data_->SeekToFirst();
      } else {
        data_->SeekToLast();
      }
    }
  }
  void SkipEmptyBlocksForward() { SkipEmptyBlocks(true); }
  void SkipEmptyBlocksBackward() { SkipEmptyBlocks(false); }

  void SetDataIterator(InternalIterator* iter) {
    data_.reset(iter);
    if (iter == nullptr) block_handle_.clear();
  }

  // Makes data_ the iterator of the block the index is on (none when the
  // index is not Valid). A healthy iterator of the same block is reused.
  void InitDataBlock() {
    if (!index_->Valid()) {
      SetDataIterator(nullptr);
      return;
    }
    const Slice handle = index_->value();
    if (data_ != nullptr && data_->status().ok() &&
        handle.compare(block_handle_) == 0) {
      return;
    }
    SetDataIterator(block_function_(handle));
    block_handle_.assign(handle.data(), handle.size());
  }

  std::unique_ptr<InternalIterator> index_;
  const BlockIteratorFunction block_function_;
  std::unique_ptr<InternalIterator> data_;
  std::string block_handle_;  // the index value data_ was made from
};

}  // namespace

InternalIterator* NewTwoLevelIterator(InternalIterator* index_iter,
                                      BlockIteratorFunction block_function) {
  return new TwoLevelIterator(index_iter, std::move(block_function));
}

}  // namespace strata
