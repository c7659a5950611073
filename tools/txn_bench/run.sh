#!/bin/sh
# Builds txn_bench.cc against RocksDB and strata (tools/rocksdb_program.sh:
# Debian's librocksdb unless ROCKSDB_PREFIX says otherwise, and
# build/release/libstrata.a), then runs both alternately (strata,
# RocksDB, strata, ...) for each kind and thread count and prints the
# medians of randomtransaction's ops/s as a Markdown table.
#
# Usage: tools/txn_bench/run.sh [runs=3] [num=100000] [threads="1 4"]
# Exit status: non-zero when a build or a run fails.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
num=${2:-100000}
threads_list=${3:-"1 4"}
work=$(mktemp -d "${TMPDIR:-/tmp}/txn_bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

. "$root/tools/rocksdb_program.sh"
build_both "$root/tools/txn_bench/txn_bench.cc" "$work"

echo "| kind | threads | strata ops/s | RocksDB ops/s | ratio |"
echo "|---|--:|--:|--:|--:|"
for kind in pessimistic optimistic; do
  for threads in $threads_list; do
    alternate "$work" "$runs" '/^randomtransaction/ {print $3}' \
      "$work/db" "$kind" "$num" "$threads"
    echo "| $kind | $threads | $(medians "$work") |"
  done
done
