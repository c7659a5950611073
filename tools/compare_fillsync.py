#!/usr/bin/env python3
"""Synced writes from 1 to 16 threads: strata's db_bench against RocksDB's.

Each round first measures the disk: one thread writing a 116-byte record
and calling fdatasync, 2,000 times, in the directory the DBs live in. That
rate is the physical reference: one synced writer can go no faster, and N
writers go N times faster only if every sync carries N writes. Then, for
every thread count, each engine runs `fillsync` once in a fresh directory
(--writes per thread, every write synced), alternating the engines; the
table shows per thread count the runs, the median ops/sec of each engine,
their ratio, each engine's speedup over its own one-thread median, and the
writes each sync carried (from --statistics: strata's
strata.wal.synced.writes over strata.wal.synced, RocksDB's rocksdb.write.wal
over rocksdb.wal.synced).

An optional third column, "strata, no gather", runs strata's db_bench with
--write_thread_sync_gather_usec=0: the group commit without the wait for
returning writers (docs/write_path.md), on the same binary.

Usage:
  tools/compare_fillsync.py --runs=3 --out=fs
  tools/compare_fillsync.py --threads=1,4 --writes=500 --no_gather=0

Exit status: 0 on success; 1 when a db_bench fails or prints no result; 2
on a bad command line.
"""

import argparse
import datetime
import os
import re
import statistics
import sys
import tempfile
import time

from compare_report import COMMON_FLAGS, CompareError, shell_word
from compare_rocksdb import run_in_fresh_dir
from compare_setup import DEFAULT_ROCKSDB, DEFAULT_STRATA, machine_info

NO_GATHER = "strata, no gather"
# Writes and syncs per engine: the tickers --statistics prints.
TICKERS = {"strata": ("strata.wal.synced.writes", "strata.wal.synced"),
           NO_GATHER: ("strata.wal.synced.writes", "strata.wal.synced"),
           "RocksDB": ("rocksdb.write.wal", "rocksdb.wal.synced")}
TICKER_RE = re.compile(r"^(?P<name>[a-z0-9._]+) COUNT : (?P<count>\d+)$",
                       re.M)
RECORD = b"x" * 116
PROBE_WRITES = 2000


def engine_args(engine, threads, writes, db):
    """The db_bench arguments of one run."""
    args = ["--db=%s" % db, "--benchmarks=fillsync", "--num=1000000",
            "--threads=%d" % threads, "--writes=%d" % writes,
            "--statistics=1"] + COMMON_FLAGS
    if engine == NO_GATHER:
        args.append("--write_thread_sync_gather_usec=0")
    return args


def writes_per_sync(engine, output):
    """Writes over syncs from the tickers of output; None if missing."""
    counts = {m.group("name"): int(m.group("count"))
              for m in TICKER_RE.finditer(output)}
    writes, syncs = TICKERS[engine]
    if not counts.get(syncs) or writes not in counts:
        return None
    return counts[writes] / counts[syncs]


def fdatasync_rate(directory, writes=PROBE_WRITES):
    """Appends of one record, each followed by fdatasync, per second."""
    path = os.path.join(directory, "probe")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        start = time.monotonic()
        for _ in range(writes):
            os.write(fd, RECORD)
            os.fdatasync(fd)
        return writes / (time.monotonic() - start)
    finally:
        os.close(fd)
        os.unlink(path)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def table_rows(results, engines, threads):
    """results: [{engine, threads, ops_per_sec, writes_per_sync}] -> one
    row per thread count: runs, medians, speedup over one thread (when one
    thread was run), writes per sync, and strata/RocksDB."""
    rows = []
    base = {}
    for n in threads:
        row = {"threads": n}
        for engine in engines:
            mine = [r for r in results
                    if r["engine"] == engine and r["threads"] == n]
            ops = median([r["ops_per_sec"] for r in mine])
            if n == 1:
                base[engine] = ops
            row[engine] = {
                "runs": [r["ops_per_sec"] for r in mine],
                "ops": ops,
                "speedup": (ops / base[engine]
                            if base.get(engine) and ops is not None
                            else None),
                "per_sync": median([r["writes_per_sync"] for r in mine]),
            }
        s, r = row["strata"]["ops"], row["RocksDB"]["ops"]
        row["ratio"] = s / r if s is not None and r else None
        rows.append(row)
    return rows


def _fmt(x, spec):
    return "-" if x is None else spec.format(x)


def format_table(rows, engines):
    head = ["threads"]
    for e in engines:
        head += ["%s runs" % e, "%s median" % e, "%s ×1 thread" % e,
                 "%s writes/sync" % e]
    head.append("strata / RocksDB")
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["--:"] * len(head)) + "|"]
    for row in rows:
        cells = [str(row["threads"])]
        for e in engines:
            c = row[e]
            cells += [", ".join("{:,.0f}".format(x) for x in c["runs"]),
                      _fmt(c["ops"], "{:,.0f}"), _fmt(c["speedup"], "{:.2f}"),
                      _fmt(c["per_sync"], "{:.2f}")]
        cells.append(_fmt(row["ratio"], "{:.2f}"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--strata", default=DEFAULT_STRATA)
    p.add_argument("--rocksdb", default=DEFAULT_ROCKSDB)
    p.add_argument("--threads", default="1,2,4,8,16")
    p.add_argument("--writes", type=int, default=1000,
                   help="synced writes per thread per run")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--no_gather", type=int, default=1,
                   help="also run strata with the gather off (1, default)")
    p.add_argument("--tmpdir", default=None,
                   help="where the DBs and the probe file go")
    p.add_argument("--out", default=None, help="write fillsync.md here")
    opts = p.parse_args(argv)
    try:
        opts.threads = [int(t) for t in opts.threads.split(",")]
    except ValueError:
        p.error("--threads: a comma-separated list of numbers")
    if opts.runs < 1 or opts.writes < 1 or min(opts.threads) < 1:
        p.error("--runs, --writes and every thread count must be >= 1")
    return opts


def main(argv):
    opts = parse_args(argv)
    engines = ["strata"] + ([NO_GATHER] if opts.no_gather else []) + \
        ["RocksDB"]
    binaries = {"strata": opts.strata, NO_GATHER: opts.strata,
                "RocksDB": opts.rocksdb}
    for engine in engines:
        if not os.access(binaries[engine], os.X_OK):
            print("no db_bench for %s at %s" % (engine, binaries[engine]),
                  file=sys.stderr)
            return 1
    parent = opts.tmpdir or tempfile.gettempdir()
    results, probes = [], []
    log = None
    if opts.out:
        os.makedirs(opts.out, exist_ok=True)
        log = os.path.join(opts.out, "fillsync.log")
    try:
        for run in range(1, opts.runs + 1):
            probes.append(fdatasync_rate(parent))
            print("round %d: fdatasync %.0f/s" % (run, probes[-1]),
                  file=sys.stderr, flush=True)
            for n in opts.threads:
                for engine in engines:
                    def plan(db, engine=engine, n=n):
                        return [(engine_args(engine, n, opts.writes, db),
                                 False)]
                    result, output = run_in_fresh_dir(
                        engine, binaries[engine], "fillsync", plan, parent,
                        log)
                    results.append({
                        "engine": engine, "threads": n,
                        "ops_per_sec": result["ops_per_sec"],
                        "writes_per_sync": writes_per_sync(engine, output)})
                    print("round %d %2d threads %-18s %8.0f ops/s" %
                          (run, n, engine, result["ops_per_sec"]),
                          file=sys.stderr, flush=True)
    except CompareError as e:
        print(e, file=sys.stderr)
        return 1
    rows = table_rows(results, engines, opts.threads)
    text = ["# fillsync, %s threads" % ", ".join(map(str, opts.threads)),
            "",
            "- Date: %s" % datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%d %H:%M UTC"),
            "- Machine: %s" % machine_info(parent),
            "- Binaries: strata `%s`, RocksDB `%s`" % (opts.strata,
                                                      opts.rocksdb),
            "- fdatasync of one 116-byte record, one thread: %s per second "
            "(one probe per round)" % ", ".join("%.0f" % p for p in probes),
            "- `--writes=%d` per thread, %d round(s), engines alternating "
            "within each; each run: `%s`" % (
                opts.writes, opts.runs,
                " ".join(shell_word(a) for a in engine_args(
                    "strata", 4, opts.writes, "$DB"))),
            "", format_table(rows, engines)]
    report = "\n".join(text) + "\n"
    print(report)
    if opts.out:
        with open(os.path.join(opts.out, "fillsync.md"), "w") as f:
            f.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
