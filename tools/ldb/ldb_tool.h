// ldb: strata's DB inspection and editing tool, with RocksDB ldb's command
// line and output formats (docs/tools.md, "ldb").
//
// RunLdb runs one command line: it looks the command up in the command
// table (command.h), checks its options and flags, runs it and closes the
// DB. Output goes to out; usage and "Failed: <message>" go to err.
//
// Exit status: 0 on success; 1 on a bad command line (with the usage) or
// a failed command.

#ifndef STRATA_TOOLS_LDB_LDB_TOOL_H_
#define STRATA_TOOLS_LDB_LDB_TOOL_H_

#include <cstdio>

namespace strata {
namespace ldb {

int RunLdb(int argc, const char* const* argv, std::FILE* in, std::FILE* out,
           std::FILE* err);

}  // namespace ldb
}  // namespace strata

#endif  // STRATA_TOOLS_LDB_LDB_TOOL_H_
