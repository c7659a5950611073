// Helpers for the merge, compaction iterator and DBIter merge suites: a
// history of versions, the state a reader sees at a sequence number
// (resolved by a model merge function, independent of MergeHelper), and
// merge operators with known semantics.

#ifndef STRATA_TEST_DB_MERGE_TEST_UTIL_H_
#define STRATA_TEST_DB_MERGE_TEST_UTIL_H_

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "strata/merge_operator.h"
#include "test/util/vector_iterator.h"
#include "util/random.h"

namespace strata {
namespace test {

struct Version {
  std::string key;
  SequenceNumber sequence;
  ValueType type;
  std::string value;
};

// The model merge: base (null: none) and operands oldest first.
using ModelMerge = std::function<std::string(
    const std::string* base, const std::vector<std::string>& operands)>;

// What a reader at seq sees: for each key, the newest visible versions
// down to a value or deletion, merged by merge.
inline std::map<std::string, std::string> ReadAt(std::vector<Version> versions,
                                                 SequenceNumber seq,
                                                 const ModelMerge& merge) {
  std::sort(versions.begin(), versions.end(),
            [](const Version& a, const Version& b) {
              if (a.key != b.key) return a.key < b.key;
              return a.sequence > b.sequence;
            });
  std::map<std::string, std::string> state;
  size_t i = 0;
  while (i < versions.size()) {
    const std::string& key = versions[i].key;
    std::vector<std::string> operands;  // newest first
    const std::string* base = nullptr;
    bool done = false;
    for (; i < versions.size() && versions[i].key == key; i++) {
      const Version& v = versions[i];
      if (done || v.sequence > seq || v.type == kTypeRangeDeletion) continue;
      if (v.type == kTypeMerge) {
        operands.push_back(v.value);
        continue;
      }
      if (v.type == kTypeValue) base = &v.value;
      done = true;
      if (operands.empty()) {
        if (base != nullptr) state[key] = *base;
      } else {
        std::reverse(operands.begin(), operands.end());
        state[key] = merge(base, operands);
      }
    }
    if (!done && !operands.empty()) {
      std::reverse(operands.begin(), operands.end());
      state[key] = merge(nullptr, operands);
    }
  }
  return state;
}

inline VectorIterator::Entries ToEntries(const std::vector<Version>& vs) {
  VectorIterator::Entries entries;
  for (const Version& v : vs) {
    entries.emplace_back(
        InternalKey(v.key, v.sequence, v.type).Encode().ToString(), v.value);
  }
  return entries;
}

// The model of MergeOperators::CreateStringAppendOperator(delim).
inline ModelMerge StringAppendModel(char delim) {
  return [delim](const std::string* base, const std::vector<std::string>& ops) {
    std::string result = base != nullptr ? *base : "";
    bool first = base == nullptr;
    for (const std::string& op : ops) {
      if (!first) result.push_back(delim);
      result += op;
      first = false;
    }
    return result;
  };
}

// A full-merge-only operator: a non-associative left fold,
// ((base op1) op2)... written "(" acc op ")", starting from "_" with no
// base. Partial merges would give wrong results, so it has none.
class FoldOperator : public MergeOperator {
 public:
  const char* Name() const override { return "test.Fold"; }
  bool FullMergeV2(const MergeOperationInput& in,
                   MergeOperationOutput* out) const override {
    std::string acc =
        in.existing_value != nullptr ? in.existing_value->ToString() : "_";
    for (const Slice& op : in.operand_list) {
      if (op == Slice("fail")) return false;
      acc = "(" + acc + op.ToString() + ")";
    }
    out->new_value = acc;
    return true;
  }
};

inline std::string FoldModel(const std::string* base,
                             const std::vector<std::string>& ops) {
  std::string acc = base != nullptr ? *base : "_";
  for (const std::string& op : ops) acc = "(" + acc + op + ")";
  return acc;
}

// An operator for a random suite, with its model.
struct ModelOperator {
  std::shared_ptr<MergeOperator> op;
  ModelMerge model;
  bool partial;  // whether partial merges combine its operands
};

// stringappend (partial merges possible) or the fold (full merges only).
inline ModelOperator PickModelOperator(Random* rnd) {
  if (rnd->OneIn(2)) {
    return {MergeOperators::CreateStringAppendOperator(),
            StringAppendModel(','), true};
  }
  return {std::make_shared<FoldOperator>(), FoldModel, false};
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_MERGE_TEST_UTIL_H_
