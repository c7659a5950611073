// Out-of-line destructors of the table interfaces (one home for their
// vtables).

#include "strata/table.h"
#include "table/table_builder.h"
#include "table/table_reader.h"

namespace strata {

TableFactory::~TableFactory() = default;
TableReader::~TableReader() = default;
TableBuilder::~TableBuilder() = default;

}  // namespace strata
