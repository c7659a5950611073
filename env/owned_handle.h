// OwnedHandle: the sole owner of one OS handle, closed when the owner goes
// away. Each platform names its instance: ScopedFd (env/io_posix.h) for a
// POSIX file descriptor, ScopedHandle (env/io_win.h) for a Win32 HANDLE.
//
// Traits supplies:
//   using Handle = ...;                 the handle type
//   static Handle Invalid();            the value that owns nothing
//   static bool IsValid(Handle h);      false for every "no handle" value
//   static bool Close(Handle h);        false if the OS reported an error
//                                       (errno / GetLastError() says which)
//
// The destructor closes and ignores a close error, as nobody is left to
// hear it; code that must report one calls Close() first.
//
// Thread safety: an OwnedHandle is used by one thread at a time; the
// handle it gives out (get()) may be used from any thread the OS allows.

#ifndef STRATA_ENV_OWNED_HANDLE_H_
#define STRATA_ENV_OWNED_HANDLE_H_

namespace strata {

template <typename Traits>
class OwnedHandle {
 public:
  using Handle = typename Traits::Handle;

  OwnedHandle() : handle_(Traits::Invalid()) {}
  // Takes ownership of h (which may be an invalid value: then it owns
  // nothing).
  explicit OwnedHandle(Handle h) : handle_(h) {}
  ~OwnedHandle() { Reset(); }

  OwnedHandle(OwnedHandle&& other) noexcept : handle_(other.Release()) {}
  OwnedHandle& operator=(OwnedHandle&& other) noexcept {
    if (this != &other) Reset(other.Release());
    return *this;
  }
  OwnedHandle(const OwnedHandle&) = delete;
  OwnedHandle& operator=(const OwnedHandle&) = delete;

  bool is_valid() const { return Traits::IsValid(handle_); }
  Handle get() const { return handle_; }

  // Gives up ownership without closing; the caller closes the result.
  Handle Release() {
    const Handle h = handle_;
    handle_ = Traits::Invalid();
    return h;
  }

  // Closes the handle owned so far (ignoring its error) and owns h.
  void Reset(Handle h = Traits::Invalid()) {
    if (is_valid()) Traits::Close(handle_);
    handle_ = h;
  }

  // Closes now and owns nothing after, whatever the outcome. True if there
  // was nothing to close or the OS closed it; false if the OS reported an
  // error (errno / GetLastError() still holds it).
  bool Close() {
    if (!is_valid()) return true;
    return Traits::Close(Release());
  }

 private:
  Handle handle_;
};

}  // namespace strata

#endif  // STRATA_ENV_OWNED_HANDLE_H_
