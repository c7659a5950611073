// Clang thread-safety annotations (-Wthread-safety). Every field a mutex
// protects is GUARDED_BY(mu_), every function that needs a mutex held is
// EXCLUSIVE_LOCKS_REQUIRED(mu_); a clang build checks them. Other compilers
// see empty macros.

#ifndef STRATA_PORT_THREAD_ANNOTATIONS_H_
#define STRATA_PORT_THREAD_ANNOTATIONS_H_

#if defined(__clang__)
#define STRATA_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define STRATA_THREAD_ANNOTATION(x)
#endif

#ifndef GUARDED_BY
#define GUARDED_BY(x) STRATA_THREAD_ANNOTATION(guarded_by(x))
#endif
#ifndef PT_GUARDED_BY
#define PT_GUARDED_BY(x) STRATA_THREAD_ANNOTATION(pt_guarded_by(x))
#endif
#ifndef ACQUIRED_AFTER
#define ACQUIRED_AFTER(...) \
  STRATA_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))
#endif
#ifndef ACQUIRED_BEFORE
#define ACQUIRED_BEFORE(...) \
  STRATA_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#endif
#ifndef EXCLUSIVE_LOCKS_REQUIRED
#define EXCLUSIVE_LOCKS_REQUIRED(...) \
  STRATA_THREAD_ANNOTATION(exclusive_locks_required(__VA_ARGS__))
#endif
#ifndef SHARED_LOCKS_REQUIRED
#define SHARED_LOCKS_REQUIRED(...) \
  STRATA_THREAD_ANNOTATION(shared_locks_required(__VA_ARGS__))
#endif
#ifndef LOCKS_EXCLUDED
#define LOCKS_EXCLUDED(...) \
  STRATA_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#endif
#ifndef LOCK_RETURNED
#define LOCK_RETURNED(x) STRATA_THREAD_ANNOTATION(lock_returned(x))
#endif
#ifndef LOCKABLE
#define LOCKABLE STRATA_THREAD_ANNOTATION(lockable)
#endif
#ifndef SCOPED_LOCKABLE
#define SCOPED_LOCKABLE STRATA_THREAD_ANNOTATION(scoped_lockable)
#endif
#ifndef EXCLUSIVE_LOCK_FUNCTION
#define EXCLUSIVE_LOCK_FUNCTION(...) \
  STRATA_THREAD_ANNOTATION(exclusive_lock_function(__VA_ARGS__))
#endif
#ifndef SHARED_LOCK_FUNCTION
#define SHARED_LOCK_FUNCTION(...) \
  STRATA_THREAD_ANNOTATION(shared_lock_function(__VA_ARGS__))
#endif
#ifndef EXCLUSIVE_TRYLOCK_FUNCTION
#define EXCLUSIVE_TRYLOCK_FUNCTION(...) \
  STRATA_THREAD_ANNOTATION(exclusive_trylock_function(__VA_ARGS__))
#endif
#ifndef UNLOCK_FUNCTION
#define UNLOCK_FUNCTION(...) \
  STRATA_THREAD_ANNOTATION(unlock_function(__VA_ARGS__))
#endif
#ifndef ASSERT_EXCLUSIVE_LOCK
#define ASSERT_EXCLUSIVE_LOCK(...) \
  STRATA_THREAD_ANNOTATION(assert_exclusive_lock(__VA_ARGS__))
#endif
#ifndef NO_THREAD_SAFETY_ANALYSIS
#define NO_THREAD_SAFETY_ANALYSIS \
  STRATA_THREAD_ANNOTATION(no_thread_safety_analysis)
#endif

#endif  // STRATA_PORT_THREAD_ANNOTATIONS_H_
