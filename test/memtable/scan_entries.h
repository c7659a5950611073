// A memtable iterator's entries as text, for the memtable suites:
// "user_key@sequence=value " for each, forward from the first or backward
// from the last.

#ifndef STRATA_TEST_MEMTABLE_SCAN_ENTRIES_H_
#define STRATA_TEST_MEMTABLE_SCAN_ENTRIES_H_

#include <string>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "table/internal_iterator.h"

namespace strata {
namespace test {

inline std::string ScanEntries(InternalIterator* it, bool forward = true) {
  std::string out;
  if (forward) {
    it->SeekToFirst();
  } else {
    it->SeekToLast();
  }
  for (; it->Valid(); forward ? it->Next() : it->Prev()) {
    ParsedInternalKey parsed;
    EXPECT_TRUE(ParseInternalKey(it->key(), &parsed).ok());
    out += parsed.user_key.ToString() + "@" + std::to_string(parsed.sequence) +
           "=" + it->value().ToString() + " ";
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return out;
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_MEMTABLE_SCAN_ENTRIES_H_
