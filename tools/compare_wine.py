#!/usr/bin/env python3
"""strata's db_bench.exe under Wine against its native db_bench.

The cost of the Windows port plus Wine on one machine: the same
benchmarks, the same flags as tools/compare_rocksdb.py (plan_steps), run
by the native Linux db_bench and by the MinGW-w64 db_bench.exe under
wine64, alternating run after run (native, Wine, native, Wine, ...), once
with buffered reads and once with --use_direct_reads=true. Prints a
Markdown table of the median ops/sec of each and the ratio Wine/native.

What the number is: Wine's translation of every Win32 call (ReadFile,
WriteFile, the synchronization objects, and wineserver round trips for
some of them) plus strata's Windows port (env/*_win.cc, port/*_win.cc) on
top of the same engine code, against strata's POSIX Env. It is not what
strata costs on a real Windows kernel. Wine (8.0 here) opens
FILE_FLAG_NO_BUFFERING files without O_DIRECT, so the "direct" rows under
Wine still read through Linux's page cache while the native ones do not.

Usage:
  tools/compare_wine.py [--native=PATH] [--exe=PATH] [--runs=N] [--num=N]
                        [--benchmarks=LIST] [--modes=buffered,direct]
                        [--out=DIR] [-- extra db_bench flags]

--native defaults to build/release/db_bench, --exe to
build/windows/db_bench.exe (the static MinGW-w64 build of ./build.sh
test). WINEPREFIX defaults to ~/.cache/strata/wine, as ./build.sh uses;
the script starts and stops that prefix's wineserver, so it must not run
beside ./build.sh test (nor should anything else: it measures).

Exit status: 0 on success; 1 when a db_bench fails or prints no result;
2 on a bad command line.
"""

import argparse
import datetime
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_report import (CompareError, parse_benchmarks,  # noqa: E402
                            parse_result, plan_steps)
from compare_setup import ROOT, machine_info  # noqa: E402

DEFAULT_BENCHMARKS = ("fillseq,fillrandom,overwrite,readrandom,readseq,"
                      "seekrandom,readwhilewriting,fillsync")
MODES = {"buffered": [], "direct": ["--use_direct_reads=true"]}
WINE = "/usr/lib/wine/wine64"
WINESERVER = "/usr/lib/wine/wineserver"
SIDES = ("native", "Wine")


def windows_path(path):
    """/tmp/x/db -> Z:\\tmp\\x\\db: Wine's Z: drive is the host's /."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def command(side, binary, args):
    """The argument vector that runs db_bench with args on side."""
    if side == "Wine":
        return [WINE, binary] + args
    return [binary] + args


def wine_env():
    env = dict(os.environ)
    env.setdefault("WINEPREFIX", os.path.expanduser(
        "~/.cache/strata/wine"))
    env.setdefault("WINEDEBUG", "-all")
    env.setdefault("WINEDLLOVERRIDES", "mscoree=d;mshtml=d")
    return env


def failed_to_start(side, returncode, output):
    """Whether a run is Wine failing to start the program, as it now and
    then does (exit status 1 and no output at all; docs/windows.md):
    such a step runs once more."""
    return side == "Wine" and returncode == 1 and not output.strip()


def run_steps(side, binary, bench, steps, env, log):
    """Runs the steps of one run; the measured step's parsed result."""
    output = ""
    for args, measured in steps:
        cmd = command(side, binary, args)
        for attempt in range(2):
            proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, env=env,
                                  universal_newlines=True, errors="replace")
            if not failed_to_start(side, proc.returncode, proc.stdout):
                break
        if log is not None:
            with open(log, "a") as f:
                f.write("$ %s\n%s\n" % (shlex.join(cmd), proc.stdout))
        if proc.returncode != 0:
            raise CompareError("%s db_bench failed on %s (exit status %d):"
                               "\n%s\ncommand: %s" % (
                                   side, bench, proc.returncode,
                                   proc.stdout.strip()[-2000:],
                                   shlex.join(cmd)))
        if measured:
            output = proc.stdout
    result = parse_result(output.replace("\r", ""), bench)
    if result is None:
        raise CompareError("%s db_bench printed no result line for %s:\n%s"
                           % (side, bench, output.strip()[-2000:]))
    return result


def run_once(side, binary, bench, threads, mode, opts, env, log):
    tmp = tempfile.mkdtemp(prefix="compare-wine-", dir=opts.tmpdir)
    try:
        db = os.path.join(tmp, "db")
        if side == "Wine":
            db = windows_path(db)
        steps = plan_steps(bench, threads, opts.num, opts.seed, opts.fill,
                           MODES[mode] + opts.extra, db=db)
        return run_steps(side, binary, bench, steps, env, log)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def median_rows(results):
    """results: [{side, mode, benchmark, threads, ops_per_sec}] ->
    [(benchmark, threads, mode, native median, Wine median, ratio)] in
    first-seen order."""
    order, ops = [], {}
    for r in results:
        key = (r["benchmark"], r["threads"], r["mode"])
        if key not in ops:
            order.append(key)
            ops[key] = {s: [] for s in SIDES}
        ops[key][r["side"]].append(r["ops_per_sec"])
    rows = []
    for key in order:
        med = {s: statistics.median(v) if v else None
               for s, v in ops[key].items()}
        n, w = med["native"], med["Wine"]
        rows.append(key + (n, w, w / n if n and w is not None else None))
    return rows


def format_rows(rows):
    def num(x):
        return "-" if x is None else "{:,.0f}".format(x)

    lines = ["| benchmark | reads | native ops/s | Wine ops/s "
             "| Wine/native |", "|---|---|--:|--:|--:|"]
    for bench, threads, mode, n, w, ratio in rows:
        label = bench if threads == 1 else "%s (%d threads)" % (bench,
                                                                 threads)
        lines.append("| %s | %s | %s | %s | %s |" % (
            label, mode, num(n), num(w),
            "-" if ratio is None else "%.2f" % ratio))
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--native", default=os.path.join(
        ROOT, "build", "release", "db_bench"))
    p.add_argument("--exe", default=os.path.join(
        ROOT, "build", "windows", "db_bench.exe"))
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--num", type=int, default=1000000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--benchmarks", default=DEFAULT_BENCHMARKS)
    p.add_argument("--modes", default="buffered,direct")
    p.add_argument("--fill", default="fillrandom,compact")
    p.add_argument("--out", default=None, metavar="DIR")
    p.add_argument("--tmpdir", default=None, metavar="DIR")
    p.add_argument("extra", nargs="*", help="flags after -- for every run")
    opts = p.parse_args(argv)
    try:
        opts.benches = parse_benchmarks(opts.benchmarks)
    except ValueError as e:
        p.error(str(e))
    opts.modes = [m for m in opts.modes.split(",") if m]
    for m in opts.modes:
        if m not in MODES:
            p.error("unknown mode '%s' (buffered, direct)" % m)
    if opts.runs < 1 or opts.num < 1:
        p.error("--runs and --num must be positive")
    return opts


def main(argv):
    opts = parse_args(argv)
    for side, path in (("native", opts.native), ("Wine", opts.exe)):
        if not os.path.isfile(path):
            print("no %s db_bench at %s" % (side, path), file=sys.stderr)
            return 1
    if not os.path.isfile(WINE):
        print("no %s (Debian's wine64)" % WINE, file=sys.stderr)
        return 1
    env = wine_env()
    # One wineserver for the whole run, and Wine's own services started by
    # a first program, all with their output elsewhere: started by a
    # measured run, they would hold its output pipe open after it exits.
    quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL,
             "stderr": subprocess.DEVNULL, "env": env}
    subprocess.run([WINESERVER, "-p"], **quiet)
    subprocess.run([WINE, "cmd", "/c", "exit"], **quiet)
    binaries = {"native": opts.native, "Wine": opts.exe}
    if opts.out:
        os.makedirs(opts.out, exist_ok=True)
    results = []
    try:
        for run in range(1, opts.runs + 1):
            for mode in opts.modes:
                for bench, threads in opts.benches:
                    for side in SIDES:
                        log = (os.path.join(opts.out, "%s-%s-%s-run%d.log" %
                                            (side, mode, bench, run))
                               if opts.out else None)
                        r = run_once(side, binaries[side], bench, threads,
                                     mode, opts, env, log)
                        r.update(side=side, mode=mode, benchmark=bench,
                                 threads=threads, run=run)
                        results.append(r)
                        print("run %d %-8s %-18s %-6s %12.0f ops/sec" % (
                            run, mode, bench, side, r["ops_per_sec"]),
                            flush=True)
    except CompareError as e:
        print(e, file=sys.stderr)
        return 1
    finally:
        subprocess.run([WINESERVER, "-k"], **quiet)
    report = "%s\n\n%s; %d keys, medians of %d runs, %s\n" % (
        format_rows(median_rows(results)),
        machine_info(opts.tmpdir or tempfile.gettempdir()), opts.num,
        opts.runs, datetime.date.today().isoformat())
    print(report)
    if opts.out:
        with open(os.path.join(opts.out, "compare_wine.md"), "w") as f:
            f.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
