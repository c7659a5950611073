// The platform layer's single entry point. CMake defines exactly one of
// STRATA_PLATFORM_POSIX or STRATA_PLATFORM_WINDOWS; engine code includes
// this header and never tests a platform macro itself.
//
// Each platform header provides, in namespace strata::port:
//   kLittleEndian, kCacheLineSize, kMaxPathLength;
//   Mutex, CondVar (Wait, TimedWait, Signal, SignalAll), RWMutex;
//   OnceType + InitOnce;
//   ThreadKey + ThreadKeyCreate/Delete/Get/Set (a TLS slot whose destructor
//   runs when a thread that set it exits);
//   AsmVolatilePause, Prefetch, CurrentThreadId, SetCurrentThreadName,
//   GetPageSize;
//   kHugePageSize, kHugePageRegionAlignment, AllocateHugePageRegion,
//   FreeHugePageRegion and HugePagesAvailable (the memtable's huge-page
//   regions);
//   the STRATA_PRIszt printf length macro for size_t.

#ifndef STRATA_PORT_PORT_H_
#define STRATA_PORT_PORT_H_

#if defined(STRATA_PLATFORM_POSIX)
#include "port/port_posix.h"
#elif defined(STRATA_PLATFORM_WINDOWS)
#include "port/port_win.h"
#else
#error "CMake must define STRATA_PLATFORM_POSIX or STRATA_PLATFORM_WINDOWS"
#endif

#endif  // STRATA_PORT_PORT_H_
