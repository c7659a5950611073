// Child processes for tests that need a second process (locks held by
// another process, a process killed while holding a resource).
//
// Every strata test binary doubles as its own helper: started as
//   <test binary> --strata-child=<name> <args...>
// it runs the child routine registered under <name> (STRATA_TEST_CHILD)
// instead of the tests, and exits with the routine's return value.

#ifndef STRATA_TEST_UTIL_SUBPROCESS_H_
#define STRATA_TEST_UTIL_SUBPROCESS_H_

#include <memory>
#include <string>
#include <vector>

#include "strata/status.h"

namespace strata {
namespace test {

using ChildMain = int (*)(const std::vector<std::string>& args);

// Registers a child routine; returns true (for use in a static initializer).
bool RegisterChild(const char* name, ChildMain main);

// If argv asks for a child routine, runs it and stores its exit code in
// *exit_code, returning true. Called first thing by the test main.
bool MaybeRunChild(int argc, char** argv, int* exit_code);

// A running child process of this test binary.
class Subprocess {
 public:
  // Starts this binary with --strata-child=name and args.
  static Status Start(const std::string& name,
                      const std::vector<std::string>& args,
                      std::unique_ptr<Subprocess>* result);

  virtual ~Subprocess() = default;
  // Waits for the child to exit; returns its exit code (-1 if it was
  // killed or could not be waited for).
  virtual int Wait() = 0;
  // Ends the child at once (SIGKILL / TerminateProcess), as a crash would.
  virtual void Kill() = 0;
};

// Starts the child, waits, returns the exit code (-1 if it did not start).
int RunChild(const std::string& name, const std::vector<std::string>& args);

}  // namespace test
}  // namespace strata

// Defines and registers a child routine:
//   STRATA_TEST_CHILD(TryLock) { ... args[0] ...; return 0; }
#define STRATA_TEST_CHILD(name)                                        \
  static int StrataChild_##name(const std::vector<std::string>& args); \
  static const bool strata_child_registered_##name =                   \
      ::strata::test::RegisterChild(#name, &StrataChild_##name);       \
  static int StrataChild_##name(const std::vector<std::string>& args)

#endif  // STRATA_TEST_UTIL_SUBPROCESS_H_
