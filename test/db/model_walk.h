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

// "key=value " for every entry, first to last (forward) or last to first;
// the iterator must end with OK status.
inline std::string ScanAll(Iterator* it, bool forward) {
  std::string out;
  if (forward) {
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out += it->key().ToString() + "=" + it->value().ToString() + " ";
    }
  } else {
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      out += it->key().ToString() + "=" + it->value().ToString() + " ";
    }
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return out;
}

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

// The same for an iterator with ReadOptions::prefix_same_as_start, whose
// keys' prefixes are their first prefix_len bytes (shorter keys have
// none): after Seek or SeekForPrev to a target with a prefix, only keys
// of that prefix are shown until the next seek; SeekToFirst and SeekToLast
// show everything. lower / upper (may be null) bound the iterator as
// iterate_lower_bound / iterate_upper_bound; model holds every live key.
inline void PrefixModelWalk(
    Iterator* it, const std::map<std::string, std::string>& model,
    size_t prefix_len, const std::string* lower, const std::string* upper,
    Random* rnd, int steps,
    const std::function<std::string(Random*)>& make_target) {
  bool confined = false;
  std::string prefix;
  auto in_view = [&](const std::string& k) {
    if (lower != nullptr && k < *lower) return false;
    if (upper != nullptr && k >= *upper) return false;
    return !confined ||
           (k.size() >= prefix_len && k.compare(0, prefix_len, prefix) == 0);
  };
  using Pos = std::map<std::string, std::string>::const_iterator;
  auto first_from = [&](Pos i) {
    while (i != model.end() && !in_view(i->first)) ++i;
    return i;
  };
  auto last_before = [&](Pos i) {
    while (i != model.begin()) {
      --i;
      if (in_view(i->first)) return i;
    }
    return model.end();
  };
  Pos pos = model.end();
  for (int step = 0; step < steps; step++) {
    const std::string target = make_target(rnd);
    const int op = rnd->Uniform(6);
    if (op == 0) {
      confined = false;
      it->SeekToFirst();
      pos = first_from(model.begin());
    } else if (op == 1) {
      confined = false;
      it->SeekToLast();
      pos = last_before(model.end());
    } else if (op == 2 || op == 3) {
      confined = target.size() >= prefix_len;
      prefix = target.substr(0, prefix_len);
      if (op == 2) {
        it->Seek(target);
        pos = first_from(model.lower_bound(target));
      } else {
        it->SeekForPrev(target);
        pos = last_before(model.upper_bound(target));
      }
    } else if (pos != model.end() && op == 4) {
      it->Next();
      pos = first_from(std::next(pos));
    } else if (pos != model.end()) {
      it->Prev();
      pos = last_before(pos);
    }
    ASSERT_EQ(pos != model.end(), it->Valid())
        << "step " << step << " op " << op << " target " << target
        << (it->Valid() ? " at " + it->key().ToString() : std::string());
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
