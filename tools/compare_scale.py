"""The --scale runs of tools/compare_rocksdb.py: both engines on a DB
much larger than the 1 M-key core set, one run each, engines alternating
phase by phase.

Each scale is "KEYS" or "KEYS:VALUE_SIZE" (16-byte keys; values of 100
bytes unless given). For each scale both engines get a directory of their
own, kept across the phases below and removed at the end:

  fill        fillrandom of KEYS keys into the empty DB, then
              waitforcompaction (so the compactions the fill caused are
              counted in its write amplification), stats and levelstats
  overwrite   overwrite for --scale_seconds*2, then the same three
  reads       readrandom (--scale_reads lookups), seekrandom (a quarter
              of them) and readwhilewriting (2 readers doing half of
              them each beside a writer held to 2 MiB/s), with an 8 MB
              and a 1 GB block cache, buffered and with
              --use_direct_reads; after each readwhilewriting an
              unmeasured waitforcompaction, so that the next phase does
              not pay for its writer's compactions. Counted, not timed,
              and the writer held
              to one rate: both engines do the same work, so their peak
              RSS compares (a faster engine would otherwise fill its
              cache or memtables further in the same time)
  compact     a full compaction (compact, then stats): the bytes of
              the DB's tables before it over those after it is the space
              amplification

Each phase is its own db_bench process (--use_existing_db=1 after the
fill). Recorded per phase and engine: ops/sec, CPU microseconds per
operation (user + sys of the child), the child's peak RSS (wait4), and
for the writing phases the bytes flush and compaction wrote (each engine's
"Cumulative compaction: X GB write" line, which counts flushes too),
the DB's size, its table files and the levels holding data. The write
amplification is those bytes over the user bytes the phase wrote
(operations x (16 + value size)). Throughput every second
(--report_interval_seconds=1) of the fill and the overwrite is drawn in
scale-KEYS[-VALUE]-timeline.png.
"""

import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time

from compare_report import (COMMON_FLAGS, ENGINES, CompareError,
                            header_lines, parse_result, parse_timeline)

DEFAULT_SCALES = "10000000,50000000,10000000:800"
DEFAULT_SECONDS = 30
DEFAULT_READS = 1000000
KEY_SIZE = 16
CACHES = (("8 MB", 8 << 20), ("1 GB", 1 << 30))
# (benchmark, threads, share of --scale_reads per thread)
READS = (("readrandom", 1, 1.0), ("seekrandom", 1, 0.25),
         ("readwhilewriting", 2, 0.5))
WRITER_RATE = 2 << 20  # readwhilewriting's writer, bytes/s
SETTLE_PREFIX = "settle after "
WRITE_PHASES = ("fillrandom", "overwrite")

COMPACTION_RE = re.compile(
    r"^Cumulative compaction: ([0-9.]+) GB writ", re.M)
LEVELSTATS_RE = re.compile(
    r"^Level\s+Files\s+Size\(MB\)\s*\n-+\n((?:\s*\d+\s+\d+\s+[0-9.]+\s*\n?)+)",
    re.M)


# ---------------------------------------------------------------- parsing

def parse_scales(spec):
    """"10000000,1000000:800" -> [(10000000, 100), (1000000, 800)].
    Raises ValueError on a bad entry."""
    scales = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        keys, colon, value = item.partition(":")
        if not keys.isdigit() or int(keys) < 1 or \
                (colon and (not value.isdigit() or int(value) < 1)):
            raise ValueError("bad scale '%s' (KEYS or KEYS:VALUE_SIZE)" %
                             item)
        scales.append((int(keys), int(value) if colon else 100))
    if not scales:
        raise ValueError("no scale given")
    return scales


def parse_written_gb(output):
    """GB written by flush and compaction, from the last "Cumulative
    compaction" line of a stats dump (both engines print one), or None."""
    found = COMPACTION_RE.findall(output)
    return float(found[-1]) if found else None


def parse_levels(output):
    """[(level, files, MB)] of the last levelstats table, or None."""
    found = LEVELSTATS_RE.findall(output)
    if not found:
        return None
    levels = []
    for line in found[-1].strip().splitlines():
        level, files, mb = line.split()
        levels.append((int(level), int(files), float(mb)))
    return levels


def dir_shape(path):
    """(bytes of every file under path, bytes of its .sst files, number
    of .sst files)."""
    total, table_bytes, tables = 0, 0, 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                size = os.path.getsize(os.path.join(root, name))
            except OSError:
                continue  # deleted by a compaction while we walked
            total += size
            if name.endswith(".sst"):
                table_bytes += size
                tables += 1
    return total, table_bytes, tables


# ------------------------------------------------------------- the plan

def scale_label(keys, value):
    return "%d" % keys if value == 100 else "%d-%d" % (keys, value)


def phase_list(seconds, reads):
    """[(phase name, benchmark, threads, extra args)] in run order."""
    wait = ",waitforcompaction,stats,levelstats"
    phases = [("fillrandom", "fillrandom" + wait, 1,
               ["--report_interval_seconds=1"]),
              ("overwrite", "overwrite" + wait, 1,
               ["--use_existing_db=1", "--duration=%d" % (2 * seconds),
                "--report_interval_seconds=1"])]
    for cache_name, cache in CACHES:
        for direct in (False, True):
            for bench, threads, share in READS:
                name = "%s, %s cache, %s" % (
                    bench, cache_name, "direct" if direct else "buffered")
                args = ["--use_existing_db=1",
                        "--reads=%d" % max(1, int(reads * share)),
                        "--cache_size=%d" % cache]
                if threads > 1:
                    args.append("--benchmark_write_rate_limit=%d" %
                                WRITER_RATE)
                if direct:
                    args.append("--use_direct_reads=1")
                phases.append((name, bench, threads, args))
                if threads > 1:
                    # The writer's compactions finish here, unmeasured,
                    # not in the next phase's CPU time.
                    phases.append((SETTLE_PREFIX + name, "waitforcompaction",
                                   1, ["--use_existing_db=1"]))
    phases.append(("compact", "compact,stats,levelstats", 1,
                   ["--use_existing_db=1"]))
    return phases


def measured(phase_name):
    """Whether a phase is in the report's tables (not a settle step)."""
    return not phase_name.startswith(SETTLE_PREFIX)


def phase_args(db, keys, value, seed, bench, threads, extra, user_extra,
               report=None):
    """The db_bench arguments of one phase (without the binary). The
    phase's own flags replace those of COMMON_FLAGS (--cache_size)."""
    args = ["--db=%s" % db, "--num=%d" % keys, "--seed=%d" % seed]
    own = {a.split("=")[0] for a in extra} | {"--value_size"}
    args += [a for a in COMMON_FLAGS if a.split("=")[0] not in own]
    args += ["--value_size=%d" % value, "--benchmarks=%s" % bench,
             "--threads=%d" % threads]
    args += extra
    if report is not None:
        args.append("--report_file=%s" % report)
    return args + list(user_extra)


def result_name(bench):
    """The benchmark whose result line a phase reports."""
    return bench.split(",")[0]


# ------------------------------------------------------------- running

def run_child(binary, args, log):
    """Runs one db_bench, its output to files: (output, {user_seconds,
    sys_seconds, wall_seconds, peak_rss_mb}). wait4 gives this child's own
    resources, so the peak RSS is its and no earlier child's."""
    cmd = [binary] + args
    with tempfile.TemporaryFile("w+", errors="replace") as out:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        out.seek(0)
        output = out.read().replace("\r", "\n")
    if log is not None:
        with open(log, "a") as f:
            f.write("$ %s\n%s\n" % (shlex.join(cmd), output))
    if proc.returncode != 0:
        tail = "\n".join(output.strip().splitlines()[-10:])
        raise CompareError("db_bench failed (exit status %d):\n%s\n"
                           "command: %s" % (proc.returncode, tail,
                                            shlex.join(cmd)))
    return output, {"user_seconds": usage.ru_utime,
                    "sys_seconds": usage.ru_stime, "wall_seconds": wall,
                    "peak_rss_mb": usage.ru_maxrss / 1024.0}


def measure_phase(engine, binary, db, scale, opts, phase, log, out_dir):
    """One phase of one engine: the result dict, and the timeline points
    when the phase reports every second."""
    name, bench, threads, extra = phase
    keys, value = scale
    report = None
    if "--report_interval_seconds=1" in extra:
        report = os.path.join(out_dir, "timeline-%s-%s-%s.csv" % (
            scale_label(keys, value), engine.lower(), name))
        if os.path.exists(report):
            os.remove(report)
    args = phase_args(db, keys, value, opts.seed, bench, threads, extra,
                      opts.extra, report)
    output, usage = run_child(binary, args, log)
    result = {"engine": engine, "keys": keys, "value_size": value,
              "phase": name, "threads": threads}
    result.update(usage)
    line = parse_result(output, result_name(bench))
    if line is None and name != "compact" and measured(name):
        raise CompareError("%s db_bench printed no result line for %s; its "
                           "output:\n%s" % (engine, name,
                                            output.strip()[-2000:]))
    if line is not None:
        result.update(ops_per_sec=line["ops_per_sec"],
                      operations=line["operations"])
    written = parse_written_gb(output)
    if "stats" in bench.split(","):
        if written is None:
            raise CompareError("%s printed no 'Cumulative compaction: ... "
                               "GB write' line after %s" % (engine, name))
        result["written_gb"] = written
        levels = parse_levels(output) or []
        result["levels"] = sum(1 for _, files, _ in levels if files)
    result["db_bytes"], result["table_bytes"], result["tables"] = \
        dir_shape(db)
    points = []
    if report is not None and os.path.exists(report):
        with open(report) as f:
            points = parse_timeline(f.read())
    return result, points, output


def run_scale(opts, binaries, info, log_path, note_versions):
    """Every scale, every phase, alternating engines within each phase:
    (results, {scale label: {phase: {engine: points}}})."""
    results, timelines = [], {}
    phases = phase_list(opts.scale_seconds, opts.scale_reads)
    for scale in opts.scales:
        label = scale_label(*scale)
        dirs = {e: tempfile.mkdtemp(prefix="scale-%s-" % e.lower(),
                                    dir=opts.tmpdir) for e in ENGINES}
        try:
            for phase in phases:
                for engine in ENGINES:
                    log = log_path(opts.out, "scale-%s-%s" % (
                        label, engine.lower()))
                    result, points, output = measure_phase(
                        engine, binaries[engine],
                        os.path.join(dirs[engine], "db"), scale, opts,
                        phase, log, opts.out or dirs[engine])
                    note_versions(info, engine, output)
                    results.append(result)
                    if points:
                        timelines.setdefault(label, {}).setdefault(
                            phase[0], {})[engine] = points
                    print("scale %s %-36s %-7s %12.0f ops/sec %7.0f MB RSS" %
                          (label, phase[0], engine,
                           result.get("ops_per_sec", 0),
                           result["peak_rss_mb"]), flush=True,
                          file=opts.progress)
        finally:
            for d in dirs.values():
                shutil.rmtree(d, ignore_errors=True)
    return results, timelines


# ------------------------------------------------------------ reporting

GIB = float(1 << 30)


def by_phase(results, scale):
    """{phase: {engine: result}} of one scale, phases in run order."""
    table = {}
    for r in results:
        if (r["keys"], r["value_size"]) == scale:
            table.setdefault(r["phase"], {})[r["engine"]] = r
    return table


def write_amp(result):
    """Bytes flush and compaction wrote over the user bytes written, or
    None when the phase wrote nothing or printed no stats."""
    ops = result.get("operations") or 0
    if result.get("written_gb") is None or ops == 0:
        return None
    user = ops * (KEY_SIZE + result["value_size"])
    return result["written_gb"] * GIB / user


def space_amp(table, engine):
    """The bytes of the DB's tables before the full compaction over those
    after it (the WAL, which the compaction's flush empties, left out)."""
    phases = list(table)  # a settle step last: the DB as it was then
    if "compact" not in table or phases.index("compact") == 0:
        return None
    before = table[phases[phases.index("compact") - 1]].get(engine)
    after = table["compact"].get(engine)
    if not before or not after or not after["table_bytes"]:
        return None
    return before["table_bytes"] / after["table_bytes"]


def cpu_micros_per_op(r):
    ops = r.get("operations") or 0
    if not ops:
        return None
    return (r["user_seconds"] + r["sys_seconds"]) * 1e6 / ops


def fmt(x, spec="{:,.0f}"):
    return "-" if x is None else spec.format(x)


def scale_tables(results, scale):
    """The Markdown of one scale: throughput per phase, then its shape."""
    table = by_phase(results, scale)
    s, r = ENGINES
    lines = ["| phase | strata ops/s | RocksDB ops/s | ratio | strata CPU "
             "µs/op | RocksDB CPU µs/op | strata peak RSS MB | RocksDB "
             "peak RSS MB |", "|---|--:|--:|--:|--:|--:|--:|--:|"]
    for phase, engines in table.items():
        if phase == "compact" or not measured(phase):
            continue
        a, b = engines.get(s, {}), engines.get(r, {})
        ratio = None
        if a.get("ops_per_sec") and b.get("ops_per_sec"):
            ratio = a["ops_per_sec"] / b["ops_per_sec"]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            phase, fmt(a.get("ops_per_sec")), fmt(b.get("ops_per_sec")),
            fmt(ratio, "{:.2f}"), fmt(cpu_micros_per_op(a), "{:.2f}"),
            fmt(cpu_micros_per_op(b), "{:.2f}"),
            fmt(a.get("peak_rss_mb")), fmt(b.get("peak_rss_mb"))))
    lines += ["", "| shape | strata | RocksDB |", "|---|--:|--:|"]

    def row(label, f, spec):
        lines.append("| %s | %s | %s |" % (
            label, fmt(f(s), spec), fmt(f(r), spec)))

    def get(phase, field, scale_by=1.0):
        def f(engine):
            v = table.get(phase, {}).get(engine, {}).get(field)
            return None if v is None else v / scale_by
        return f

    for phase in WRITE_PHASES:
        if phase not in table:
            continue
        row("%s: GB written by flush and compaction" % phase,
            get(phase, "written_gb"), "{:.2f}")
        row("%s: write amplification" % phase,
            lambda e, p=phase: write_amp(table[p][e]) if e in table[p]
            else None, "{:.2f}")
        row("%s: DB size, GB (tables)" % phase,
            get(phase, "table_bytes", GIB), "{:.2f}")
        row("%s: DB size, GB (every file)" % phase,
            get(phase, "db_bytes", GIB), "{:.2f}")
        row("%s: table files" % phase, get(phase, "tables"), "{:,.0f}")
        row("%s: levels with data" % phase, get(phase, "levels"), "{:.0f}")
    if "compact" in table:
        row("fully compacted: DB size, GB (tables)",
            get("compact", "table_bytes", GIB), "{:.2f}")
        row("space amplification (size before the full compaction / "
            "after)", lambda e: space_amp(table, e), "{:.2f}")
    return "\n".join(lines)


def report_markdown(opts, results, info, binaries):
    """The whole --scale report: how it was made, then each scale."""
    out = header_lines("strata vs RocksDB at scale", info, binaries)
    out.append("- One run per engine and phase, engines alternating phase "
               "by phase on a DB of their own. Overwrite timed (%d s); "
               "the reads counted: readrandom %d lookups, seekrandom a "
               "quarter of that, readwhilewriting half of it per reader "
               "(2 readers) beside a writer held to %d MiB/s." % (
                   2 * opts.scale_seconds, opts.scale_reads,
                   WRITER_RATE >> 20))
    for engine, warning in info["warnings"]:
        out.append("- %s's db_bench says: `%s`" % (engine, warning))
    phases = phase_list(opts.scale_seconds, opts.scale_reads)
    for scale in opts.scales:
        keys, value = scale
        out += ["", "## %s keys, %d-byte values" % ("{:,}".format(keys),
                                                    value), "",
                scale_tables(results, scale), "", "Commands:", "", "```"]
        for name, bench, threads, extra in phases:
            args = phase_args("$DB", keys, value, opts.seed, bench,
                              threads, extra, opts.extra)
            out.append("$DB_BENCH " + " ".join(shlex.quote(a) if " " in a
                                               else a for a in args))
        out.append("```")
    return "\n".join(out) + "\n"


CSV_FIELDS = ["engine", "keys", "value_size", "phase", "threads",
              "ops_per_sec", "operations", "user_seconds", "sys_seconds",
              "wall_seconds", "peak_rss_mb", "written_gb", "db_bytes",
              "table_bytes", "tables", "levels"]


def plot_spec(opts, timelines, info):
    """The "timelines" part of the plot spec: one PNG per scale, the
    fill and the overwrite side by side."""
    cpu = info["machine"].split(",")[0]
    specs = []
    for label, phases in timelines.items():
        specs.append({"png": os.path.join(opts.out,
                                          "scale-%s-timeline.png" % label),
                      "title": "%s keys, %s, %s" % (label, info["date"],
                                                    cpu),
                      "panels": [[p, phases[p]] for p in WRITE_PHASES
                                 if p in phases]})
    return specs
