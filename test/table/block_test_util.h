// Helpers of the block suites.

#ifndef STRATA_TEST_TABLE_BLOCK_TEST_UTIL_H_
#define STRATA_TEST_TABLE_BLOCK_TEST_UTIL_H_

#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "table/block.h"

namespace strata {
namespace test {

// A Block owning a copy of bytes.
inline std::unique_ptr<Block> MakeBlock(const std::string& bytes) {
  std::unique_ptr<char[]> buf(new char[bytes.size()]);
  if (!bytes.empty()) std::memcpy(buf.get(), bytes.data(), bytes.size());
  return std::make_unique<Block>(BlockContents(std::move(buf), bytes.size()));
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_TABLE_BLOCK_TEST_UTIL_H_
