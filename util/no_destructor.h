// NoDestructor<T>: a T constructed in place whose destructor never runs.
// For function-local statics that must outlive every other static (they may
// be used by other statics' destructors and by exiting threads).

#ifndef STRATA_UTIL_NO_DESTRUCTOR_H_
#define STRATA_UTIL_NO_DESTRUCTOR_H_

#include <new>
#include <type_traits>
#include <utility>

namespace strata {

template <typename T>
class NoDestructor {
 public:
  template <typename... Args>
  explicit NoDestructor(Args&&... args) {
    new (&storage_) T(std::forward<Args>(args)...);
  }

  NoDestructor(const NoDestructor&) = delete;
  NoDestructor& operator=(const NoDestructor&) = delete;

  // Intentionally does not destroy the T.
  ~NoDestructor() = default;

  T* get() { return std::launder(reinterpret_cast<T*>(&storage_)); }
  const T* get() const {
    return std::launder(reinterpret_cast<const T*>(&storage_));
  }
  T& operator*() { return *get(); }
  const T& operator*() const { return *get(); }
  T* operator->() { return get(); }
  const T* operator->() const { return get(); }

 private:
  alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace strata

#endif  // STRATA_UTIL_NO_DESTRUCTOR_H_
