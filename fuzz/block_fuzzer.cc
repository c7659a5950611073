// One block (table/block.h) over arbitrary bytes: the restart array
// check, then iterators walking it both ways and seeking, as a data block
// (keys ordered as a table orders them, damaged short keys included) or
// as an index block with its user-key prefix array.
//
// Input: one byte of settings, one byte n, n bytes of a seek target, then
// the block (entries and restart array, no trailer). Settings bit 0:
// order keys bytewise instead of as internal keys; bit 1: build the
// prefix array of an index block first.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "fuzz/fuzz_util.h"
#include "strata/comparator.h"
#include "table/block.h"
#include "table/block_based_table_reader.h"
#include "table/internal_iterator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  fuzz::FuzzInput input(data, size);
  const uint8_t settings = input.TakeByte();
  const std::string target = input.Take(input.TakeByte()).ToString();
  // The block gets its own allocation, so that ASan sees any read past it.
  const Slice rest = input.Rest();
  std::unique_ptr<char[]> bytes(new char[rest.size()]);
  if (!rest.empty()) memcpy(bytes.get(), rest.data(), rest.size());
  Block block(BlockContents(std::move(bytes), rest.size()));
  block.status();
  block.usable_size();
  if (settings & 2) block.BuildUserKeyPrefixes();

  const InternalKeyComparator icmp(BytewiseComparator());
  const TableKeyComparator table_cmp(&icmp);
  const Comparator* cmp = (settings & 1)
                              ? BytewiseComparator()
                              : static_cast<const Comparator*>(&table_cmp);
  std::unique_ptr<InternalIterator> it(
      block.NewIterator(cmp, "/000009.sst", 4096));
  // Copies of every key and value: ASan sees a slice outside the block.
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    it->key().ToString();
    it->value().ToString();
  }
  it->status().ToString();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    it->key().ToString();
  }
  const LookupKey lookup(target, kMaxSequenceNumber);
  for (const Slice& key : {Slice(target), lookup.internal_key()}) {
    it->Seek(key);
    if (it->Valid()) it->Next();
    it->SeekForPrev(key);
    if (it->Valid()) it->Prev();
  }
  it->status().ToString();
  return 0;
}
