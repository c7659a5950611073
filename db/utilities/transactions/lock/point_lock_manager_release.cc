// Releasing locks, and what the manager reports: lock status, waits,
// deadlocks.

#include <algorithm>
#include <utility>

#include "db/utilities/transactions/lock/point_lock_manager.h"
#include "util/mutexlock.h"

namespace strata {

bool PointLockManager::UnLockKey(LockMap* map, LockStripe* stripe,
                                 TransactionID id, const std::string& key) {
  auto it = stripe->keys.find(key);
  if (it == stripe->keys.end()) return false;
  std::vector<TransactionID>& holders = it->second.holders;
  auto pos = std::find(holders.begin(), holders.end(), id);
  if (pos == holders.end()) return false;  // stolen, or never taken
  holders.erase(pos);
  if (holders.empty()) {
    stripe->keys.erase(it);
    map->lock_count.fetch_sub(1);
  }
  return true;
}

void PointLockManager::WakeLimitWaiters(LockMap* map) {
  if (max_num_locks_ <= 0 || map->limit_waiters.load() == 0) return;
  // A waiter holds its stripe's mutex from its last look until its wait
  // has begun, so taking that mutex here means the notification reaches
  // it.
  for (const auto& stripe : map->stripes) {
    stripe->mutex->Lock();
    stripe->mutex->UnLock();
    stripe->cv->NotifyAll();
  }
}

void PointLockManager::UnLock(TransactionID id, uint32_t cf_id,
                              const std::string& key) {
  std::shared_ptr<LockMap> map = GetLockMap(cf_id, /*create=*/false);
  if (map == nullptr) return;
  LockStripe* stripe = map->StripeOf(key);
  // A release has no status to return; a custom mutex failing Lock()
  // here is ignored, as RocksDB does.
  stripe->mutex->Lock();
  const bool changed = UnLockKey(map.get(), stripe, id, key);
  stripe->mutex->UnLock();
  // Waiters look again; shared holders left behind may now upgrade.
  if (changed) {
    stripe->cv->NotifyAll();
    WakeLimitWaiters(map.get());
  }
}

void PointLockManager::UnLock(TransactionID id, const LockedKeys& keys) {
  for (const auto& family : keys) {
    std::shared_ptr<LockMap> map = GetLockMap(family.first, /*create=*/false);
    if (map == nullptr) continue;
    std::unordered_map<LockStripe*, std::vector<const std::string*>> by_stripe;
    bool released = false;
    for (const std::string& key : family.second) {
      by_stripe[map->StripeOf(key)].push_back(&key);
    }
    for (const auto& group : by_stripe) {
      LockStripe* stripe = group.first;
      stripe->mutex->Lock();
      bool changed = false;
      for (const std::string* key : group.second) {
        changed = UnLockKey(map.get(), stripe, id, *key) || changed;
      }
      stripe->mutex->UnLock();
      if (changed) stripe->cv->NotifyAll();
      released = released || changed;
    }
    if (released) WakeLimitWaiters(map.get());
  }
}

void PointLockManager::RemoveColumnFamily(uint32_t cf_id) {
  MutexLock l(&maps_mutex_);
  maps_.erase(cf_id);
}

std::unordered_multimap<uint32_t, KeyLockInfo>
PointLockManager::GetLockStatusData() {
  std::vector<std::pair<uint32_t, std::shared_ptr<LockMap>>> maps;
  {
    MutexLock l(&maps_mutex_);
    maps.assign(maps_.begin(), maps_.end());
  }
  std::unordered_multimap<uint32_t, KeyLockInfo> data;
  for (const auto& family : maps) {
    const LockMap& map = *family.second;
    // All stripes at once (in index order, the only order in which more
    // than one is ever held) so the family's view is one moment's.
    for (const auto& stripe : map.stripes) {
      stripe->mutex->Lock();
    }
    for (const auto& stripe : map.stripes) {
      for (const auto& entry : stripe->keys) {
        KeyLockInfo info;
        info.key = entry.first;
        info.ids = entry.second.holders;
        info.exclusive = entry.second.exclusive;
        data.emplace(family.first, std::move(info));
      }
    }
    for (auto it = map.stripes.rbegin(); it != map.stripes.rend(); ++it) {
      (*it)->mutex->UnLock();
    }
  }
  return data;
}

std::vector<DeadlockPath> PointLockManager::GetDeadlockInfoBuffer() const {
  return deadlocks_.Get();
}

void PointLockManager::Resize(uint32_t target_size) {
  deadlocks_.Resize(target_size);
}

std::vector<TransactionID> PointLockManager::GetWaitingTxns(
    TransactionID id, uint32_t* cf_id, std::string* key) const {
  WaitingFor waiting;
  if (!wait_for_.GetWaiting(id, &waiting)) return {};
  if (cf_id != nullptr) *cf_id = waiting.cf_id;
  if (key != nullptr) *key = waiting.key;
  return waiting.holders;
}

}  // namespace strata
