#include "db/utilities/transactions/tracked_keys.h"

#include <algorithm>
#include <iterator>

namespace strata {

void TrackedKeys::Track(ColumnFamilyHandle* family, const std::string& key,
                        SequenceNumber seq, bool read_only, bool exclusive) {
  const uint32_t id = family->GetID();
  Family& f = families_[id];
  if (f.handle == nullptr) f.handle = family;
  auto inserted = f.keys.emplace(key, TrackedKeyInfo());
  TrackedKeyInfo& info = inserted.first->second;
  if (inserted.second || seq < info.seq) info.seq = seq;
  if (read_only) {
    info.num_reads++;
  } else {
    info.num_writes++;
  }
  info.exclusive = info.exclusive || exclusive;
  if (!save_points_.empty()) {
    save_points_.back().push_back(Op{id, key, read_only});
  }
}

void TrackedKeys::Undo(uint32_t family_id, const std::string& key, bool read) {
  auto f = families_.find(family_id);
  if (f == families_.end()) return;
  auto k = f->second.keys.find(key);
  if (k == f->second.keys.end()) return;
  uint32_t& count = read ? k->second.num_reads : k->second.num_writes;
  if (count > 0) count--;
  if (k->second.num_reads == 0 && k->second.num_writes == 0) {
    f->second.keys.erase(k);
    if (f->second.keys.empty()) families_.erase(f);
  }
}

void TrackedKeys::UndoRead(uint32_t family_id, const std::string& key) {
  const TrackedKeyInfo* info = Find(family_id, key);
  if (info == nullptr || info->num_reads == 0) return;
  // With a save point set, only a read made since it can be undone (as
  // RocksDB documents: a save point set after the read makes the undo a
  // no-op); the read leaves the save point's record too.
  if (!save_points_.empty()) {
    std::vector<Op>& ops = save_points_.back();
    auto it = std::find_if(ops.rbegin(), ops.rend(), [&](const Op& op) {
      return op.read && op.family_id == family_id && op.key == key;
    });
    if (it == ops.rend()) return;
    ops.erase(std::next(it).base());
  }
  Undo(family_id, key, true);
}

const TrackedKeyInfo* TrackedKeys::Find(uint32_t family_id,
                                        const std::string& key) const {
  auto f = families_.find(family_id);
  if (f == families_.end()) return nullptr;
  auto k = f->second.keys.find(key);
  return k == f->second.keys.end() ? nullptr : &k->second;
}

size_t TrackedKeys::size() const {
  size_t n = 0;
  for (const auto& f : families_) n += f.second.keys.size();
  return n;
}

void TrackedKeys::Clear() {
  families_.clear();
  save_points_.clear();
}

void TrackedKeys::SetSavePoint() { save_points_.emplace_back(); }

void TrackedKeys::RollbackToSavePoint() {
  std::vector<Op> ops = std::move(save_points_.back());
  save_points_.pop_back();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    Undo(it->family_id, it->key, it->read);
  }
}

void TrackedKeys::PopSavePoint() {
  std::vector<Op> ops = std::move(save_points_.back());
  save_points_.pop_back();
  if (!save_points_.empty()) {
    std::vector<Op>& outer = save_points_.back();
    outer.insert(outer.end(), std::make_move_iterator(ops.begin()),
                 std::make_move_iterator(ops.end()));
  }
}

}  // namespace strata
