#include "tools/ldb/ldb_tool.h"

#include <string>

#include "tools/ldb/command.h"
#include "tools/ldb/command_line.h"

namespace strata {
namespace ldb {

namespace {

int BadCommandLine(const std::string& message, std::FILE* err) {
  std::fprintf(err, "%s\n%s", message.c_str(), UsageText().c_str());
  return 1;
}

}  // namespace

int RunLdb(int argc, const char* const* argv, std::FILE* in, std::FILE* out,
           std::FILE* err) {
  const CommandLine line = ParseCommandLine(argc, argv);
  if (line.help) {
    std::fputs(UsageText().c_str(), out);
    return 0;
  }
  if (line.command.empty()) return BadCommandLine("No command given", err);
  const CommandSpec* spec = FindCommand(line.command);
  if (spec == nullptr) {
    return BadCommandLine("Unknown command " + line.command, err);
  }
  const std::string bad_name = CheckNames(line, spec->accepted);
  if (!bad_name.empty()) return BadCommandLine(bad_name, err);

  ExecResult result = ExecResult::Ok();
  {
    Invocation invocation(line, in, out);
    result = spec->run(&invocation);
    Status closed = invocation.CloseDb();
    if (result.ok() && !closed.ok()) {
      result = ExecResult::Failed("Closing the DB: " + closed.ToString());
    }
  }
  if (std::fflush(out) != 0 || std::ferror(out)) {
    if (result.ok()) result = ExecResult::Failed("Writing the output failed");
  }
  if (!result.ok()) {
    std::fprintf(err, "Failed: %s\n", result.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace ldb
}  // namespace strata
