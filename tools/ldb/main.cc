// ldb: RocksDB ldb's command line over strata (tools/ldb/ldb_tool.h).

#include <cstdio>

#include "tools/ldb/ldb_tool.h"

int main(int argc, char** argv) {
  return strata::ldb::RunLdb(argc, argv, stdin, stdout, stderr);
}
