# Sourced by the scripts that run one program written against RocksDB's
# API on both engines (tools/txn_bench/run.sh, tools/titles_ingest/run.sh).
# Defines
#   build_both SOURCE DIR  DIR/rocksdb: SOURCE built as is against RocksDB;
#                          DIR/strata: SOURCE with "rocksdb" replaced by
#                          "strata", against strata's Release build
#                          (build/release/libstrata.a: cmake --build
#                          build/release --target strata);
#   alternate DIR RUNS AWK ARGS...
#                          DIR/strata and DIR/rocksdb run with ARGS, one
#                          after the other, RUNS times each; from each
#                          run's output the number the awk program AWK
#                          prints goes to DIR/<engine>.values (its first
#                          line to stderr); a failed run ends the script;
#   medians DIR            "<strata median> | <RocksDB median> | <ratio>"
#                          of DIR/<engine>.values, for a Markdown row;
#   median                 the median of the numbers on stdin, one a line.
# RocksDB is Debian's librocksdb (librocksdb-dev) unless ROCKSDB_PREFIX
# names another build's prefix (with include/ and lib/librocksdb.so).

rocksdb_program_root=${root:?set root to the checkout before sourcing}

build_both() {
  if [ -n "${ROCKSDB_PREFIX:-}" ]; then
    g++ -O2 -DNDEBUG -std=c++17 -I"$ROCKSDB_PREFIX/include" "$1" -o "$2/rocksdb" \
      -L"$ROCKSDB_PREFIX/lib" -Wl,-rpath,"$ROCKSDB_PREFIX/lib" -lrocksdb \
      -lpthread
  else
    g++ -O2 -DNDEBUG -std=c++17 "$1" -o "$2/rocksdb" -lrocksdb -lpthread
  fi
  sed 's/rocksdb/strata/g' "$1" > "$2/strata.cc"
  # liburing when the Release build has it (STRATA_WITH_LIBURING).
  _uring=
  if grep -q '^STRATA_WITH_LIBURING:BOOL=ON' \
    "$rocksdb_program_root/build/release/CMakeCache.txt"; then
    _uring=-luring
  fi
  g++ -O2 -DNDEBUG -std=c++17 -DSTRATA_STATIC_DEFINE \
    -I"$rocksdb_program_root/include" \
    -I"$rocksdb_program_root/build/release/generated/include" \
    "$2/strata.cc" -o "$2/strata" \
    "$rocksdb_program_root/build/release/libstrata.a" -lsnappy -lz $_uring \
    -lpthread
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

alternate() {
  _dir=$1
  _runs=$2
  _prog=$3
  shift 3
  : > "$_dir/strata.values"
  : > "$_dir/rocksdb.values"
  _i=0
  while [ "$_i" -lt "$_runs" ]; do
    for _engine in strata rocksdb; do
      "$_dir/$_engine" "$@" > "$_dir/out" 2>&1 ||
        { cat "$_dir/out" >&2; exit 1; }
      echo "$_engine $*: $(head -1 "$_dir/out")" >&2
      awk "$_prog" "$_dir/out" >> "$_dir/$_engine.values"
    done
    _i=$((_i + 1))
  done
}

medians() {
  _s=$(median < "$1/strata.values")
  _r=$(median < "$1/rocksdb.values")
  echo "$_s | $_r | $(awk "BEGIN {printf \"%.2f\", $_s / $_r}")"
}
