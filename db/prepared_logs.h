// Which WALs two-phase commit still needs (docs/transactions.md,
// "Two-phase commit records"): a WAL holding a prepared section must
// outlive the section until the transaction is resolved, and until the
// WAL holding its commit or rollback record is itself no longer needed
// (its data in tables), so that a crash before that record is durable
// finds the transaction prepared again rather than gone.
//
// Thread safety: every method takes the object's own mutex, a leaf: the
// write path calls it under log_mutex_, LogAndApply under the DB mutex.

#ifndef STRATA_DB_PREPARED_LOGS_H_
#define STRATA_DB_PREPARED_LOGS_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/write_batch.h"
#include "util/mutexlock.h"

namespace strata {

class PreparedLogs {
 public:
  // Records the markers of batch, just appended to WAL log: its prepared
  // sections as Prepared, its commits and rollbacks as Resolved.
  void Record(const WriteBatch& batch, uint64_t log);

  // Transaction xid's prepared section is in WAL log.
  void Prepared(const std::string& xid, uint64_t log) {
    MutexLock l(&mu_);
    pending_[xid] = log;
  }

  // xid's commit or rollback record is in WAL log. A name never prepared
  // here (a commit without Prepare) changes nothing.
  void Resolved(const std::string& xid, uint64_t log) {
    MutexLock l(&mu_);
    auto it = pending_.find(xid);
    if (it == pending_.end()) return;
    resolved_.push_back(Resolution{it->second, log});
    pending_.erase(it);
  }

  // The oldest WAL still needed, 0 if none, once every WAL below min_log
  // (the families' smallest log number) is known to be in tables: a
  // resolution whose record is in such a WAL is durable, and its section
  // no longer needed.
  uint64_t Floor(uint64_t min_log) {
    MutexLock l(&mu_);
    resolved_.erase(std::remove_if(resolved_.begin(), resolved_.end(),
                                   [min_log](const Resolution& r) {
                                     return r.resolution_log < min_log;
                                   }),
                    resolved_.end());
    uint64_t floor = 0;
    auto lower = [&floor](uint64_t log) {
      if (floor == 0 || log < floor) floor = log;
    };
    for (const auto& entry : pending_) lower(entry.second);
    for (const Resolution& r : resolved_) lower(r.section_log);
    return floor;
  }

 private:
  struct Resolution {
    uint64_t section_log;
    uint64_t resolution_log;
  };

  port::Mutex mu_;
  std::map<std::string, uint64_t> pending_ GUARDED_BY(mu_);
  std::vector<Resolution> resolved_ GUARDED_BY(mu_);
};

}  // namespace strata

#endif  // STRATA_DB_PREPARED_LOGS_H_
