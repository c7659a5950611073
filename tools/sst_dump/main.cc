// sst_dump: inspects strata's table files with RocksDB sst_dump's command
// line and output (tools/sst_dump/sst_flags.h, commands.h; docs/tools.md).
//
// Exit status: 0 on success; 1 on a bad command line or when a file could
// not be read or is damaged (the message, naming the file, the block and
// its offset, is on stderr).

#include <cstdio>

#include "strata/env.h"
#include "tools/sst_dump/commands.h"
#include "tools/sst_dump/sst_flags.h"

int main(int argc, char** argv) {
  strata::sst_dump::Flags flags;
  strata::Status s = strata::sst_dump::ParseFlags(argc, argv, &flags);
  if (flags.help && s.ok()) {
    std::fputs(strata::sst_dump::Usage().c_str(), stdout);
    return 0;
  }
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n\n%s", s.ToString().c_str(),
                 strata::sst_dump::Usage().c_str());
    return 1;
  }
  return strata::sst_dump::Run(flags, strata::Env::Default());
}
