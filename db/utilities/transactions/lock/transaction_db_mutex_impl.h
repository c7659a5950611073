// The default TransactionDBMutexFactory: mutexes and condition variables
// on std::mutex and std::condition_variable, the pair a lock stripe
// waits on when TransactionDBOptions::custom_mutex_factory is unset.
//
// A condition variable made here only works with mutexes made here (it
// needs the std::mutex inside); the lock manager always allocates both
// from the same factory.
//
// Thread safety: as std::mutex and std::condition_variable.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_TRANSACTION_DB_MUTEX_IMPL_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_TRANSACTION_DB_MUTEX_IMPL_H_

#include <memory>

#include "strata/utilities/transaction_db_mutex.h"

namespace strata {

class TransactionDBMutexFactoryImpl : public TransactionDBMutexFactory {
 public:
  std::shared_ptr<TransactionDBMutex> AllocateMutex() override;
  std::shared_ptr<TransactionDBCondVar> AllocateCondVar() override;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_TRANSACTION_DB_MUTEX_IMPL_H_
