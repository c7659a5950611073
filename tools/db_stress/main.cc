// db_stress: random operations on a strata DB from many threads, each
// checked against an expected state kept in a file, and every key checked
// after every open; the process may be killed (tools/db_crashtest.py) or
// kill itself (--kill_random_test, --crash_after_ms) at any time, and the
// next run verifies that the DB recovered to a state the expected state
// allows. See docs/reliability.md, "Stress and crash testing".
//
// Exit status: 0 when every check passed; 1 on a bad command line or an
// error; 3 on a verification failure (the failing family, key, expected
// and found state are on stderr); kCrashExitCode (crash.h) when it ended
// itself as a crash on purpose.

#include <cinttypes>
#include <cstdio>

#include "strata/env.h"
#include "tools/db_stress/crash.h"
#include "tools/db_stress/stress_flags.h"
#include "tools/db_stress/stress_test.h"

int main(int argc, char** argv) {
  using strata::stress::StressFlags;
  StressFlags flags;
  bool help = false;
  strata::Status s =
      strata::stress::ParseStressFlags(argc, argv, &flags, &help);
  if (help) {
    std::fputs(strata::stress::StressFlagsHelp().c_str(), stdout);
    return 0;
  }
  if (s.ok()) s = strata::stress::ValidateStressFlags(flags);
  if (!s.ok()) {
    std::fprintf(stderr, "db_stress: %s\n(see db_stress --help)\n",
                 s.ToString().c_str());
    return 1;
  }
  if (flags.seed == 0) {
    flags.seed =
        static_cast<int64_t>(strata::Env::Default()->NowMicros() % 1000000007);
  }
  std::fprintf(stdout, "db_stress: seed %" PRId64 "\n", flags.seed);
  std::fflush(stdout);

  strata::stress::StressTest test(flags);
  strata::stress::InstallCrashes(test.fault_env(), flags.kill_random_test,
                                 flags.kill_exclude_prefixes,
                                 static_cast<uint32_t>(flags.seed));
  s = test.Run();
  if (!s.ok() && strata::stress::Crashing()) strata::stress::WaitForCrash();
  if (s.IsCorruption()) {
    std::fprintf(stderr, "db_stress: %s\n", s.ToString().c_str());
    return 3;
  }
  if (!s.ok()) {
    std::fprintf(stderr, "db_stress: %s\n", s.ToString().c_str());
    return 1;
  }
  std::fprintf(stdout, "db_stress: verification successful\n");
  return 0;
}
