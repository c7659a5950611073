#include "strata/memtablerep.h"

namespace strata {

// Out of line so the vtables and type information live in the library
// (exported from strata.dll): DB::Open recognizes a SkipListFactory or a
// VectorRepFactory by its type, also one a program built.
MemTableRepFactory::~MemTableRepFactory() = default;

SkipListFactory::SkipListFactory(size_t /*lookahead*/) {}
SkipListFactory::~SkipListFactory() = default;

VectorRepFactory::VectorRepFactory(size_t count) : count_(count) {}
VectorRepFactory::~VectorRepFactory() = default;

}  // namespace strata
