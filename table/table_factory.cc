// Out-of-line destructors of the table interfaces (one home for their
// vtables; TableReader's is in table/table_reader.cc).

#include "strata/table.h"
#include "table/table_builder.h"

namespace strata {

TableFactory::~TableFactory() = default;

const void* TableFactory::GetOptionsPtr(const std::string& /*name*/) const {
  return nullptr;
}
TableBuilder::~TableBuilder() = default;

}  // namespace strata
