#!/usr/bin/env python3
"""db_bench randomtransaction, strata against RocksDB, same flags.

For each transaction DB kind (--transaction_db=1, then
--optimistic_transaction_db=1) and each thread count, both engines run

  db_bench --benchmarks=fillrandom,randomtransaction --num=N
           --transaction_sets=2 --threads=T --seed=1 <compare_rocksdb's
           common flags> --<kind>=1 [flags after --]

in a fresh directory, alternating the engines run after run (strata,
RocksDB, strata, ...) so that a shared machine's load falls on both
alike. Prints the Markdown table of the randomtransaction medians (ops/s,
one op = one transaction) and their ratio, and each engine's aborted
transactions (the median of "aborts:N"). One transaction per operation in
both, so ops/s compare directly.

A run that crashes or prints no result is recorded as such (RocksDB
7.8.3's db_bench crashes on randomtransaction with
--optimistic_transaction_db) and its cell shows "crash"; the script goes
on with the others.

Usage:
  tools/compare_transactions.py [--runs=3] [--num=100000] [--threads=1,4]
      [--kinds=transaction_db,optimistic_transaction_db]
      [--strata=build/release/db_bench] [--rocksdb=/usr/bin/db_bench]
      [--tmpdir=DIR] [-- extra db_bench flags]

Exit status: 0 when every strata run succeeded; 1 otherwise or when a
binary is missing; 2 on a bad command line.
"""

import argparse
import datetime
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from compare_report import COMMON_FLAGS, ENGINES, CompareError, parse_result
from compare_setup import (DEFAULT_STRATA, find_binaries,  # noqa: F401
                           machine_info)

KINDS = ("transaction_db", "optimistic_transaction_db")
ABORTS_RE = re.compile(r"aborts:(\d+)")


def command(binary, db, kind, threads, opts):
    return [binary, "--db=%s" % db,
            "--benchmarks=fillrandom,randomtransaction",
            "--num=%d" % opts.num, "--transaction_sets=2",
            "--threads=%d" % threads, "--seed=1"] + COMMON_FLAGS + [
                "--%s=1" % kind] + opts.extra


def run_one(binary, kind, threads, opts):
    """(ops/s, aborts) of one run, or None when it failed."""
    tmp = tempfile.mkdtemp(prefix="compare-txn-", dir=opts.tmpdir)
    try:
        cmd = command(binary, tmp + "/db", kind, threads, opts)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE,
                              universal_newlines=True, errors="replace")
        result = parse_result(proc.stdout, "randomtransaction")
        if proc.returncode != 0 or result is None:
            print("  failed (exit status %d): %s" % (
                proc.returncode, " ".join(cmd)), file=sys.stderr)
            return None
        aborts = ABORTS_RE.search(result["rest"])
        return result["ops_per_sec"], int(aborts.group(1)) if aborts else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def median_or_crash(values, index):
    good = [v[index] for v in values if v is not None]
    if not good:
        return None
    return statistics.median(good)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--strata", default=DEFAULT_STRATA)
    p.add_argument("--rocksdb", default=None)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--num", type=int, default=100000)
    p.add_argument("--threads", default="1,4")
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--tmpdir", default=None)
    p.add_argument("extra", nargs="*")
    opts = p.parse_args(argv)
    try:
        strata, rocksdb = find_binaries(opts)
    except CompareError as e:
        print("compare_transactions: %s" % e, file=sys.stderr)
        return 1
    binaries = {"strata": strata, "RocksDB": rocksdb}
    threads_list = [int(t) for t in opts.threads.split(",")]
    kinds = opts.kinds.split(",")
    if any(k not in KINDS for k in kinds):
        p.error("--kinds: a list of %s" % ", ".join(KINDS))
    results = {}
    for run in range(opts.runs):
        for kind in kinds:
            for threads in threads_list:
                for engine in ENGINES:
                    r = run_one(binaries[engine], kind, threads, opts)
                    results.setdefault((kind, threads, engine), []).append(r)
                    print("run %d %-26s %d threads %-7s %s" % (
                        run + 1, kind, threads, engine,
                        "crash" if r is None else
                        "%.0f ops/s, %d aborts" % r),
                        file=sys.stderr, flush=True)

    def cell(x):
        return "crash" if x is None else "{:,.0f}".format(x)

    print("%s; %s\n" % (datetime.datetime.utcnow().strftime(
        "%Y-%m-%d %H:%M UTC"), machine_info(opts.tmpdir or
                                            tempfile.gettempdir())))
    print("| DB | threads | strata ops/s | RocksDB ops/s | ratio "
          "| strata aborts | RocksDB aborts |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    failed = False
    for kind in kinds:
        for threads in threads_list:
            s = results[(kind, threads, "strata")]
            r = results[(kind, threads, "RocksDB")]
            failed = failed or any(v is None for v in s)
            sm, rm = median_or_crash(s, 0), median_or_crash(r, 0)
            ratio = "-" if sm is None or not rm else "%.2f" % (sm / rm)
            print("| --%s | %d | %s | %s | %s | %s | %s |" % (
                kind, threads, cell(sm), cell(rm), ratio,
                cell(median_or_crash(s, 1)), cell(median_or_crash(r, 1))))
    print("\n%d runs of each engine, alternating; command: %s" % (
        opts.runs, " ".join(command("db_bench", "$DB", "<kind>", 0, opts))
        .replace("--threads=0", "--threads=T")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
