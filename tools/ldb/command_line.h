// ldb's command line, split as RocksDB's ldb splits it: every argument
// that starts with "--" is an option ("--name=value") or a flag ("--name"),
// wherever it stands; of the other arguments the first names the command
// and the rest are its parameters, in order.
//
// Which names a command accepts is declared as a list of specs (the
// global ones, kGlobalOptions, and each command's own in the command
// table):
//   "name="    an option that needs a value (--db=/path)
//   "name"     a flag without a value (--hex)
//   "name[=]"  either (--count_delim or --count_delim=|)
// CheckNames reports the first argument a command does not accept, in the
// words RocksDB's ldb uses ("Invalid command-line flag X" for a flag,
// "... option X" for an option).
//
// Thread safety: a plain value, read-only once parsed.

#ifndef STRATA_TOOLS_LDB_COMMAND_LINE_H_
#define STRATA_TOOLS_LDB_COMMAND_LINE_H_

#include <map>
#include <set>
#include <string>
#include <vector>

namespace strata {
namespace ldb {

// Options and flags every command accepts.
extern const std::vector<std::string> kGlobalOptions;

struct CommandLine {
  std::string command;              // empty if none was given
  std::vector<std::string> params;  // the arguments after the command
  std::map<std::string, std::string> options;  // --name=value
  std::set<std::string> flags;                 // --name
  bool help = false;                           // --help or -h

  // True if name was given as a flag or as an option.
  bool Has(const std::string& name) const;
  // The value of option name, or fallback if it was not given as one.
  std::string Value(const std::string& name,
                    const std::string& fallback = "") const;
};

// Splits argv[1..argc) as described above.
CommandLine ParseCommandLine(int argc, const char* const* argv);

// Checks every option and flag against kGlobalOptions and accepted (specs
// as above). Returns an empty string if all are accepted, else the
// message naming the first that is not.
std::string CheckNames(const CommandLine& line,
                       const std::vector<std::string>& accepted);

}  // namespace ldb
}  // namespace strata

#endif  // STRATA_TOOLS_LDB_COMMAND_LINE_H_
