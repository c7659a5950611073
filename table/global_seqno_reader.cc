#include "table/global_seqno_reader.h"

#include <string>

namespace strata {

namespace {

// Rewrites the trailer of key (any sequence, type t) to (seqno, t).
void Renumber(const Slice& key, SequenceNumber seqno, std::string* out) {
  const Slice user = ExtractUserKey(key);
  out->assign(user.data(), user.size());
  char trailer[kInternalKeyTrailerSize];
  EncodeFixed64(trailer, PackSequenceAndType(seqno, ExtractValueType(key)));
  out->append(trailer, sizeof(trailer));
}

class GlobalSeqnoIterator final : public InternalIterator {
 public:
  GlobalSeqnoIterator(InternalIterator* iter, SequenceNumber seqno,
                      const InternalKeyComparator* icmp)
      : iter_(iter), seqno_(seqno), icmp_(icmp) {}

  bool Valid() const override { return iter_->Valid(); }
  void SeekToFirst() override {
    iter_->SeekToFirst();
    Update();
  }
  void SeekToLast() override {
    iter_->SeekToLast();
    Update();
  }
  void Seek(const Slice& target) override {
    // Every version of the target's user key, then past those that sort
    // before the target at the global number.
    const InternalKey first(ExtractUserKey(target), kMaxSequenceNumber,
                            kValueTypeForSeek);
    iter_->Seek(first.Encode());
    Update();
    while (iter_->Valid() && icmp_->Compare(key_, target) < 0) Next();
  }
  void SeekForPrev(const Slice& target) override {
    // (k, 0, kTypeDeletion) is the last internal key of user key k.
    const InternalKey last(ExtractUserKey(target), 0, kTypeDeletion);
    iter_->SeekForPrev(last.Encode());
    Update();
    while (iter_->Valid() && icmp_->Compare(key_, target) > 0) Prev();
  }
  void Next() override {
    iter_->Next();
    Update();
  }
  void Prev() override {
    iter_->Prev();
    Update();
  }
  void SetSeekConfinedToPrefix(bool confined) override {
    iter_->SetSeekConfinedToPrefix(confined);
  }
  Slice key() const override { return key_; }
  Slice value() const override { return iter_->value(); }
  Status status() const override { return iter_->status(); }

 private:
  void Update() {
    if (iter_->Valid()) Renumber(iter_->key(), seqno_, &key_);
  }

  std::unique_ptr<InternalIterator> iter_;
  const SequenceNumber seqno_;
  const InternalKeyComparator* const icmp_;
  std::string key_;
};

// Get's receiver, between the table and the caller's.
struct Renumbering {
  void* arg;
  GetEntryFunction handle_entry;
  SequenceNumber seqno;
  std::string key;
};

bool RenumberEntry(void* arg, const Slice& internal_key, const Slice& value,
                   CachePin* pin) {
  Renumbering* r = static_cast<Renumbering*>(arg);
  Renumber(internal_key, r->seqno, &r->key);
  return r->handle_entry(r->arg, r->key, value, pin);
}

}  // namespace

InternalIterator* NewGlobalSeqnoIterator(InternalIterator* iter,
                                         SequenceNumber global_seqno,
                                         const InternalKeyComparator* icmp) {
  return new GlobalSeqnoIterator(iter, global_seqno, icmp);
}

InternalIterator* GlobalSeqnoReader::NewIterator(
    const ReadOptions& read_options) {
  return NewGlobalSeqnoIterator(base_->NewIterator(read_options), global_seqno_,
                                icmp_);
}

InternalIterator* GlobalSeqnoReader::NewRangeTombstoneIterator(
    const ReadOptions& read_options) {
  InternalIterator* t = base_->NewRangeTombstoneIterator(read_options);
  return t == nullptr ? nullptr
                      : NewGlobalSeqnoIterator(t, global_seqno_, icmp_);
}

Status GlobalSeqnoReader::Get(const ReadOptions& read_options,
                              const Slice& internal_key, void* arg,
                              GetEntryFunction handle_entry) {
  if (ExtractSequence(internal_key) < global_seqno_) return Status::OK();
  Renumbering r{arg, handle_entry, global_seqno_, std::string()};
  return base_->Get(read_options, internal_key, &r, &RenumberEntry);
}

}  // namespace strata
