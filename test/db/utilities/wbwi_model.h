// The model the WriteBatchWithIndex suites check against: the updates a
// batch was given, replayed forward over std::maps.
//
// Everything the batch answers is derived here from the list of updates
// alone, by simple forward replay, never by the index's newest-first walk:
//   - Entries(): what a WBWIIterator shows (every entry of a key in write
//     order; with overwrite_key, a Put/Delete/SingleDelete replaces the
//     key's newest entry, as RocksDB 7.8 does);
//   - BatchState(): what GetFromBatch says about a key;
//   - Apply(): a DB's contents after the batch is written over it.
// Merges are the string-append operator's (',' between operands).

#ifndef STRATA_TEST_DB_UTILITIES_WBWI_MODEL_H_
#define STRATA_TEST_DB_UTILITIES_WBWI_MODEL_H_

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "strata/comparator.h"
#include "strata/utilities/write_batch_with_index.h"

namespace strata {
namespace test {

struct ModelOp {
  int cf;
  WriteType type;
  std::string key;
  std::string value;
};

using KV = std::pair<std::string, std::string>;

inline std::string AppendMerge(const std::string* base, const std::string& op) {
  return base == nullptr ? op : *base + "," + op;
}

// What the batch alone says about one key.
struct KeyState {
  enum Kind { kUntouched, kValue, kDeleted, kMergeOnly } kind = kUntouched;
  std::string value;  // kValue: the value; kMergeOnly: operands joined
};

inline std::map<std::string, KeyState> BatchState(
    const std::vector<ModelOp>& ops, int cf) {
  std::map<std::string, KeyState> state;
  for (const ModelOp& op : ops) {
    if (op.cf != cf) continue;
    KeyState& s = state[op.key];
    switch (op.type) {
      case kPutRecord:
        s.kind = KeyState::kValue;
        s.value = op.value;
        break;
      case kMergeRecord:
        if (s.kind == KeyState::kValue || s.kind == KeyState::kMergeOnly) {
          s.value = AppendMerge(&s.value, op.value);
        } else {
          if (s.kind == KeyState::kDeleted) s.kind = KeyState::kValue;
          if (s.kind == KeyState::kUntouched) s.kind = KeyState::kMergeOnly;
          s.value = op.value;
        }
        break;
      default:
        s.kind = KeyState::kDeleted;
        s.value.clear();
    }
  }
  return state;
}

// base with the batch's updates of cf applied.
inline std::map<std::string, std::string> Apply(
    std::map<std::string, std::string> base, const std::vector<ModelOp>& ops,
    int cf) {
  for (const ModelOp& op : ops) {
    if (op.cf != cf) continue;
    if (op.type == kPutRecord) {
      base[op.key] = op.value;
    } else if (op.type == kMergeRecord) {
      auto it = base.find(op.key);
      base[op.key] =
          AppendMerge(it == base.end() ? nullptr : &it->second, op.value);
    } else {
      base.erase(op.key);
    }
  }
  return base;
}

// The map's pairs in cmp's order.
inline std::vector<KV> Sorted(const std::map<std::string, std::string>& m,
                              const Comparator* cmp) {
  std::vector<KV> v(m.begin(), m.end());
  std::sort(v.begin(), v.end(), [cmp](const KV& a, const KV& b) {
    return cmp->Compare(a.first, b.first) < 0;
  });
  return v;
}

struct ModelEntry {
  WriteType type;
  std::string key;
  std::string value;
};

inline std::vector<ModelEntry> Entries(const std::vector<ModelOp>& ops, int cf,
                                       bool overwrite_key,
                                       const Comparator* cmp) {
  std::map<std::string, std::vector<ModelEntry>> per_key;
  for (const ModelOp& op : ops) {
    if (op.cf != cf) continue;
    std::vector<ModelEntry>& list = per_key[op.key];
    const std::string value = op.type == kPutRecord || op.type == kMergeRecord
                                  ? op.value
                                  : std::string();
    ModelEntry e{op.type, op.key, value};
    if (overwrite_key && op.type != kMergeRecord && !list.empty()) {
      list.back() = e;
    } else {
      list.push_back(e);
    }
  }
  std::vector<std::pair<std::string, std::vector<ModelEntry>>> keys(
      per_key.begin(), per_key.end());
  std::sort(keys.begin(), keys.end(), [cmp](const auto& a, const auto& b) {
    return cmp->Compare(a.first, b.first) < 0;
  });
  std::vector<ModelEntry> out;
  for (const auto& k : keys)
    out.insert(out.end(), k.second.begin(), k.second.end());
  return out;
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_UTILITIES_WBWI_MODEL_H_
