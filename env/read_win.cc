#include "env/read_win.h"

#include <algorithm>
#include <cstring>

#include "env/io_util.h"
#include "env/io_win.h"
#include "port/port.h"

namespace strata {

namespace {

// One ReadFile moves at most a DWORD's worth; stay well below.
constexpr size_t kMaxChunk = size_t{1} << 30;

// Runs on the exiting thread, under the loader lock: CloseHandle takes no
// lock of the process's.
void CloseReadEvent(void* event) { CloseHandle(static_cast<HANDLE>(event)); }

// The slot holding each thread's read event. Made once and never deleted:
// threads may exit, and their events be closed, until the process ends.
struct ReadEventKey {
  ReadEventKey() : ok(port::ThreadKeyCreate(&key, CloseReadEvent)) {}
  port::ThreadKey key;
  bool ok;
};

}  // namespace

OVERLAPPED WinOverlappedAt(uint64_t offset, HANDLE event) {
  OVERLAPPED ov;
  std::memset(&ov, 0, sizeof(ov));
  ov.Offset = static_cast<DWORD>(offset);
  ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
  ov.hEvent = event;
  return ov;
}

void WinStartRead(HANDLE handle, HANDLE event, uint64_t offset, char* buffer,
                  DWORD want, WinRead* read) {
  read->overlapped = WinOverlappedAt(offset, event);
  // No byte count here: for an overlapped handle it may be wrong, and
  // WinFinishRead asks the OVERLAPPED, which is right for both kinds.
  read->started = ReadFile(handle, buffer, want, nullptr, &read->overlapped)
                      ? ERROR_SUCCESS
                      : GetLastError();
}

DWORD WinFinishRead(HANDLE handle, WinRead* read, DWORD* got) {
  *got = 0;
  DWORD err = read->started;
  if (err == ERROR_SUCCESS || err == ERROR_IO_PENDING) {
    // Waits on the read's own event, and only if it is still in flight.
    err = GetOverlappedResult(handle, &read->overlapped, got, TRUE)
              ? ERROR_SUCCESS
              : GetLastError();
  }
  if (err == ERROR_HANDLE_EOF) {
    *got = 0;
    return ERROR_SUCCESS;
  }
  if (err != ERROR_SUCCESS) *got = 0;
  return err;
}

HANDLE WinThreadReadEvent() {
  static const ReadEventKey slot;
  if (!slot.ok) {
    SetLastError(ERROR_NO_SYSTEM_RESOURCES);
    return nullptr;
  }
  HANDLE event = static_cast<HANDLE>(port::ThreadKeyGet(slot.key));
  if (event == nullptr) {
    event = CreateEventW(nullptr, /*bManualReset=*/TRUE,
                         /*bInitialState=*/FALSE, nullptr);
    if (event == nullptr) return nullptr;
    port::ThreadKeySet(slot.key, event);
  }
  return event;
}

Status WinPositionedRead(void* handle, const std::string& fname,
                         size_t direct_alignment, uint64_t offset, size_t n,
                         Slice* result, char* scratch) {
  *result = Slice(scratch, 0);
  if (direct_alignment != 0) {
    Status s = CheckDirectIOAlignment(fname, "read", offset, n, scratch,
                                      direct_alignment);
    if (!s.ok()) return s;
  }
  ScopedHandle own_event;
  HANDLE event = WinThreadReadEvent();
  if (event == nullptr) {
    own_event.Reset(CreateEventW(nullptr, TRUE, FALSE, nullptr));
    if (!own_event.is_valid()) {
      return WinError(fname, "CreateEvent", GetLastError());
    }
    event = own_event.get();
  }
  size_t done = 0;
  while (done < n) {
    const DWORD want = static_cast<DWORD>(std::min(n - done, kMaxChunk));
    WinRead read;
    WinStartRead(static_cast<HANDLE>(handle), event, offset + done,
                 scratch + done, want, &read);
    DWORD got = 0;
    const DWORD err = WinFinishRead(static_cast<HANDLE>(handle), &read, &got);
    if (err != ERROR_SUCCESS) return WinError(fname, "ReadFile", err);
    if (got == 0) break;
    done += got;
    // A short unbuffered read is the end of the file; the remainder would
    // be misaligned and refused.
    if (direct_alignment != 0 && got < want) break;
  }
  *result = Slice(scratch, done);
  return Status::OK();
}

}  // namespace strata
