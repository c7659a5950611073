// <windows.h> as strata's Windows sources include it: lean (no GDI, RPC,
// sockets, ...) and without the min/max macros, plus <winioctl.h>. For .cc
// files in port/ and env/ only; no header that engine code includes may include
// this.

#ifndef STRATA_PORT_WIN32_H_
#define STRATA_PORT_WIN32_H_

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
// After <windows.h>, which it needs: DeviceIoControl's request codes and
// structures.
#include <winioctl.h>

#endif  // STRATA_PORT_WIN32_H_
