#!/bin/sh
# The titles ingest, strata against RocksDB (docs/benchmarks.md, "The
# titles ingest"). Builds titles_ingest.cc against RocksDB and strata
# (tools/rocksdb_program.sh: Debian's librocksdb unless ROCKSDB_PREFIX says
# otherwise, and build/release/libstrata.a), then runs both alternately
# (strata, RocksDB, strata, ...) for each order and prints the medians of
# the ingest times as a Markdown table.
#
# Usage: tools/titles_ingest/run.sh [runs=3] [count=13700000]
#            [orders="random sorted"]
# Exit status: non-zero when a build or a run fails.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
count=${2:-13700000}
orders=${3:-"random sorted"}
work=$(mktemp -d "${TMPDIR:-/tmp}/titles_ingest.XXXXXX")
trap 'rm -rf "$work"' EXIT

. "$root/tools/rocksdb_program.sh"
build_both "$root/tools/titles_ingest/titles_ingest.cc" "$work"

echo "| order | keys | strata s | RocksDB s | strata / RocksDB |"
echo "|---|--:|--:|--:|--:|"
for order in $orders; do
  alternate "$work" "$runs" '/^titles/ {print $8}' "$work/db" "$order" "$count"
  echo "| $order | $count | $(medians "$work") |"
done
