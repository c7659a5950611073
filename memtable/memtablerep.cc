#include "strata/memtablerep.h"

namespace strata {

// Out of line so the vtables and type information live in the library
// (exported from strata.dll): DB::Open recognizes a SkipListFactory by its
// type, also one a program built.
MemTableRepFactory::~MemTableRepFactory() = default;

SkipListFactory::SkipListFactory(size_t /*lookahead*/) {}
SkipListFactory::~SkipListFactory() = default;

}  // namespace strata
