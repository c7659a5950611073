// Positional reads on Windows, through synchronous and overlapped handles.
//
// Random-access files (the tables) are opened FILE_FLAG_OVERLAPPED. On a
// synchronous handle the I/O manager lets one transfer at a time through
// the file object — even with an OVERLAPPED offset — so Gets from many
// threads on one table would queue behind each other. On an overlapped
// handle a read is started (WinStartRead) and later finished
// (WinFinishRead), and any number may be in flight on the handle at once,
// from many threads or from one (a batch of reads started together).
//
// Each read in flight needs an event of its own: the handle itself is
// signalled by whichever read on it completes, so a wait on it could
// return for another read. WinPositionedRead (env/io_win.h) uses the
// calling thread's event (WinThreadReadEvent).
//
// The same calls work on a synchronous handle (sequential, read-write and
// writable files stay synchronous): ReadFile returns only once the read
// is done, and finishing it waits for nothing.
//
// An overlapped handle has no file pointer: every transfer on it must go
// through an OVERLAPPED offset, as every transfer in env/ does.
//
// Included only by Windows sources (it includes <windows.h>).

#ifndef STRATA_ENV_READ_WIN_H_
#define STRATA_ENV_READ_WIN_H_

#include <cstdint>

#include "port/win32.h"

namespace strata {

// An OVERLAPPED for a transfer at offset that signals event when done
// (event may be null for a synchronous handle).
OVERLAPPED WinOverlappedAt(uint64_t offset, HANDLE event);

// One read started on a handle. It must stay where it is, and so must
// its buffer and event, until WinFinishRead returns for it.
struct WinRead {
  OVERLAPPED overlapped;
  // What ReadFile answered: ERROR_SUCCESS (done), ERROR_IO_PENDING (in
  // flight), or the error that kept the read from starting.
  DWORD started;
};

// Starts reading want bytes at offset into buffer through handle. event:
// a manual-reset event that no other read in flight uses; ReadFile resets
// it and the system sets it when the read is done.
void WinStartRead(HANDLE handle, HANDLE event, uint64_t offset, char* buffer,
                  DWORD want, WinRead* read);

// Waits until read is done and sets *got to the bytes it read: fewer than
// asked, or none, at the end of the file, which is not an error
// (ERROR_HANDLE_EOF, whether ReadFile or the completion reports it).
// Returns ERROR_SUCCESS or the Win32 error that failed the read.
DWORD WinFinishRead(HANDLE handle, WinRead* read, DWORD* got);

// The calling thread's read event, a manual-reset event made on its first
// call and closed when the thread exits (a port::ThreadKey destructor,
// which on Windows runs from the DLL's TLS callback). Null, with
// GetLastError() set, if the event cannot be made or the process has no
// TLS slot left; the caller then makes an event of its own.
HANDLE WinThreadReadEvent();

}  // namespace strata

#endif  // STRATA_ENV_READ_WIN_H_
