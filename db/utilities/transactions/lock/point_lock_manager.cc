// Taking locks: the first attempt, the waits, expiration.

#include "db/utilities/transactions/lock/point_lock_manager.h"

#include <algorithm>
#include <utility>

#include "db/utilities/transactions/lock/transaction_db_mutex_impl.h"
#include "util/hash.h"
#include "util/mutexlock.h"

namespace strata {

LockStripe* LockMap::StripeOf(const std::string& key) const {
  return stripes[GetSliceHash(key) % stripes.size()].get();
}

PointLockManager::PointLockManager(const TransactionDBOptions& txn_db_options,
                                   Env* env, ExpiredLockStealer* stealer)
    : num_stripes_(std::max<size_t>(txn_db_options.num_stripes, 1)),
      max_num_locks_(txn_db_options.max_num_locks),
      env_(env),
      stealer_(stealer),
      mutex_factory_(txn_db_options.custom_mutex_factory != nullptr
                         ? txn_db_options.custom_mutex_factory
                         : std::make_shared<TransactionDBMutexFactoryImpl>()),
      deadlocks_(txn_db_options.max_num_deadlocks) {}

std::shared_ptr<LockMap> PointLockManager::GetLockMap(uint32_t cf_id,
                                                      bool create) {
  MutexLock l(&maps_mutex_);
  auto it = maps_.find(cf_id);
  if (it != maps_.end()) return it->second;
  if (!create) return nullptr;
  auto map = std::make_shared<LockMap>(num_stripes_, mutex_factory_.get());
  maps_.emplace(cf_id, map);
  return map;
}

Status PointLockManager::TryLock(const LockRequest& request, uint32_t cf_id,
                                 const std::string& key, bool exclusive) {
  // The shared_ptr keeps the map alive should the family be removed
  // while this request waits.
  std::shared_ptr<LockMap> map = GetLockMap(cf_id, /*create=*/true);
  LockStripe* stripe = map->StripeOf(key);
  Status s = stripe->mutex->Lock();
  if (!s.ok()) return s;
  std::vector<TransactionID> holders;
  uint64_t expire_hint = 0;
  s = AcquireLocked(map.get(), stripe, request, key, exclusive, &holders,
                    &expire_hint);
  if (!s.ok() && request.timeout_us != 0) {
    s = WaitForLock(map.get(), stripe, request, cf_id, key, exclusive, s,
                    std::move(holders), expire_hint);
  }
  stripe->mutex->UnLock();
  return s;
}

Status PointLockManager::WaitForLock(LockMap* map, LockStripe* stripe,
                                     const LockRequest& request, uint32_t cf_id,
                                     const std::string& key, bool exclusive,
                                     Status result,
                                     std::vector<TransactionID> holders,
                                     uint64_t expire_hint) {
  const bool forever = request.timeout_us < 0;
  const uint64_t end_time =
      forever ? 0
              : env_->NowMicros() + static_cast<uint64_t>(request.timeout_us);
  bool timed_out = false;
  // Each round: record the wait, sleep until a release (or the timeout,
  // or the holder's expiration), forget the wait, look again. Who holds
  // the key may change between rounds, so the wait is recorded afresh.
  while (!result.ok() && !timed_out) {
    const bool waits_on_holders = !holders.empty();
    if (waits_on_holders) {
      DeadlockPath path;
      WaitingFor waiting;
      waiting.cf_id = cf_id;
      waiting.key = key;
      waiting.exclusive = exclusive;
      waiting.holders = std::move(holders);
      if (wait_for_.AddWaiter(request.id, std::move(waiting),
                              request.deadlock_detect,
                              request.deadlock_detect_depth, &path)) {
        path.deadlock_time = static_cast<int64_t>(env_->NowMicros() / 1000000);
        deadlocks_.Add(std::move(path));
        return Status::Busy(Status::kDeadlock);
      }
    }

    // Until the timeout, or the holders' expiration if sooner.
    int64_t wait_until = forever ? -1 : static_cast<int64_t>(end_time);
    const bool until_expiry =
        expire_hint > 0 && (forever || expire_hint < end_time);
    if (until_expiry) wait_until = static_cast<int64_t>(expire_hint);
    // A wait for a lock-limit slot counts itself first, then looks again:
    // a release that emptied a slot before it counted is seen here, and
    // one after it wakes this stripe too (UnLock's WakeLimitWaiters).
    const bool waits_on_limit = result.subcode() == Status::kLockLimit;
    if (waits_on_limit) map->limit_waiters.fetch_add(1);
    Status waited;
    if (waits_on_limit && map->lock_count.load() < max_num_locks_) {
      waited = Status::OK();
    } else if (wait_until < 0) {
      waited = stripe->cv->Wait(stripe->mutex);
    } else {
      const int64_t now = static_cast<int64_t>(env_->NowMicros());
      waited = wait_until > now
                   ? stripe->cv->WaitFor(stripe->mutex, wait_until - now)
                   : Status::TimedOut();
    }
    if (waits_on_limit) map->limit_waiters.fetch_sub(1);
    if (waits_on_holders) wait_for_.RemoveWaiter(request.id);

    if (waited.IsTimedOut()) {
      // The timeout ends the waits after one more attempt (the lock may
      // have been released without this waiter being woken in time). A
      // sleep until the holders' expiration only leads to the attempt
      // that may steal the lock; the waits go on unless the clock has
      // also passed the timeout. The timeout is the Env clock's, but the
      // waits are real: with a clock that does not move, a wait until
      // the timeout still ends after the timeout's length.
      timed_out = !forever && (!until_expiry || env_->NowMicros() >= end_time);
    } else if (!waited.ok()) {
      return waited;
    }
    holders.clear();
    expire_hint = 0;
    result = AcquireLocked(map, stripe, request, key, exclusive, &holders,
                           &expire_hint);
  }
  return result;
}

Status PointLockManager::AcquireLocked(LockMap* map, LockStripe* stripe,
                                       const LockRequest& request,
                                       const std::string& key, bool exclusive,
                                       std::vector<TransactionID>* holders,
                                       uint64_t* expire_hint) {
  const TransactionID id = request.id;
  auto it = stripe->keys.find(key);
  if (it == stripe->keys.end()) {
    if (!TakeLockSlot(map)) return Status::Busy(Status::kLockLimit);
    LockInfo& info = stripe->keys[key];
    info.exclusive = exclusive;
    info.holders.push_back(id);
    info.expiration_time = request.expiration_time_us;
    return Status::OK();
  }

  LockInfo& info = it->second;
  const bool held = std::find(info.holders.begin(), info.holders.end(), id) !=
                    info.holders.end();
  if (held && info.holders.size() == 1) {
    // Re-entrance or upgrade by the only holder; never a downgrade.
    info.exclusive = info.exclusive || exclusive;
    info.expiration_time = request.expiration_time_us;
    return Status::OK();
  }
  if (!info.exclusive && !exclusive) {
    if (!held) {
      info.holders.push_back(id);
      // Waiters for this key recorded whom they wait for without this
      // holder: woken, they record the wait afresh, so a cycle through it
      // is found.
      stripe->cv->NotifyAll();
      // 0 is "never": a lock some holder keeps forever never expires.
      info.expiration_time =
          info.expiration_time == 0 || request.expiration_time_us == 0
              ? 0
              : std::max(info.expiration_time, request.expiration_time_us);
    }
    return Status::OK();
  }
  if (IsExpired(info, id, expire_hint)) {
    info.exclusive = exclusive;
    info.holders.assign(1, id);
    info.expiration_time = request.expiration_time_us;
    return Status::OK();  // the key stays locked: lock_count is unchanged
  }
  for (TransactionID holder : info.holders) {
    if (holder != id) holders->push_back(holder);
  }
  return Status::TimedOut(Status::kLockTimeout);
}

bool PointLockManager::TakeLockSlot(LockMap* map) {
  if (max_num_locks_ <= 0) {
    map->lock_count.fetch_add(1);
    return true;
  }
  // Stripes count into one family-wide number; the compare-and-swap keeps
  // two stripes from both taking the last slot.
  int64_t count = map->lock_count.load();
  do {
    if (count >= max_num_locks_) return false;
  } while (!map->lock_count.compare_exchange_weak(count, count + 1));
  return true;
}

bool PointLockManager::IsExpired(const LockInfo& info, TransactionID requester,
                                 uint64_t* expire_hint) {
  *expire_hint = 0;
  if (info.expiration_time == 0 || stealer_ == nullptr) return false;
  if (env_->NowMicros() < info.expiration_time) {
    *expire_hint = info.expiration_time;
    return false;
  }
  for (TransactionID holder : info.holders) {
    if (holder != requester && !stealer_->TryStealingLocks(holder)) {
      return false;
    }
  }
  return true;
}

}  // namespace strata
