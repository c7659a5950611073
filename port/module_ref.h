// Where strata's code lives, and keeping it loaded while strata's own
// threads run in it.
//
// On Windows strata is either part of the program's EXE (a static link) or
// inside a DLL (strata.dll, or a program's DLL that links strata
// statically). A thread that strata starts runs code of that DLL, and a
// FreeLibrary that unmaps the DLL under a live thread crashes the thread
// when it next wakes. So while a pool has threads it holds a reference on
// the DLL (AcquireModuleReference), and gives it up only after it has
// joined them (ThreadPool::JoinWhenIdle): a FreeLibrary that breaks the
// unload rule of docs/windows.md leaves the DLL loaded instead of unmapping
// running code.
//
// On POSIX these are no-ops: strata's atexit handlers run before the
// process's threads end, and dlclose is not covered here.
//
// Thread safety: every function is safe from any thread.

#ifndef STRATA_PORT_MODULE_REF_H_
#define STRATA_PORT_MODULE_REF_H_

namespace strata {
namespace port {

#if defined(_WIN32)

// True if strata's code is part of the process's EXE; false if it is in a
// DLL.
bool CodeInMainExecutable();

// Adds a reference to the DLL that holds strata's code and returns true;
// returns false (nothing to release) where that code is part of the EXE.
bool AcquireModuleReference();

// Gives back one reference taken by AcquireModuleReference. REQUIRES: not
// called by a thread that strata started, and not the last reference (the
// caller is code of the program, which holds its own while it calls
// strata), so the DLL is never unmapped under the caller.
void ReleaseModuleReference();

#else

inline bool CodeInMainExecutable() { return true; }
inline bool AcquireModuleReference() { return false; }
inline void ReleaseModuleReference() {}

#endif

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_MODULE_REF_H_
