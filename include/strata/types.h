// Basic types shared by the public headers.

#ifndef STRATA_INCLUDE_TYPES_H_
#define STRATA_INCLUDE_TYPES_H_

#include <cstdint>

namespace strata {

// A write's position in the DB's history. Every key written gets the next
// number; a read at sequence s sees exactly the writes numbered <= s.
// Only the low 56 bits are used (the top byte of an internal key's trailer
// holds the value type).
using SequenceNumber = uint64_t;

}  // namespace strata

#endif  // STRATA_INCLUDE_TYPES_H_
