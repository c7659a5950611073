// TableReader's out-of-line members: the destructor (the vtable's home)
// and the MultiGet of readers that have no batched lookup of their own.

#include "table/table_reader.h"

namespace strata {

namespace {

// Passes a lookup's entries on and notes when the receiver is done.
struct ForwardState {
  TableLookup* lookup;
  GetEntryFunction handle_entry;
};

bool ForwardEntry(void* arg, const Slice& internal_key, const Slice& value,
                  CachePin* pin) {
  ForwardState* state = static_cast<ForwardState*>(arg);
  if (state->handle_entry(state->lookup->arg, internal_key, value, pin)) {
    return true;
  }
  state->lookup->done = true;
  return false;
}

}  // namespace

TableReader::~TableReader() = default;

void TableReader::MultiGet(const ReadOptions& read_options,
                           TableLookup* const* lookups, size_t n,
                           GetEntryFunction handle_entry) {
  for (size_t i = 0; i < n; i++) {
    TableLookup* lookup = lookups[i];
    if (lookup->done) continue;
    ForwardState state{lookup, handle_entry};
    Status s = Get(read_options, lookup->internal_key, &state, &ForwardEntry);
    if (!s.ok()) {
      lookup->status = s;
      lookup->done = true;
    }
  }
}

}  // namespace strata
