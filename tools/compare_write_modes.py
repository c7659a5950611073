"""The write-mode table for tools/compare_rocksdb.py --write_modes.

fillrandom with 16 threads writing batches of 8 (16-byte keys, 100-byte
values, auto compactions off) in four cells: the WAL on or off
(--disable_wal) times --unordered_write=0/1. Both engines run each cell,
alternating, N times; the table shows the median ops/sec, the ratio
strata/RocksDB, and the CPU time (user + sys of the db_bench process)
per operation and per wall-clock second ("cores busy": on a 2-core
machine 2.0 means both cores were busy all the time, whether with work or
with waiting writers spinning). A second table gives each engine's
unordered speedup (ops/sec unordered / ordered) with and without the WAL.

Every cell passes --enable_pipelined_write=0: RocksDB refuses
unordered_write together with pipelined writes, and db_bench's flag
defaults to true although DBOptions' default is false. So the ordered
cells measure the default write path (allow_concurrent_memtable_write,
the members of a group inserting in parallel) and the only difference
between an ordered and an unordered cell is --unordered_write.

Pure functions: the command lines, the medians, the tables and the
report. The runs are compare_rocksdb.py's.
"""

import statistics

from compare_report import COMMON_FLAGS, ENGINES, shell_word

BENCHMARK = "fillrandom"
# Per db_bench thread, like every db_bench count: 3.2 M keys per run with
# 16 threads, about 7 memtables of 64 MiB, some 15 s per run here.
DEFAULT_NUM = 200000
FLAGS = ["--threads=16", "--batch_size=8", "--disable_auto_compactions=1",
         "--enable_pipelined_write=0"]
# (label, WAL on, unordered_write), in table order.
CELLS = (("WAL, ordered", True, False),
         ("WAL, unordered", True, True),
         ("no WAL, ordered", False, False),
         ("no WAL, unordered", False, True))
CSV_FIELDS = ["engine", "cell", "run", "ops_per_sec", "micros_per_op",
              "seconds", "operations", "user_seconds", "sys_seconds",
              "wall_seconds"]


def cell_flags(wal, unordered):
    return ["--disable_wal=%d" % (0 if wal else 1),
            "--unordered_write=%d" % (1 if unordered else 0)]


def plan_cell(wal, unordered, num, seed, extra, db="$DB"):
    """The db_bench arguments (without the binary) of one run of a cell.
    extra comes last, so a flag given after -- wins (e.g. --threads=32)."""
    return (["--db=%s" % db, "--num=%d" % num, "--seed=%d" % seed] +
            COMMON_FLAGS + ["--benchmarks=%s" % BENCHMARK] + FLAGS +
            cell_flags(wal, unordered) + list(extra))


def cpu_per_op_micros(result):
    """User + sys microseconds of the process per operation, or None
    when the result line gave no operation count."""
    if not result.get("operations"):
        return None
    cpu = result["user_seconds"] + result["sys_seconds"]
    return cpu * 1e6 / result["operations"]


def cores_busy(result):
    """CPU seconds per wall-clock second of the whole process."""
    if not result.get("wall_seconds"):
        return None
    return (result["user_seconds"] + result["sys_seconds"]) / \
        result["wall_seconds"]


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def cell_rows(results):
    """results: [{engine, cell, ops_per_sec, operations, user_seconds,
    sys_seconds, wall_seconds}] -> one dict per cell of CELLS that has a
    result, in table order: label, and per engine the median ops
    ("ops"), CPU micros per op ("cpu") and cores busy ("cores"), plus
    "ratio" (strata/RocksDB ops, None without both)."""
    rows = []
    for label, wal, unordered in CELLS:
        mine = [r for r in results if r["cell"] == label]
        if not mine:
            continue
        row = {"cell": label, "wal": wal, "unordered": unordered}
        for engine in ENGINES:
            runs = [r for r in mine if r["engine"] == engine]
            row[engine] = {
                "ops": _median([r["ops_per_sec"] for r in runs]),
                "cpu": _median([cpu_per_op_micros(r) for r in runs]),
                "cores": _median([cores_busy(r) for r in runs]),
            }
        s, r = row["strata"]["ops"], row["RocksDB"]["ops"]
        row["ratio"] = s / r if s is not None and r else None
        rows.append(row)
    return rows


def speedups(rows):
    """{engine: {True: speedup with the WAL, False: without}}: median ops
    unordered / ordered; None where a cell is missing."""
    ops = {(row["wal"], row["unordered"]): row for row in rows}
    result = {}
    for engine in ENGINES:
        result[engine] = {}
        for wal in (True, False):
            ordered = ops.get((wal, False), {}).get(engine, {}).get("ops")
            unordered = ops.get((wal, True), {}).get(engine, {}).get("ops")
            result[engine][wal] = (unordered / ordered
                                   if ordered and unordered is not None
                                   else None)
    return result


def _fmt(x, spec):
    return "-" if x is None else spec.format(x)


def format_tables(rows):
    """The cell table and the speedup table, Markdown."""
    lines = ["| cell | strata ops/s | RocksDB ops/s | ratio "
             "(strata/RocksDB) | strata CPU µs/op | RocksDB CPU µs/op "
             "| strata cores busy | RocksDB cores busy |",
             "|---|--:|--:|--:|--:|--:|--:|--:|"]
    for row in rows:
        s, r = row["strata"], row["RocksDB"]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            row["cell"], _fmt(s["ops"], "{:,.0f}"), _fmt(r["ops"], "{:,.0f}"),
            _fmt(row["ratio"], "{:.2f}"), _fmt(s["cpu"], "{:.2f}"),
            _fmt(r["cpu"], "{:.2f}"), _fmt(s["cores"], "{:.2f}"),
            _fmt(r["cores"], "{:.2f}")))
    lines += ["", "| engine | unordered speedup, WAL | unordered speedup, "
              "no WAL |", "|---|--:|--:|"]
    ups = speedups(rows)
    for engine in ENGINES:
        lines.append("| %s | %s | %s |" % (
            engine, _fmt(ups[engine][True], "{:.2f}"),
            _fmt(ups[engine][False], "{:.2f}")))
    return "\n".join(lines)


def verdict(rows):
    """The write-mode bar in one line: strata's ops/s >= RocksDB's in every
    cell and strata's unordered speedup >= RocksDB's with and without the
    WAL; None unless all four cells have both engines."""
    if len(rows) != len(CELLS) or any(r["ratio"] is None for r in rows):
        return None
    behind = [r["cell"] for r in rows if r["ratio"] < 1.0]
    ups = speedups(rows)
    slower = [("WAL" if wal else "no WAL") for wal in (True, False)
              if ups["strata"][wal] < ups["RocksDB"][wal]]
    if not behind and not slower:
        return ("Issue 8's bar is met: strata's ops/s >= RocksDB's in "
                "every cell, and its unordered speedup >= RocksDB's with "
                "and without the WAL.")
    parts = []
    if behind:
        parts.append("strata's ops/s are below RocksDB's in %s" %
                     " and ".join('"%s"' % c for c in behind))
    if slower:
        parts.append("strata's unordered speedup is below RocksDB's "
                     "(%s)" % ", ".join(slower))
    return "Issue 8's bar is not met: %s." % "; ".join(parts)


def commands_text(num, seed, extra):
    """One command line per cell; $DB_BENCH is either engine's binary,
    $DB a fresh directory per run."""
    lines = []
    for label, wal, unordered in CELLS:
        lines.append("# %s" % label)
        lines.append("$DB_BENCH " + " ".join(
            shell_word(a) for a in plan_cell(wal, unordered, num, seed,
                                             extra)))
    return "\n".join(lines)


def report_markdown(opts, rows, info, binaries):
    """The whole --write_modes report: how it was made, both tables, the
    commands."""
    versions = info["versions"]
    out = ["# strata vs RocksDB: write modes (issue 8)", ""]
    out.append("- Date: %s" % info["date"])
    out.append("- Machine: %s" % info["machine"])
    for engine in ENGINES:
        out.append("- %s: version %s (`%s`)" % (
            engine, versions.get(engine, "?"), binaries[engine]))
    out.append("- %s, `%s`, `--num=%d` per thread; %d run(s) per engine "
               "and cell, alternating strata, RocksDB, each in a fresh "
               "directory; medians." % (BENCHMARK, " ".join(FLAGS),
                                        opts.num, opts.runs))
    out.append("- CPU µs/op: user + sys time of the db_bench process "
               "(open and close included) over the operations of its "
               "result line; cores busy: that CPU time over the process's "
               "wall-clock time.")
    for engine, warning in info["warnings"]:
        out.append("- %s's db_bench says: `%s`" % (engine, warning))
    out += ["", format_tables(rows)]
    line = verdict(rows)
    if line:
        out += ["", line]
    out += ["", "Commands (`$DB_BENCH`: each engine's db_bench; `$DB`: a "
            "fresh directory per run):", "",
            "```", commands_text(opts.num, opts.seed, opts.extra), "```"]
    return "\n".join(out) + "\n"
