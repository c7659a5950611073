// IOStatus: a Status from the I/O layer that can say more about an error
// than its code: whether trying again may succeed (retryable). strata's
// Env returns plain Status; an Env (or a test's) that knows a failure is
// passing builds an IOStatus, marks it, and returns it as a Status -- the
// mark travels with the Status through the engine. A background error
// marked retryable stops writes only until a retry succeeds
// (docs/reliability.md, "Recovery without reopening").
//
// The subset of RocksDB 7.8's IOStatus that strata uses; the scope and
// data-loss marks are not kept.
//
// Thread safety: as Status.

#ifndef STRATA_INCLUDE_IO_STATUS_H_
#define STRATA_INCLUDE_IO_STATUS_H_

#include <utility>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT IOStatus : public Status {
 public:
  using Code = Status::Code;
  using SubCode = Status::SubCode;

  IOStatus() = default;

  void SetRetryable(bool retryable) { retryable_ = retryable; }
  bool GetRetryable() const { return retryable_; }

  static IOStatus OK() { return IOStatus(); }
  static IOStatus NotFound(const Slice& msg = Slice(),
                           const Slice& msg2 = Slice()) {
    return IOStatus(kNotFound, kNone, msg, msg2);
  }
  static IOStatus PathNotFound(const Slice& msg = Slice(),
                               const Slice& msg2 = Slice()) {
    return IOStatus(kNotFound, kPathNotFound, msg, msg2);
  }
  static IOStatus Corruption(const Slice& msg = Slice(),
                             const Slice& msg2 = Slice()) {
    return IOStatus(kCorruption, kNone, msg, msg2);
  }
  static IOStatus NotSupported(const Slice& msg = Slice(),
                               const Slice& msg2 = Slice()) {
    return IOStatus(kNotSupported, kNone, msg, msg2);
  }
  static IOStatus InvalidArgument(const Slice& msg = Slice(),
                                  const Slice& msg2 = Slice()) {
    return IOStatus(kInvalidArgument, kNone, msg, msg2);
  }
  static IOStatus IOError(const Slice& msg = Slice(),
                          const Slice& msg2 = Slice()) {
    return IOStatus(kIOError, kNone, msg, msg2);
  }
  static IOStatus NoSpace(const Slice& msg = Slice(),
                          const Slice& msg2 = Slice()) {
    return IOStatus(kIOError, kNoSpace, msg, msg2);
  }
  static IOStatus Busy(const Slice& msg = Slice(),
                       const Slice& msg2 = Slice()) {
    return IOStatus(kBusy, kNone, msg, msg2);
  }
  static IOStatus TimedOut(const Slice& msg = Slice(),
                           const Slice& msg2 = Slice()) {
    return IOStatus(kTimedOut, kNone, msg, msg2);
  }
  static IOStatus Aborted(const Slice& msg = Slice(),
                          const Slice& msg2 = Slice()) {
    return IOStatus(kAborted, kNone, msg, msg2);
  }

 private:
  friend IOStatus status_to_io_status(Status&& status);

  IOStatus(Code code, SubCode subcode, const Slice& msg, const Slice& msg2)
      : Status(code, subcode, msg, msg2) {}
};

// status as an IOStatus, its marks kept (GetRetryable() reads the one a
// Status carries).
inline IOStatus status_to_io_status(Status&& status) {
  IOStatus result;
  static_cast<Status&>(result) = std::move(status);
  return result;
}

}  // namespace strata

#endif  // STRATA_INCLUDE_IO_STATUS_H_
