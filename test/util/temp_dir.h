// TempDir: a fresh, uniquely named directory under the Env's test
// directory, removed with everything in it when the TempDir goes away.

#ifndef STRATA_TEST_UTIL_TEMP_DIR_H_
#define STRATA_TEST_UTIL_TEMP_DIR_H_

#include <string>

#include "strata/env.h"

namespace strata {
namespace test {

class TempDir {
 public:
  explicit TempDir(Env* env, const std::string& prefix = "t");
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  const std::string& path() const { return path_; }
  // path()/name
  std::string File(const std::string& name) const;

 private:
  Env* const env_;
  std::string path_;
};

// Removes path and, if it is a directory, everything below it. OK if path
// does not exist.
Status RemoveRecursively(Env* env, const std::string& path);

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_UTIL_TEMP_DIR_H_
