// db_bench: strata's benchmark tool, with RocksDB db_bench's command line
// and output (docs: tools/db_bench/*.h). Without flags it runs the
// README's workload on 1 M keys in a temporary directory.
//
// Exit status: 0 on success, 1 on a bad command line or a failed
// benchmark (the message is on stderr).

#include <cinttypes>
#include <cstdio>
#include <string>

#include "strata/env.h"
#include "strata/options.h"
#include "tools/db_bench/bench_options.h"
#include "tools/db_bench/flags.h"
#include "tools/db_bench/report.h"
#include "tools/db_bench/workloads.h"

int main(int argc, char** argv) {
  using strata::bench::Flags;
  Flags flags;
  bool help = false;
  strata::Status s = strata::bench::ParseFlags(argc, argv, &flags, &help);
  if (help) {
    std::fputs(strata::bench::FlagsHelp().c_str(), stdout);
    return 0;
  }
  if (s.ok()) s = strata::bench::ValidateFlags(flags);
  if (s.ok() && flags.given.count("compression_type") == 0 &&
      strata::Options().compression == strata::kNoCompression) {
    // RocksDB's default, snappy, is not built in: the default becomes no
    // compression (asking for snappy by name is still an error).
    flags.compression_type = "none";
    std::fprintf(stderr,
                 "WARNING: snappy is not built into this strata; "
                 "--compression_type defaults to none\n");
  }
  if (!s.ok()) {
    std::fprintf(stderr, "db_bench: %s\n(see db_bench --help)\n",
                 s.ToString().c_str());
    return 1;
  }

  strata::Env* env = strata::Env::Default();
  if (flags.db.empty()) {
    std::string dir;
    s = env->GetTestDirectory(&dir);
    if (!s.ok()) {
      std::fprintf(stderr, "db_bench: no temporary directory: %s\n",
                   s.ToString().c_str());
      return 1;
    }
    flags.db = dir + "/dbbench";
  }
  if (flags.seed == 0) {
    flags.seed = static_cast<int64_t>(env->NowMicros());
    std::fprintf(stdout, "Set seed to %" PRId64 " because --seed was 0\n",
                 flags.seed);
  }

  strata::bench::PrintEnvironment();
  strata::bench::PrintHeader(flags);
  strata::bench::Benchmark benchmark(flags);
  s = benchmark.Run();
  if (!s.ok()) {
    std::fprintf(stderr, "db_bench: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
