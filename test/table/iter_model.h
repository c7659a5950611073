// Checks an InternalIterator against a model: a std::map, ordered by the
// same Comparator, of exactly the entries the iterator must show. Used by
// the block and two-level iterator suites.

#ifndef STRATA_TEST_TABLE_ITER_MODEL_H_
#define STRATA_TEST_TABLE_ITER_MODEL_H_

#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "table/internal_iterator.h"
#include "test/db/model_walk.h"
#include "util/random.h"

namespace strata {
namespace test {

struct ComparatorLess {
  const Comparator* cmp;
  bool operator()(const std::string& a, const std::string& b) const {
    return cmp->Compare(a, b) < 0;
  }
};

using IterModel = std::map<std::string, std::string, ComparatorLess>;

// The model's entry at or after target / at or before it; end() if none.
inline IterModel::const_iterator ModelSeek(const IterModel& model,
                                           const std::string& target) {
  return model.lower_bound(target);
}
inline IterModel::const_iterator ModelSeekForPrev(const IterModel& model,
                                                  const std::string& target) {
  auto up = model.upper_bound(target);
  return up == model.begin() ? model.end() : std::prev(up);
}

// Asserts that it is where pos is (invalid when pos is end()), with OK
// status.
inline void ExpectAt(const InternalIterator& it, const IterModel& model,
                     IterModel::const_iterator pos, const std::string& where) {
  ASSERT_TRUE(it.status().ok()) << where << ": " << it.status().ToString();
  ASSERT_EQ(pos != model.end(), it.Valid()) << where;
  if (pos != model.end()) {
    ASSERT_EQ(pos->first, it.key().ToString()) << where;
    ASSERT_EQ(pos->second, it.value().ToString()) << where;
  }
}

// Full scans forward and backward.
inline void ExpectScansMatch(InternalIterator* it, const IterModel& model) {
  auto pos = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++pos) {
    ASSERT_NE(model.end(), pos) << "more entries than the model";
    ASSERT_EQ(pos->first, it->key().ToString());
    ASSERT_EQ(pos->second, it->value().ToString());
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  ASSERT_EQ(model.end(), pos) << "fewer entries than the model";

  auto rpos = model.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++rpos) {
    ASSERT_NE(model.rend(), rpos) << "more entries than the model";
    ASSERT_EQ(rpos->first, it->key().ToString());
    ASSERT_EQ(rpos->second, it->value().ToString());
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  ASSERT_EQ(model.rend(), rpos) << "fewer entries than the model";
}

// Seek and SeekForPrev to target.
inline void ExpectSeeksMatch(InternalIterator* it, const IterModel& model,
                             const std::string& target) {
  it->Seek(target);
  ExpectAt(*it, model, ModelSeek(model, target), "Seek");
  it->SeekForPrev(target);
  ExpectAt(*it, model, ModelSeekForPrev(model, target), "SeekForPrev");
}

// A random walk of seeks and moves in both directions (model_walk.h).
inline void RandomWalk(InternalIterator* it, const IterModel& model,
                       Random* rnd, int steps,
                       const std::function<std::string(Random*)>& make_target) {
  RandomModelWalk(it, model, rnd, steps, make_target);
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_TABLE_ITER_MODEL_H_
