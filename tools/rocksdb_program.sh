# Sourced by the scripts that run one program written against RocksDB's
# API on both engines (tools/txn_bench/run.sh, tools/titles_ingest/run.sh).
# Defines
#   build_both SOURCE DIR  DIR/rocksdb: SOURCE built as is against RocksDB;
#                          DIR/strata: SOURCE with "rocksdb" replaced by
#                          "strata", against strata's Release build
#                          (build/release/libstrata.a: cmake --build
#                          build/release --target strata);
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
  g++ -O2 -DNDEBUG -std=c++17 -DSTRATA_STATIC_DEFINE \
    -I"$rocksdb_program_root/include" \
    -I"$rocksdb_program_root/build/release/generated/include" \
    "$2/strata.cc" -o "$2/strata" \
    "$rocksdb_program_root/build/release/libstrata.a" -lsnappy -lz -lpthread
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
