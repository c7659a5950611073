// NewStatsIterator: a DB iterator that counts its moves into
// Options::statistics — NUMBER_DB_SEEK for every seek (Seek, SeekForPrev,
// SeekToFirst, SeekToLast; each also timed into the DB_SEEK histogram),
// NUMBER_DB_NEXT and NUMBER_DB_PREV. Nexts and Prevs are counted in the
// iterator and added when it is destroyed, so a scan costs no shared
// counter update per step. The DB wraps its iterators only when it has
// statistics: without, nothing is wrapped and nothing is paid.
//
// Thread safety: an Iterator's — one thread at a time.

#ifndef STRATA_DB_STATS_ITERATOR_H_
#define STRATA_DB_STATS_ITERATOR_H_

#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/statistics.h"

namespace strata {

// Takes ownership of base. env and statistics (non-null) must outlive the
// result.
Iterator* NewStatsIterator(Iterator* base, Env* env, Statistics* statistics);

}  // namespace strata

#endif  // STRATA_DB_STATS_ITERATOR_H_
