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
    : > "$work/strata.ops"
    : > "$work/rocksdb.ops"
    i=0
    while [ "$i" -lt "$runs" ]; do
      for engine in strata rocksdb; do
        "$work/$engine" "$work/db" "$kind" "$num" "$threads" \
          > "$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }
        ops=$(awk '/^randomtransaction/ {print $3}' "$work/out")
        echo "$kind $threads $engine: $(head -1 "$work/out")" >&2
        echo "$ops" >> "$work/$engine.ops"
      done
      i=$((i + 1))
    done
    s=$(median < "$work/strata.ops")
    r=$(median < "$work/rocksdb.ops")
    echo "| $kind | $threads | $s | $r | $(awk "BEGIN {printf \"%.2f\", $s / $r}") |"
  done
done
