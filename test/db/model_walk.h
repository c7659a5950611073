// A random walk of an Iterator checked against a model: a std::map of
// what the iterator must show. The walk starts at the first entry; each step
// seeks (first, last, a target from make_target, for-prev) or moves (next,
// prev), and the iterator must be valid exactly when the model has an entry
// there, with the same key and value. Shared by the block, table, DBIter and
// whole-DB suites.

#ifndef STRATA_TEST_DB_MODEL_WALK_H_
#define STRATA_TEST_DB_MODEL_WALK_H_

#include <functional>
#include <iterator>
#include <map>
#include <string>

#include "gtest/gtest.h"
#include "strata/iterator.h"
#include "util/random.h"

namespace strata {
namespace test {

// Iter: Iterator or InternalIterator; Model: a std::map from string to
// string ordered as the iterator is.
template <typename Iter, typename Model>
void RandomModelWalk(Iter* it, const Model& model, Random* rnd, int steps,
                     const std::function<std::string(Random*)>& make_target) {
  it->SeekToFirst();
  auto pos = model.begin();
  for (int step = 0; step < steps; step++) {
    const std::string target = make_target(rnd);
    switch (rnd->Uniform(7)) {
      case 0:
        it->SeekToFirst();
        pos = model.begin();
        break;
      case 1:
        it->SeekToLast();
        pos = model.empty() ? model.end() : std::prev(model.end());
        break;
      case 2:
        it->Seek(target);
        pos = model.lower_bound(target);
        break;
      case 3: {
        it->SeekForPrev(target);
        auto up = model.upper_bound(target);
        pos = up == model.begin() ? model.end() : std::prev(up);
        break;
      }
      case 4:
      case 5:
        if (pos == model.end()) break;
        it->Next();
        ++pos;
        break;
      default:
        if (pos == model.end()) break;
        it->Prev();
        pos = pos == model.begin() ? model.end() : std::prev(pos);
        break;
    }
    ASSERT_EQ(pos != model.end(), it->Valid()) << "step " << step;
    if (it->Valid()) {
      ASSERT_EQ(pos->first, it->key().ToString()) << "step " << step;
      ASSERT_EQ(pos->second, it->value().ToString()) << "step " << step;
    }
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  }
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_MODEL_WALK_H_
