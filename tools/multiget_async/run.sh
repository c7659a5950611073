#!/bin/sh
# Batched MultiGet with ReadOptions::async_io against single Gets on a DB
# larger than its block cache, read with direct I/O (docs/benchmarks.md,
# "Batched MultiGet with async_io"). One fill (fillrandom, then a full
# compaction), then rounds of: readrandom (single Gets), multireadrandom
# batched without async_io, and with it; each round runs the three one
# after another and the table shows the medians of keys read per second.
#
# Usage: tools/multiget_async/run.sh [db_bench=build/release/db_bench]
#            [runs=3] [num=4000000] [reads=20000] [batch=32] [cache=8388608]
# Exit status: non-zero when a db_bench fails.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=${1:-$root/build/release/db_bench}
runs=${2:-3}
num=${3:-4000000}
reads=${4:-20000}
batch=${5:-32}
cache=${6:-8388608}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/multiget_async.XXXXXX")
trap 'rm -rf "$work"' EXIT

common="--db=$work/db --num=$num --key_size=16 --value_size=100"
"$bench" $common --seed=1 --benchmarks=fillrandom,compact --threads=1 \
  > "$work/fill.log" 2>&1 || { cat "$work/fill.log" >&2; exit 1; }
du -sh "$work/db" >&2

# Another seed than the fill's: the reads must not retrace the keys written
# (every Get would find its key, where a batch finds what exists).
reads_flags="--seed=2 --use_existing_db=1 --use_direct_reads=1 \
  --cache_size=$cache --reads=$reads --threads=1"
run() {  # run NAME FLAGS...: appends keys/s to $work/NAME
  _name=$1
  shift
  "$bench" $common $reads_flags "$@" > "$work/out" 2>&1 ||
    { cat "$work/out" >&2; exit 1; }
  # After the progress lines, which end in carriage returns.
  _line=$(grep -oE '(multireadrandom|readrandom) +:.*' "$work/out" | tail -1)
  echo "$_name: $_line" >&2
  echo "$_line" | awk '{for (i = 1; i < NF; i++) if ($(i+1) ~ /^ops\/sec;?$/) print $i}' \
    >> "$work/$_name"
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

i=0
while [ "$i" -lt "$runs" ]; do
  run gets --benchmarks=readrandom
  run batched --benchmarks=multireadrandom --batch_size="$batch" \
    --multiread_batched=1
  run async --benchmarks=multireadrandom --batch_size="$batch" \
    --multiread_batched=1 --async_io=1
  i=$((i + 1))
done
g=$(median < "$work/gets")
b=$(median < "$work/batched")
a=$(median < "$work/async")
echo "| keys | batch | single Gets keys/s | MultiGet keys/s | MultiGet async_io keys/s | async_io / Gets |"
echo "|--:|--:|--:|--:|--:|--:|"
echo "| $num | $batch | $g | $b | $a | $(awk "BEGIN {printf \"%.2f\", $a / $g}") |"
