#include "strata/status.h"

#include <cstring>

namespace strata {

std::unique_ptr<const char[]> Status::CopyState(const char* s) {
  const size_t n = std::strlen(s) + 1;
  char* copy = new char[n];
  std::memcpy(copy, s, n);
  return std::unique_ptr<const char[]>(copy);
}

Status::Status(Code code, SubCode subcode, const Slice& msg, const Slice& msg2)
    : code_(code), subcode_(subcode) {
  if (msg.empty() && msg2.empty()) return;
  const size_t len1 = msg.size();
  const size_t len2 = msg2.size();
  // "msg: msg2", or whichever of the two is not empty.
  const size_t sep = (len1 && len2) ? 2 : 0;
  const size_t size = len1 + sep + len2;
  char* result = new char[size + 1];
  if (len1) std::memcpy(result, msg.data(), len1);
  if (sep) {
    result[len1] = ':';
    result[len1 + 1] = ' ';
  }
  if (len2) std::memcpy(result + len1 + sep, msg2.data(), len2);
  result[size] = '\0';
  state_.reset(result);
}

std::string Status::ToString() const {
  const char* type;
  switch (code_) {
    case kOk:
      return "OK";
    case kNotFound:
      type = "NotFound";
      break;
    case kCorruption:
      type = "Corruption";
      break;
    case kNotSupported:
      type = "Not implemented";
      break;
    case kInvalidArgument:
      type = "Invalid argument";
      break;
    case kIOError:
      type = "IO error";
      break;
    case kMergeInProgress:
      type = "Merge in progress";
      break;
    case kIncomplete:
      type = "Result incomplete";
      break;
    case kShutdownInProgress:
      type = "Shutdown in progress";
      break;
    case kTimedOut:
      type = "Operation timed out";
      break;
    case kAborted:
      type = "Operation aborted";
      break;
    case kBusy:
      type = "Resource busy";
      break;
    case kExpired:
      type = "Operation expired";
      break;
    case kTryAgain:
      type = "Operation failed. Try again.";
      break;
    case kColumnFamilyDropped:
      type = "Column family dropped: ";
      break;
    default:
      type = "Unknown code";
      break;
  }
  std::string result(type);
  switch (subcode_) {
    case kNoSpace:
      result.append(": No space left on device");
      break;
    case kPathNotFound:
      result.append(": No such file or directory");
      break;
    case kLockHeld:
      result.append(": Lock held");
      break;
    case kMutexTimeout:
      result.append(": Timeout Acquiring Mutex");
      break;
    case kLockTimeout:
      result.append(": Timeout waiting to lock key");
      break;
    case kLockLimit:
      result.append(": Failed to acquire lock due to max_num_locks limit");
      break;
    case kDeadlock:
      result.append(": Deadlock");
      break;
    case kMemoryLimit:
      result.append(": Memory limit reached");
      break;
    case kTxnNotPrepared:
      result.append(": Txn not prepared");
      break;
    default:
      break;
  }
  if (state_) {
    result.append(": ");
    result.append(state_.get());
  }
  return result;
}

}  // namespace strata
