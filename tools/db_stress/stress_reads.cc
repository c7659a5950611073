// StressTest's reads: Get and MultiGet checked against the expected state,
// reads of every family at one snapshot, iterators over a key range in
// both directions, and snapshots re-read to show they did not change.

#include <algorithm>

#include "strata/iterator.h"
#include "strata/snapshot.h"
#include "tools/db_stress/stress_test.h"
#include "tools/db_stress/values.h"

namespace strata {
namespace stress {

namespace {

constexpr int kSnapshotKeys = 4;
constexpr int kMultiGetKeys = 4;

}  // namespace

bool StressTest::ReadState(int64_t key, const Status& s, const Slice& value,
                           KeyState* found, bool* wellformed,
                           std::string* error) {
  *wellformed = true;
  if (s.IsNotFound()) {
    *found = KeyState();
    return true;
  }
  if (!s.ok()) {
    *error = s.ToString();
    return false;
  }
  found->deleted = false;
  if (!ParseValue(value, key, &found->base)) {
    *wellformed = false;
    *error = "a value that is not this key's (" + std::to_string(value.size()) +
             " bytes)";
  }
  return true;
}

void StressTest::CheckRead(int cf, int64_t key, const Status& s,
                           const Slice& value, const char* op) {
  KeyState found;
  bool wellformed;
  std::string error;
  const uint32_t slot = expected_->Get(cf, key);
  if (!ReadState(key, s, value, &found, &wellformed, &error)) {
    Fail(std::string(op) + " failed: family " + FamilyName(cf) + " key " +
         std::to_string(key) + ": " + error);
    return;
  }
  const KeyState want = LatestState(slot);
  if (!wellformed || !(found == want)) {
    Fail(std::string(op) + ": family " + FamilyName(cf) + " key " +
         std::to_string(key) + ": expected " + DescribeState(want) + ", got " +
         (wellformed ? DescribeState(found) : error));
  }
}

void StressTest::DoRead(ThreadState* t, int cf, int64_t key) {
  if (flags_.use_multiget && t->rnd.OneIn(2)) {
    std::vector<std::pair<int, int64_t>> keys;
    std::vector<ColumnFamilyHandle*> hs;
    std::vector<std::string> key_strings;
    for (int i = 0; i < kMultiGetKeys; i++) {
      const int c = i == 0 ? cf : static_cast<int>(t->rnd.Uniform(num_cf_));
      const int64_t k =
          i == 0 ? key : t->rnd.Uniform(static_cast<int>(flags_.max_key));
      keys.emplace_back(c, k);
      hs.push_back(handles_[c]);
      key_strings.push_back(KeyString(k));
    }
    std::vector<Slice> slices(key_strings.begin(), key_strings.end());
    KeyLocks::Guard guard(locks_.get(), keys);
    std::vector<std::string> values;
    std::vector<Status> st = db_->MultiGet(ReadOptions(), hs, slices, &values);
    for (size_t i = 0; i < keys.size(); i++) {
      CheckRead(keys[i].first, keys[i].second, st[i], values[i], "MultiGet");
    }
    return;
  }
  KeyLocks::Guard guard(locks_.get(), {{cf, key}});
  std::string value;
  const Status s =
      db_->Get(ReadOptions(), handles_[cf], KeyString(key), &value);
  CheckRead(cf, key, s, value, "Get");
}

void StressTest::DoBatchRead(ThreadState* t, int64_t key) {
  // No lock: whatever state the key is in, a snapshot shows every family
  // in the same one, as every write reached them in one batch.
  (void)t;
  ReadOptions ro;
  ro.snapshot = db_->GetSnapshot();
  const std::string k = KeyString(key);
  std::vector<Slice> keys(static_cast<size_t>(num_cf_), k);
  std::vector<std::string> values;
  std::vector<Status> st = db_->MultiGet(ro, handles_, keys, &values);
  db_->ReleaseSnapshot(ro.snapshot);
  KeyState first;
  for (int cf = 0; cf < num_cf_; cf++) {
    KeyState found;
    bool wellformed;
    std::string error;
    if (!ReadState(key, st[cf], values[cf], &found, &wellformed, &error) ||
        !wellformed) {
      return Fail("batched read: family " + FamilyName(cf) + " key " +
                  std::to_string(key) + ": " + error);
    }
    if (cf == 0) {
      first = found;
    } else if (!(found == first)) {
      return Fail("batched read at one snapshot: key " + std::to_string(key) +
                  " is " + DescribeState(first) + " in family " +
                  FamilyName(0) + " but " + DescribeState(found) +
                  " in family " + FamilyName(cf));
    }
  }
}

void StressTest::DoIterate(ThreadState* t, int cf, int64_t lo, int64_t hi,
                           bool both_ways) {
  std::vector<std::pair<int, int64_t>> keys;
  for (int64_t k = lo; k < hi; k++) keys.emplace_back(cf, k);
  KeyLocks::Guard guard(locks_.get(), keys);
  std::vector<int64_t> want;
  for (int64_t k = lo; k < hi; k++) {
    if (!LatestState(expected_->Get(cf, k)).deleted) want.push_back(k);
  }
  const std::string lo_key = KeyString(lo);
  const std::string hi_key = KeyString(hi);
  const Slice lo_slice(lo_key), hi_slice(hi_key);
  ReadOptions ro;
  // Bounds, or none and a seek: both must stop at the right keys.
  const bool bounded = t->rnd.OneIn(2);
  if (bounded) {
    ro.iterate_lower_bound = &lo_slice;
    ro.iterate_upper_bound = &hi_slice;
  }
  std::unique_ptr<Iterator> it(db_->NewIterator(ro, handles_[cf]));
  const std::string where = "family " + FamilyName(cf) + " keys [" +
                            std::to_string(lo) + ", " + std::to_string(hi) +
                            ")" + (bounded ? " (bounds)" : "");
  // Checks the key and value at it against want[i].
  auto check_at = [&](size_t i, const char* dir) -> bool {
    int64_t key;
    uint32_t base;
    if (!ParseKeyString(it->key(), &key) || key != want[i] ||
        !ParseValue(it->value(), key, &base) ||
        base != LatestState(expected_->Get(cf, key)).base) {
      std::string got =
          "a key of " + std::to_string(it->key().size()) + " bytes";
      if (ParseKeyString(it->key(), &key)) {
        got = "key " + std::to_string(key) +
              (ParseValue(it->value(), key, &base)
                   ? " with base " + std::to_string(base)
                   : " with a value not of that key") +
              " (expected there: " +
              DescribeState(LatestState(expected_->Get(cf, key))) + ")";
      }
      Fail(std::string("iterator ") + dir + " over " + where +
           ": expected key " + std::to_string(want[i]) + " with " +
           DescribeState(LatestState(expected_->Get(cf, want[i]))) + ", got " +
           got);
      return false;
    }
    return true;
  };
  auto in_range = [&]() {
    return it->Valid() && (bounded || it->key().compare(hi_slice) < 0);
  };

  size_t i = 0;
  for (it->Seek(lo_slice); in_range(); it->Next(), i++) {
    if (i >= want.size()) {
      return Fail("iterator forward over " + where + ": found key beyond " +
                  "the " + std::to_string(want.size()) + " expected");
    }
    if (!check_at(i, "forward")) return;
  }
  if (!it->status().ok()) return Fail("iterator: " + it->status().ToString());
  if (i != want.size()) {
    return Fail("iterator forward over " + where + ": missed key " +
                std::to_string(want[i]));
  }
  if (!both_ways) return;

  size_t n = 0;
  if (bounded && t->rnd.OneIn(2)) {
    it->SeekToLast();
  } else {
    it->SeekForPrev(KeyString(hi - 1));
  }
  for (; it->Valid() && it->key().compare(lo_slice) >= 0; it->Prev(), n++) {
    if (n >= want.size()) {
      return Fail("iterator backward over " + where + ": found extra keys");
    }
    if (!check_at(want.size() - 1 - n, "backward")) return;
  }
  if (!it->status().ok()) return Fail("iterator: " + it->status().ToString());
  if (n != want.size()) {
    return Fail("iterator backward over " + where + ": missed key " +
                std::to_string(want[want.size() - 1 - n]));
  }

  // A seek into the middle, then a step back: a change of direction.
  const int64_t mid = lo + t->rnd.Uniform(static_cast<int>(hi - lo));
  const size_t at = static_cast<size_t>(
      std::lower_bound(want.begin(), want.end(), mid) - want.begin());
  it->Seek(KeyString(mid));
  if (at < want.size()) {
    if (!in_range()) {
      return Fail("iterator Seek(" + std::to_string(mid) + ") over " + where +
                  ": expected key " + std::to_string(want[at]) + ", got none");
    }
    if (!check_at(at, "after Seek")) return;
    it->Prev();
    const bool before = it->Valid() && it->key().compare(lo_slice) >= 0;
    if (at == 0) {
      if (before) {
        return Fail("iterator Seek then Prev over " + where +
                    ": found a key below " + std::to_string(want[0]));
      }
    } else if (!before) {
      return Fail("iterator Seek then Prev over " + where + ": missed key " +
                  std::to_string(want[at - 1]));
    } else if (!check_at(at - 1, "Seek then Prev")) {
      return;
    }
  } else if (in_range()) {
    return Fail("iterator Seek(" + std::to_string(mid) + ") over " + where +
                ": found a key past the last expected");
  }
}

void StressTest::TakeSnapshot(ThreadState* t) {
  std::vector<std::pair<int, int64_t>> keys;
  for (int i = 0; i < kSnapshotKeys; i++) {
    keys.emplace_back(static_cast<int>(t->rnd.Uniform(num_cf_)),
                      t->rnd.Uniform(static_cast<int>(flags_.max_key)));
  }
  KeyLocks::Guard guard(locks_.get(), keys);
  t->snapshot = db_->GetSnapshot();
  t->snapshot_taken_at = t->ops;
  t->snap_reads.clear();
  ReadOptions ro;
  ro.snapshot = t->snapshot;
  for (const auto& k : keys) {
    std::string value;
    const Status s =
        db_->Get(ro, handles_[k.first], KeyString(k.second), &value);
    CheckRead(k.first, k.second, s, value, "Get at a new snapshot");
    t->snap_reads.push_back(
        {k.first, generation_[k.first], k.second, s.ok(), value});
  }
}

void StressTest::CheckSnapshot(ThreadState* t) {
  ReadOptions ro;
  ro.snapshot = t->snapshot;
  for (const auto& r : t->snap_reads) {
    // A family cleared since is another family under the same name.
    if (generation_[r.cf] != r.generation) continue;
    std::string value;
    const Status s = db_->Get(ro, handles_[r.cf], KeyString(r.key), &value);
    if (!(s.ok() || s.IsNotFound()) || s.ok() != r.found ||
        (s.ok() && value != r.value)) {
      Fail("snapshot changed: family " + FamilyName(r.cf) + " key " +
           std::to_string(r.key) + " read " +
           (r.found ? "a value" : "nothing") + " when the snapshot was new, " +
           (s.ok() ? "another value" : s.ToString()) + " " +
           std::to_string(t->ops - t->snapshot_taken_at) + " ops later");
      break;
    }
  }
  db_->ReleaseSnapshot(t->snapshot);
  t->snapshot = nullptr;
}

}  // namespace stress
}  // namespace strata
