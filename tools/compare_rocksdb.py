#!/usr/bin/env python3
"""strata's db_bench against RocksDB's, same flags, side by side.

Runs strata's db_bench and RocksDB's (by default RocksDB 7.8.3 built in
Release mode from Debian's source package, as tools/rocksdb_release.py
builds it on first use; --rocksdb=debian: Debian's rocksdb-tools, which
has assertions on) on the same benchmarks with
identical command lines, alternating the engines run after run (strata,
RocksDB, strata, RocksDB, ...), and prints a Markdown table of the median
ops/sec of each and their ratio, with the machine, the date, both versions
and the exact commands.

Each run gets a fresh temporary DB directory, removed afterwards. A fill
(fillseq, fillrandom, fillsync, ...) starts from the empty directory. Any
other benchmark (overwrite, the reads, readwhilewriting) needs data: the
run first fills the directory with --fill (default "fillrandom,compact",
one thread, result discarded), then runs the benchmark in a second process
with --use_existing_db=1. Two processes because --threads applies to every
benchmark of one invocation, and so that each engine reads a DB it opened
itself, fully compacted: the same starting point for both.

fillsync: strata's db_bench does num/1000 writes by default, RocksDB's does
--num writes over num/1000 keys; --writes=num/1000 is passed so both do
the same work (per thread, like every count of db_bench).

Usage:
  tools/compare_rocksdb.py                      the default set, 1 M keys,
                                                3 runs of each engine
  tools/compare_rocksdb.py --num=100000 --runs=1     a quick smoke run
  tools/compare_rocksdb.py --out=cmp --timeline=readwhilewriting
  tools/compare_rocksdb.py -- --histogram=1     flags after -- go to every
                                                db_bench of both engines,
                                                after the script's own
  tools/compare_rocksdb.py -- --num_column_families=4
                                                both engines on 4 column
                                                families (the fill and the
                                                benchmark after it alike)
  tools/compare_rocksdb.py --write_modes --runs=5 --out=wm
                                                the write-mode table:
                                                fillrandom, 16 threads,
                                                batch 8, WAL on/off x
                                                ordered, unordered,
                                                snapshot-safe

  tools/compare_rocksdb.py --scale --out=scale   the scale runs: 10 M and
                                                50 M keys, and 10 M keys
                                                of 800-byte values; fill,
                                                overwrite, reads with two
                                                cache sizes, buffered and
                                                direct; write and space
                                                amplification, peak RSS,
                                                files, levels, timelines
  tools/compare_rocksdb.py --scale=1000000 --scale_seconds=10 \
      --scale_reads=100000                      a quick scale run

--scale runs the phases compare_scale.py describes instead of
--benchmarks: one run per engine (long; hours at 50 M keys).

--write_modes runs the six cells of compare_write_modes.py (which
explains them) instead of --benchmarks; --num then defaults to 200000 per
thread. Every measured db_bench also has its CPU time (user + sys, from
getrusage of the child) recorded in compare.csv; the write-mode table
shows it per operation.

Benchmarks are "name" or "name:threads"; readwhilewriting defaults to 2
threads (readers; db_bench adds the writer), fillsync to 4, others to 1.

--out=DIR writes compare.md (the table and how it was made), compare.csv
(every run), ratios.png (strata/RocksDB per benchmark, a line at 1.0),
the logs of every run, and with --timeline=BENCH timeline.png: one long run
of BENCH per engine with --report_interval_seconds=1, throughput over
time. The PNGs need matplotlib (Debian's python3-matplotlib, installed
with apt-get when missing; drawn by compare_rocksdb_plot.py); the table and CSV need only the standard
library.

Exit status: 0 on success; 1 when a db_bench fails or prints no result
line, or something is missing (the message says what); 2 on a bad command
line.
"""

import argparse
import datetime
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

# Draws the PNGs, run by whichever interpreter has matplotlib.
PLOT_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "compare_rocksdb_plot.py")

# The core set: fills, overwrite, point and range reads, reads beside a
# writer, synced writes.
DEFAULT_BENCHMARKS = ("fillseq,fillrandom,overwrite,readrandom,readseq,"
                      "seekrandom,readwhilewriting,fillsync")
from compare_report import (COMMON_FLAGS, DEFAULT_THREADS,  # noqa: F401
                            ENGINES, FRESH_DB, RESULT_RE, VERSION_RE,
                            CompareError, commands_text, format_table,
                            median_table, parse_benchmarks, parse_result,
                            parse_timeline, parse_version, parse_warnings,
                            plan_steps, report_markdown, shell_word,
                            write_csv)
from compare_setup import (DEBIAN_PYTHON, DEFAULT_ROCKSDB,  # noqa: F401
                           DEFAULT_STRATA, find_binaries, machine_info,
                           plot_python, rocksdb_build)
import compare_scale as scale  # noqa: E402
import compare_write_modes as wm  # noqa: E402


# ------------------------------------------------------------- running

def run_db_bench(binary, args, engine, bench, log=None):
    """Runs one db_bench; its output (stdout + stderr). Raises
    CompareError when it fails."""
    cmd = [binary] + args
    proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          errors="replace")
    output = proc.stdout + "\n" + proc.stderr.replace("\r", "\n")
    if log is not None:
        with open(log, "a") as f:
            f.write("$ %s\n%s\n" % (shlex.join(cmd), output))
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.replace("\r", "\n").strip()
                         .splitlines()[-10:])
        raise CompareError("%s db_bench failed on %s (exit status %d):\n"
                           "%s\ncommand: %s" % (engine, bench,
                                                proc.returncode, tail,
                                                shlex.join(cmd)))
    return output


def run_measured(binary, args, engine, bench, log=None):
    """run_db_bench, and the child's resources: (output, {user_seconds,
    sys_seconds, wall_seconds}). The children's rusage grows only when a
    child is reaped, and db_bench is the only child running, so the
    difference before and after is db_bench's own CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    output = run_db_bench(binary, args, engine, bench, log)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return output, {"user_seconds": after.ru_utime - before.ru_utime,
                    "sys_seconds": after.ru_stime - before.ru_stime,
                    "wall_seconds": wall}


def run_in_fresh_dir(engine, binary, bench, plan, tmp_parent, log=None):
    """Runs the steps plan(db) gives ([(args, measured)]) in a fresh
    directory, removed afterwards: (result dict with the measured step's
    CPU and wall time, output of the measured step)."""
    tmp = tempfile.mkdtemp(prefix="compare-%s-" % engine.lower(),
                           dir=tmp_parent)
    try:
        output, usage = "", {}
        for args, measured in plan(os.path.join(tmp, "db")):
            if measured:
                output, usage = run_measured(binary, args, engine, bench,
                                             log)
            else:
                output = run_db_bench(binary, args, engine, bench, log)
        result = parse_result(output, bench)
        if result is None:
            raise CompareError(
                "%s db_bench printed no result line for %s (expected "
                "'%s : ... micros/op ... ops/sec ...'); its output:\n%s" %
                (engine, bench, bench, output.strip()[-2000:]))
        result.update(usage)
        return result, output
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_once(engine, binary, bench, threads, opts, tmp_parent, log=None,
             num=None, extra_last=()):
    """One run of bench on engine in a fresh directory: (result dict,
    output of the measured step)."""
    def plan(db):
        steps = plan_steps(bench, threads, num or opts.num, opts.seed,
                           opts.fill, opts.extra, db=db)
        return [(args + list(extra_last) if measured else args, measured)
                for args, measured in steps]

    return run_in_fresh_dir(engine, binary, bench, plan, tmp_parent, log)


def log_path(out, name):
    if out is None:
        return None
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    return os.path.join(out, "logs", name + ".log")


def run_table(opts, binaries, benches, info):
    """Every run, alternating engines; the results as dicts."""
    results = []
    total = opts.runs * len(benches) * len(ENGINES)
    step = 0
    for run in range(1, opts.runs + 1):
        for bench, threads in benches:
            for engine in ENGINES:
                step += 1
                log = log_path(opts.out, "%s-%s-run%d" % (
                    engine.lower(), bench, run))
                result, output = run_once(engine, binaries[engine], bench,
                                          threads, opts, opts.tmpdir, log)
                note_versions(info, engine, output)
                result.update(engine=engine, benchmark=bench,
                              threads=threads, run=run)
                results.append(result)
                print("[%d/%d] run %d %-16s %-7s %12.0f ops/sec" % (
                    step, total, run, bench, engine, result["ops_per_sec"]),
                    file=sys.stderr, flush=True)
    return results


def run_write_modes(opts, binaries, info):
    """The write-mode cells, alternating engines within each cell and run;
    the results as dicts with the cell's label."""
    results = []
    total = opts.runs * len(wm.CELLS) * len(ENGINES)
    step = 0
    for run in range(1, opts.runs + 1):
        for label, wal, mode in wm.CELLS:
            for engine in ENGINES:
                step += 1
                log = log_path(opts.out, "%s-%s-run%d" % (
                    engine.lower(), label.replace(", ", "-").replace(
                        " ", "-").lower(), run))

                def plan(db, engine=engine, wal=wal, mode=mode):
                    return [(wm.plan_cell(engine, wal, mode, opts.num,
                                          opts.seed, opts.extra, db=db),
                             True)]

                result, output = run_in_fresh_dir(
                    engine, binaries[engine], wm.BENCHMARK, plan,
                    opts.tmpdir, log)
                note_versions(info, engine, output)
                result.update(engine=engine, cell=label, run=run)
                results.append(result)
                print("[%d/%d] run %d %-21s %-7s %12.0f ops/sec %6.2f CPU "
                      "us/op" % (step, total, run, label, engine,
                                 result["ops_per_sec"],
                                 wm.cpu_per_op_micros(result) or 0),
                      file=sys.stderr, flush=True)
    return results


def note_versions(info, engine, output):
    """Records the version a db_bench printed and refuses a binary of the
    wrong engine (e.g. strata's db_bench passed as --rocksdb)."""
    version = parse_version(output)
    if version is None:
        raise CompareError("%s db_bench printed no '<engine>:  version' "
                           "line" % engine)
    if version[0].lower() != engine.lower():
        raise CompareError("the %s binary is %s's db_bench (version %s)" % (
            engine, version[0], version[1]))
    info["versions"][engine] = version[1]
    for w in parse_warnings(output):
        if (engine, w) not in info["warnings"]:
            info["warnings"].append((engine, w))


def run_timeline(opts, binaries, bench, threads, info):
    """One long run per engine reporting every second; {engine: (result,
    [(secs, ops/sec)])}."""
    series = {}
    for engine in ENGINES:
        report = os.path.join(opts.out, "timeline-%s.csv" % engine.lower())
        if os.path.exists(report):
            os.remove(report)
        log = log_path(opts.out, "%s-%s-timeline" % (engine.lower(), bench))
        last = ["--report_interval_seconds=1", "--report_file=%s" % report]
        result, output = run_once(engine, binaries[engine], bench, threads,
                                  opts, opts.tmpdir, log,
                                  num=opts.timeline_num, extra_last=last)
        note_versions(info, engine, output)
        try:
            with open(report) as f:
                points = parse_timeline(f.read())
        except OSError:
            points = []
        series[engine] = (result, points)
        print("timeline %s %s: %.0f ops/sec, %d intervals" % (
            bench, engine, result["ops_per_sec"], len(points)),
            file=sys.stderr, flush=True)
    return series


# ------------------------------------------------------------ reporting

def write_plots(opts, rows, info, timeline_series):
    """ratios.png and timeline.png in --out; a message instead when no
    matplotlib can be had. Returns the PNGs written."""
    cpu = info["machine"].split(",")[0]
    spec = {"title": "%s, %d keys, %s" % (info["date"], opts.num, cpu)}
    ratios = [("%s:%d" % (n, t) if t != 1 else n, ratio)
              for n, t, _, _, ratio in rows if ratio is not None]
    pngs = []
    if ratios:
        spec["ratios"] = ratios
        spec["ratios_png"] = os.path.join(opts.out, "ratios.png")
        pngs.append(spec["ratios_png"])
    if timeline_series and any(p for _, p in timeline_series.values()):
        spec["timeline"] = {e: points for e, (_, points) in
                            timeline_series.items()}
        spec["timeline_title"] = "%s, %s, %d keys, %s" % (
            info["timeline"][0], info["date"], opts.timeline_num, cpu)
        spec["timeline_png"] = os.path.join(opts.out, "timeline.png")
        pngs.append(spec["timeline_png"])
    return draw(opts, spec, pngs)


def draw(opts, spec, pngs):
    """Has compare_rocksdb_plot.py draw spec; pngs, or [] with a message
    when no matplotlib can be had."""
    if not pngs:
        return []
    if opts.plot_python is None:
        print("compare_rocksdb: no matplotlib (python3-matplotlib); "
              "skipping the PNGs", file=sys.stderr)
        return []
    spec_path = os.path.join(opts.out, "plot.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f, indent=1)
    if subprocess.call([opts.plot_python, PLOT_SCRIPT, spec_path]) != 0:
        raise CompareError("plotting failed (spec: %s)" % spec_path)
    os.remove(spec_path)
    return pngs


def write_scale_plots(opts, timelines, info):
    """The --scale timelines, one PNG per scale; the PNGs written."""
    specs = scale.plot_spec(opts, timelines, info)
    return draw(opts, {"timelines": specs}, [s["png"] for s in specs])


# ------------------------------------------------------------------ main

def parse_args(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(
        prog="compare_rocksdb.py",
        description=__doc__.split("\n", 1)[0],
        epilog=__doc__.split("\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--strata", metavar="PATH", default=DEFAULT_STRATA,
                   help="strata's db_bench (default: %(default)s, as "
                   "./build.sh bench builds it)")
    p.add_argument("--rocksdb", metavar="PATH", default=None,
                   help="RocksDB's db_bench: \"release\" (the default: "
                   "RocksDB 7.8.3 built in Release mode from Debian's "
                   "source by tools/rocksdb_release.py, on first use), "
                   "\"debian\" (%s from Debian's rocksdb-tools, built with "
                   "assertions on; installed when missing) or a path" %
                   DEFAULT_ROCKSDB)
    p.add_argument("--runs", metavar="N", type=int, default=3,
                   help="runs per engine and benchmark (default 3)")
    p.add_argument("--num", metavar="N", type=int, default=None,
                   help="keys (default 1000000, with --write_modes %d per "
                   "thread; 100000 for a quick run)" % wm.DEFAULT_NUM)
    p.add_argument("--benchmarks", metavar="LIST", default=None,
                   help="comma-separated name[:threads] (default: the core "
                   "set, %s); empty for a --timeline only" %
                   DEFAULT_BENCHMARKS)
    p.add_argument("--write_modes", action="store_true",
                   help="the write-mode table instead of --benchmarks: "
                   "fillrandom, 16 threads, batch 8, WAL on/off x "
                   "ordered, unordered and snapshot-safe unordered "
                   "writes, with CPU time per op")
    p.add_argument("--scale", metavar="LIST", nargs="?", default=None,
                   const=scale.DEFAULT_SCALES,
                   help="the scale runs instead of --benchmarks: "
                   "KEYS[:VALUE_SIZE],... (default %s)" %
                   scale.DEFAULT_SCALES)
    p.add_argument("--scale_seconds", metavar="N", type=int,
                   default=scale.DEFAULT_SECONDS,
                   help="half the --duration of --scale's overwrite "
                   "(default %(default)s)")
    p.add_argument("--scale_reads", metavar="N", type=int,
                   default=scale.DEFAULT_READS,
                   help="--reads of --scale's readrandom; seekrandom does "
                   "a quarter, each readwhilewriting reader half "
                   "(default %(default)s)")
    p.add_argument("--fill", metavar="LIST", default="fillrandom,compact",
                   help="what fills the DB before a benchmark that needs "
                   "data (default %(default)s)")
    p.add_argument("--seed", metavar="N", type=int, default=1,
                   help="--seed for both engines (default 1)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="directory for compare.md, compare.csv, the PNGs "
                   "and the logs")
    p.add_argument("--timeline", default=None, metavar="BENCH[:THREADS]",
                   help="also one long run of BENCH per engine, throughput "
                   "every second, plotted in timeline.png (needs --out)")
    p.add_argument("--timeline_num", metavar="N", type=int, default=None,
                   help="--num of the timeline runs (default: --num)")
    p.add_argument("--tmpdir", metavar="DIR", default=None,
                   help="where the temporary DB directories go (default: "
                   "$TMPDIR or /tmp)")
    opts = p.parse_args(argv)
    opts.extra = extra
    if opts.write_modes:
        if opts.benchmarks is not None or opts.timeline:
            p.error("--write_modes runs its own cells: no --benchmarks or "
                    "--timeline with it")
        opts.benchmarks = ""
        if opts.num is None:
            opts.num = wm.DEFAULT_NUM
    if opts.scale is not None:
        if opts.write_modes or opts.benchmarks is not None or \
                opts.timeline:
            p.error("--scale runs its own phases: no --write_modes, "
                    "--benchmarks or --timeline with it")
        try:
            opts.scales = scale.parse_scales(opts.scale)
        except ValueError as e:
            p.error(str(e))
        if opts.scale_seconds < 1 or opts.scale_reads < 1:
            p.error("--scale_seconds and --scale_reads must be at least 1")
        opts.benchmarks = ""
    if opts.benchmarks is None:
        opts.benchmarks = DEFAULT_BENCHMARKS
    if opts.num is None:
        opts.num = 1000000
    try:
        opts.bench_list = parse_benchmarks(opts.benchmarks)
        opts.timeline_spec = (parse_benchmarks(opts.timeline)[0]
                              if opts.timeline else None)
    except (ValueError, IndexError) as e:
        p.error(str(e) or "bad --timeline")
    if opts.runs < 1:
        p.error("--runs must be at least 1")
    if opts.num < 1:
        p.error("--num must be at least 1")
    if not opts.bench_list and not opts.timeline_spec and \
            not opts.write_modes and opts.scale is None:
        p.error("nothing to run: --benchmarks is empty and no --timeline")
    if opts.timeline_spec and opts.out is None:
        p.error("--timeline needs --out (it writes timeline.png)")
    if opts.timeline_num is None:
        opts.timeline_num = opts.num
    if opts.tmpdir is None:
        opts.tmpdir = tempfile.gettempdir()
    if opts.out is not None:
        opts.out = os.path.abspath(opts.out)  # db_bench writes report files
    return opts


def main(argv):
    opts = parse_args(argv)
    try:
        strata, rocksdb = find_binaries(opts)
        binaries = {"strata": strata, "RocksDB": rocksdb}
        opts.plot_python = None
        if opts.out:
            if not opts.write_modes:  # no PNGs for the write modes
                # May install: before the runs.
                opts.plot_python = plot_python()
            os.makedirs(opts.out, exist_ok=True)
            shutil.rmtree(os.path.join(opts.out, "logs"), ignore_errors=True)
        info = {"date": datetime.datetime.now().astimezone().strftime(
                    "%Y-%m-%d %H:%M %Z"),
                "machine": machine_info(os.path.abspath(opts.tmpdir)),
                "versions": {}, "warnings": [],
                "timeline": opts.timeline_spec,
                "rocksdb_build": rocksdb_build(rocksdb)}
        if opts.scale is not None:
            opts.progress = sys.stderr
            results, timelines = scale.run_scale(opts, binaries, info,
                                                 log_path, note_versions)
            text = scale.report_markdown(opts, results, info, binaries)
        elif opts.write_modes:
            results = run_write_modes(opts, binaries, info)
            text = wm.report_markdown(opts, wm.cell_rows(results), info,
                                      binaries)
        else:
            results = run_table(opts, binaries, opts.bench_list, info)
            rows = median_table(results)
            timeline_series = None
            if opts.timeline_spec:
                timeline_series = run_timeline(opts, binaries,
                                               opts.timeline_spec[0],
                                               opts.timeline_spec[1], info)
            text = report_markdown(opts, opts.bench_list, rows, info,
                                   binaries, timeline_series)
        sys.stdout.write(text)
        if opts.out:
            with open(os.path.join(opts.out, "compare.md"), "w") as f:
                f.write(text)
            written = []
            if opts.scale is not None:
                write_csv(os.path.join(opts.out, "compare.csv"), results,
                          scale.CSV_FIELDS)
                written = write_scale_plots(opts, timelines, info)
            elif opts.write_modes:
                write_csv(os.path.join(opts.out, "compare.csv"), results,
                          wm.CSV_FIELDS)
            else:
                write_csv(os.path.join(opts.out, "compare.csv"), results)
                written = write_plots(opts, rows, info, timeline_series)
            print("wrote %s" % ", ".join(
                [os.path.join(opts.out, n) for n in
                 ("compare.md", "compare.csv")] + written), file=sys.stderr)
    except CompareError as e:
        print("compare_rocksdb: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
