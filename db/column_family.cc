// The public column-family declarations of strata/db.h that need a
// definition of their own.

#include "strata/db.h"

namespace strata {

const std::string kDefaultColumnFamilyName("default");

ColumnFamilyHandle::~ColumnFamilyHandle() = default;

}  // namespace strata
