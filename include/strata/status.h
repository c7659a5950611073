// Status: the outcome of an operation — success, or an error code with an
// optional sub-code and a UTF-8 message.
//
// Every fallible strata function returns a Status; no exception crosses the
// API. The OK status carries no allocation, so returning it is cheap.
//
// Codes and predicates follow RocksDB's. Sub-codes refine a code and keep
// the code's own predicate true:
//   NoSpace       is an IOError:  IsIOError() && IsNoSpace()
//   PathNotFound  is a NotFound:  IsNotFound() && IsPathNotFound()
//   LockHeld      is an IOError (as RocksDB reports a held lock) that is
//                 also Busy:      IsIOError() && IsBusy() && IsLockHeld()
//
// Two marks ride along with an error and, like the sub-code, survive
// copies but not equality (== compares code and sub-code only):
//   severity()  how hard a background error hit the DB (Severity below);
//               the DB sets it on the error its writes fail with.
//   retryable   an I/O error that may go away if the operation is tried
//               again (a full device being cleaned up, a network file
//               system reconnecting); an Env marks it through IOStatus
//               (strata/io_status.h), whose GetRetryable() reads it.
//
// Thread safety: const methods are safe from many threads; a Status shared
// between threads and modified needs external synchronization.

#ifndef STRATA_INCLUDE_STATUS_H_
#define STRATA_INCLUDE_STATUS_H_

#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT Status {
 public:
  enum Code : unsigned char {
    kOk = 0,
    kNotFound = 1,
    kCorruption = 2,
    kNotSupported = 3,
    kInvalidArgument = 4,
    kIOError = 5,
    kMergeInProgress = 6,
    kIncomplete = 7,
    kShutdownInProgress = 8,
    kTimedOut = 9,
    kAborted = 10,
    kBusy = 11,
    kExpired = 12,
    kTryAgain = 13,
    kColumnFamilyDropped = 14,
  };

  // RocksDB's sub-codes, with its values; kLockHeld is strata's own.
  enum SubCode : unsigned char {
    kNone = 0,
    kMutexTimeout = 1,
    kLockTimeout = 2,  // a transaction's wait for a row lock timed out
    kLockLimit = 3,    // a transaction DB's max_num_locks was reached
    kNoSpace = 4,
    kDeadlock = 5,  // granting the lock would close a cycle of waits
    kStaleFile = 6,
    kMemoryLimit = 7,
    kSpaceLimit = 8,
    kPathNotFound = 9,
    KMergeOperandsInsufficientCapacity = 10,
    kManualCompactionPaused = 11,
    kOverwritten = 12,
    kTxnNotPrepared = 13,
    kIOFenced = 14,
    kLockHeld = 15,
    kMaxSubCode
  };

  // What a background error means for the DB (docs/reliability.md,
  // "Recovery without reopening"), as RocksDB grades it:
  //   kSoftError           writes go on; compactions wait for a retry;
  //   kHardError           writes fail until a retry or DB::Resume() clears
  //                        the error; reads go on;
  //   kFatalError          writes fail until the DB is reopened;
  //   kUnrecoverableError  as fatal, and the data may be damaged.
  // kNoError on every status that is not a background error.
  enum Severity : unsigned char {
    kNoError = 0,
    kSoftError = 1,
    kHardError = 2,
    kFatalError = 3,
    kUnrecoverableError = 4,
    kMaxSeverity
  };

  Status() noexcept : code_(kOk), subcode_(kNone) {}
  ~Status() = default;
  // s with severity sev.
  // These three are declared inline, as defined below the class: a
  // program's DLL import of Status would otherwise import them, and the
  // inline definitions contradict that (clang's -Wignored-attributes).
  inline Status(const Status& s, Severity sev);

  inline Status(const Status& rhs);
  inline Status& operator=(const Status& rhs);
  Status(Status&& rhs) noexcept = default;
  Status& operator=(Status&& rhs) noexcept = default;

  static Status OK() { return Status(); }

  static Status NotFound(const Slice& msg = Slice(),
                         const Slice& msg2 = Slice()) {
    return Status(kNotFound, kNone, msg, msg2);
  }
  // A file or directory named by the operation does not exist.
  static Status PathNotFound(const Slice& msg = Slice(),
                             const Slice& msg2 = Slice()) {
    return Status(kNotFound, kPathNotFound, msg, msg2);
  }
  static Status Corruption(const Slice& msg = Slice(),
                           const Slice& msg2 = Slice()) {
    return Status(kCorruption, kNone, msg, msg2);
  }
  static Status NotSupported(const Slice& msg = Slice(),
                             const Slice& msg2 = Slice()) {
    return Status(kNotSupported, kNone, msg, msg2);
  }
  static Status InvalidArgument(const Slice& msg = Slice(),
                                const Slice& msg2 = Slice()) {
    return Status(kInvalidArgument, kNone, msg, msg2);
  }
  static Status IOError(const Slice& msg = Slice(),
                        const Slice& msg2 = Slice()) {
    return Status(kIOError, kNone, msg, msg2);
  }
  // The device or quota is full.
  static Status NoSpace(const Slice& msg = Slice(),
                        const Slice& msg2 = Slice()) {
    return Status(kIOError, kNoSpace, msg, msg2);
  }
  static Status MergeInProgress(const Slice& msg = Slice(),
                                const Slice& msg2 = Slice()) {
    return Status(kMergeInProgress, kNone, msg, msg2);
  }
  static Status Incomplete(const Slice& msg = Slice(),
                           const Slice& msg2 = Slice()) {
    return Status(kIncomplete, kNone, msg, msg2);
  }
  static Status ShutdownInProgress(const Slice& msg = Slice(),
                                   const Slice& msg2 = Slice()) {
    return Status(kShutdownInProgress, kNone, msg, msg2);
  }
  static Status TimedOut(SubCode sc = kNone) {
    return Status(kTimedOut, sc, Slice(), Slice());
  }
  static Status TimedOut(SubCode sc, const Slice& msg,
                         const Slice& msg2 = Slice()) {
    return Status(kTimedOut, sc, msg, msg2);
  }
  static Status TimedOut(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kTimedOut, kNone, msg, msg2);
  }
  static Status Aborted(SubCode sc = kNone) {
    return Status(kAborted, sc, Slice(), Slice());
  }
  static Status Aborted(SubCode sc, const Slice& msg,
                        const Slice& msg2 = Slice()) {
    return Status(kAborted, sc, msg, msg2);
  }
  static Status Aborted(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kAborted, kNone, msg, msg2);
  }
  static Status Busy(SubCode sc = kNone) {
    return Status(kBusy, sc, Slice(), Slice());
  }
  static Status Busy(SubCode sc, const Slice& msg,
                     const Slice& msg2 = Slice()) {
    return Status(kBusy, sc, msg, msg2);
  }
  static Status Busy(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kBusy, kNone, msg, msg2);
  }
  // A lock (such as a DB's LOCK file) is held by someone else.
  // A transaction that must be prepared first (skip_prepare = false).
  static Status TxnNotPrepared(const Slice& msg = Slice(),
                               const Slice& msg2 = Slice()) {
    return Status(kInvalidArgument, kTxnNotPrepared, msg, msg2);
  }
  static Status LockHeld(const Slice& msg = Slice(),
                         const Slice& msg2 = Slice()) {
    return Status(kIOError, kLockHeld, msg, msg2);
  }
  static Status Expired(SubCode sc = kNone) {
    return Status(kExpired, sc, Slice(), Slice());
  }
  static Status Expired(SubCode sc, const Slice& msg,
                        const Slice& msg2 = Slice()) {
    return Status(kExpired, sc, msg, msg2);
  }
  static Status Expired(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kExpired, kNone, msg, msg2);
  }
  static Status TryAgain(SubCode sc = kNone) {
    return Status(kTryAgain, sc, Slice(), Slice());
  }
  static Status TryAgain(SubCode sc, const Slice& msg,
                         const Slice& msg2 = Slice()) {
    return Status(kTryAgain, sc, msg, msg2);
  }
  static Status TryAgain(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kTryAgain, kNone, msg, msg2);
  }
  // The column family the operation was for was dropped meanwhile.
  static Status ColumnFamilyDropped(const Slice& msg = Slice(),
                                    const Slice& msg2 = Slice()) {
    return Status(kColumnFamilyDropped, kNone, msg, msg2);
  }

  bool ok() const { return code_ == kOk; }
  bool IsNotFound() const { return code_ == kNotFound; }
  bool IsPathNotFound() const { return subcode_ == kPathNotFound; }
  bool IsCorruption() const { return code_ == kCorruption; }
  bool IsNotSupported() const { return code_ == kNotSupported; }
  bool IsInvalidArgument() const { return code_ == kInvalidArgument; }
  bool IsIOError() const { return code_ == kIOError; }
  bool IsNoSpace() const { return subcode_ == kNoSpace; }
  bool IsMergeInProgress() const { return code_ == kMergeInProgress; }
  bool IsIncomplete() const { return code_ == kIncomplete; }
  bool IsShutdownInProgress() const { return code_ == kShutdownInProgress; }
  bool IsTimedOut() const { return code_ == kTimedOut; }
  bool IsAborted() const { return code_ == kAborted; }
  bool IsBusy() const { return code_ == kBusy || subcode_ == kLockHeld; }
  bool IsDeadlock() const { return code_ == kBusy && subcode_ == kDeadlock; }
  bool IsLockLimit() const {
    return code_ == kAborted && subcode_ == kLockLimit;
  }
  bool IsMemoryLimit() const {
    return code_ == kAborted && subcode_ == kMemoryLimit;
  }
  bool IsTxnNotPrepared() const {
    return code_ == kInvalidArgument && subcode_ == kTxnNotPrepared;
  }
  bool IsLockHeld() const { return subcode_ == kLockHeld; }
  bool IsExpired() const { return code_ == kExpired; }
  bool IsTryAgain() const { return code_ == kTryAgain; }
  bool IsColumnFamilyDropped() const { return code_ == kColumnFamilyDropped; }

  Code code() const { return code_; }
  SubCode subcode() const { return subcode_; }
  Severity severity() const { return sev_; }

  // The message alone (empty for OK), without the code's name.
  const char* getState() const { return state_ ? state_.get() : ""; }

  // "OK", or the code's name, the sub-code's name if any, and the message:
  // "IO error: No space left on device: /db/000012.log: write".
  std::string ToString() const;

  bool operator==(const Status& rhs) const {
    return code_ == rhs.code_ && subcode_ == rhs.subcode_;
  }
  bool operator!=(const Status& rhs) const { return !(*this == rhs); }

 protected:
  Status(Code code, SubCode subcode, const Slice& msg, const Slice& msg2);

  static std::unique_ptr<const char[]> CopyState(const char* s);

  Code code_;
  SubCode subcode_;
  Severity sev_ = kNoError;
  bool retryable_ = false;
  // NUL-terminated message, or null when there is none.
  std::unique_ptr<const char[]> state_;
};

inline Status::Status(const Status& rhs)
    : code_(rhs.code_),
      subcode_(rhs.subcode_),
      sev_(rhs.sev_),
      retryable_(rhs.retryable_) {
  if (rhs.state_) state_ = CopyState(rhs.state_.get());
}

inline Status::Status(const Status& s, Severity sev) : Status(s) { sev_ = sev; }

inline Status& Status::operator=(const Status& rhs) {
  if (this != &rhs) {
    code_ = rhs.code_;
    subcode_ = rhs.subcode_;
    sev_ = rhs.sev_;
    retryable_ = rhs.retryable_;
    state_ = rhs.state_ ? CopyState(rhs.state_.get()) : nullptr;
  }
  return *this;
}

}  // namespace strata

#endif  // STRATA_INCLUDE_STATUS_H_
