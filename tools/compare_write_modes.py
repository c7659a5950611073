"""The write-mode table for tools/compare_rocksdb.py --write_modes.

fillrandom with 16 threads writing batches of 8 (16-byte keys, 100-byte
values, auto compactions off) in six cells: the WAL on or off
(--disable_wal) times three write modes. "ordered" is
--unordered_write=0 and "unordered" --unordered_write=1, the same flags
for both engines. "snapshot-safe" is unordered writing that keeps atomic
batches and immutable snapshots, and each engine gets there its own way:
strata with --unordered_write=1 --unordered_write_snapshot_safe=1 (the
inserts stay unordered, a write only becomes visible once every earlier
one is in the memtable), RocksDB with --unordered_write=1
--transaction_db=1 (its db_bench then opens a TransactionDB with
WritePrepared transactions and two write queues: RocksDB's own way to
have those guarantees with unordered_write). Every other flag is the same
in all six cells and for both engines.

Both engines run each cell, alternating, N times; the cell table shows
the median ops/sec, the ratio strata/RocksDB, and the CPU time (user +
sys of the db_bench process) per operation and per wall-clock second
("cores busy": on a 2-core machine 2.0 means both cores were busy all the
time, whether with work or with waiting writers spinning). A second
table gives each engine's unordered speedup and snapshot-safe speedup
(ops/sec of that cell / ordered) with and without the WAL, and a line
below it how much of strata's unordered speedup its snapshot-safe cells
keep: (snapshot-safe speedup - 1) / (unordered speedup - 1). The
verdict checks issue 8's bar on the four ordered and unordered cells and,
when the snapshot-safe cells ran, issue 23's on those.

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

from compare_report import COMMON_FLAGS, ENGINES, header_lines, shell_word

BENCHMARK = "fillrandom"
# Per db_bench thread, like every db_bench count: 3.2 M keys per run with
# 16 threads, about 7 memtables of 64 MiB, some 15 s per run here.
DEFAULT_NUM = 200000
FLAGS = ["--threads=16", "--batch_size=8", "--disable_auto_compactions=1",
         "--enable_pipelined_write=0"]
# The write modes: ordered (--unordered_write=0), unordered
# (--unordered_write=1) and snapshot-safe unordered, whose flags are each
# engine's own (SAFE_FLAGS).
MODES = ("ordered", "unordered", "safe")
SAFE_FLAGS = {"strata": ["--unordered_write_snapshot_safe=1"],
              "RocksDB": ["--transaction_db=1"]}
# (label, WAL on, mode), in table order: issue 8's four cells, then issue
# 23's two.
CELLS = (("WAL, ordered", True, "ordered"),
         ("WAL, unordered", True, "unordered"),
         ("no WAL, ordered", False, "ordered"),
         ("no WAL, unordered", False, "unordered"),
         ("WAL, snapshot-safe", True, "safe"),
         ("no WAL, snapshot-safe", False, "safe"))
# Issue 23's bar, with the WAL and without: strata's snapshot-safe cell
# keeps this much of its unordered speedup (kept()) ...
KEPT_BAR = 0.75
# ... and its ops/s are this many times RocksDB's in the same cell.
SAFE_RATIO_BAR = 1.5
CSV_FIELDS = ["engine", "cell", "run", "ops_per_sec", "micros_per_op",
              "seconds", "operations", "user_seconds", "sys_seconds",
              "wall_seconds"]


def cell_flags(engine, wal, mode):
    """The flags that make a cell: --disable_wal, --unordered_write and,
    in a snapshot-safe cell, the engine's own flag (SAFE_FLAGS)."""
    if engine not in SAFE_FLAGS:
        raise ValueError("unknown engine %r" % (engine,))
    if mode not in MODES:
        raise ValueError("unknown write mode %r" % (mode,))
    flags = ["--disable_wal=%d" % (0 if wal else 1),
             "--unordered_write=%d" % (0 if mode == "ordered" else 1)]
    if mode == "safe":
        flags += SAFE_FLAGS[engine]
    return flags


def plan_cell(engine, wal, mode, num, seed, extra, db="$DB"):
    """The db_bench arguments (without the binary) of one run of a cell
    by engine. extra comes last, so a flag given after -- wins (e.g.
    --threads=32)."""
    return (["--db=%s" % db, "--num=%d" % num, "--seed=%d" % seed] +
            COMMON_FLAGS + ["--benchmarks=%s" % BENCHMARK] + FLAGS +
            cell_flags(engine, wal, mode) + list(extra))


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
    result, in table order: label, "wal", "mode", and per engine the
    median ops
    ("ops"), CPU micros per op ("cpu") and cores busy ("cores"), plus
    "ratio" (strata/RocksDB ops, None without both)."""
    rows = []
    for label, wal, mode in CELLS:
        mine = [r for r in results if r["cell"] == label]
        if not mine:
            continue
        row = {"cell": label, "wal": wal, "mode": mode}
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


def speedups(rows, mode="unordered"):
    """{engine: {True: speedup with the WAL, False: without}}: median ops
    of the mode's cell (unordered or safe) / ordered; None where a cell
    is missing."""
    ops = {(row["wal"], row["mode"]): row for row in rows}
    result = {}
    for engine in ENGINES:
        result[engine] = {}
        for wal in (True, False):
            ordered = ops.get((wal, "ordered"), {}).get(engine, {}).get(
                "ops")
            other = ops.get((wal, mode), {}).get(engine, {}).get("ops")
            result[engine][wal] = (other / ordered
                                   if ordered and other is not None
                                   else None)
    return result


def kept(rows, engine="strata"):
    """{True: with the WAL, False: without}: the share of the engine's
    unordered speedup its snapshot-safe cell keeps, (safe speedup - 1) /
    (unordered speedup - 1); None where a speedup is missing or the
    unordered one is <= 1 (no gain to keep)."""
    unordered = speedups(rows)[engine]
    safe = speedups(rows, "safe")[engine]
    result = {}
    for wal in (True, False):
        u, s = unordered[wal], safe[wal]
        result[wal] = ((s - 1) / (u - 1)
                       if u is not None and s is not None and u > 1
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
              "no WAL | snapshot-safe speedup, WAL | snapshot-safe "
              "speedup, no WAL |", "|---|--:|--:|--:|--:|"]
    ups, safe = speedups(rows), speedups(rows, "safe")
    for engine in ENGINES:
        lines.append("| %s | %s | %s | %s | %s |" % (
            engine, _fmt(ups[engine][True], "{:.2f}"),
            _fmt(ups[engine][False], "{:.2f}"),
            _fmt(safe[engine][True], "{:.2f}"),
            _fmt(safe[engine][False], "{:.2f}")))
    share = kept(rows)
    lines += ["", "Kept by strata's snapshot-safe cells, (snapshot-safe "
              "speedup - 1) / (unordered speedup - 1): %s with the WAL, %s "
              "without." % (_fmt(share[True], "{:.2f}"),
                            _fmt(share[False], "{:.2f}"))]
    return "\n".join(lines)


def verdict(rows):
    """The write-mode bars in one line. Issue 8's, on the ordered and
    unordered cells: strata's ops/s >= RocksDB's in each of them and
    strata's unordered speedup >= RocksDB's with and without the WAL;
    None unless those four cells have both engines. Then, when both
    snapshot-safe cells have both engines, issue 23's (verdict_safe)."""
    issue8 = [r for r in rows if r["mode"] != "safe"]
    if (len(issue8) != len(CELLS) - 2 or
            any(r["ratio"] is None for r in issue8)):
        return None
    line = _verdict_issue8(issue8)
    safe = verdict_safe(rows)
    return line if safe is None else "%s %s" % (line, safe)


def _verdict_issue8(rows):
    """Issue 8's sentence; rows: the four ordered and unordered cells,
    each with both engines."""
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


def verdict_safe(rows):
    """Issue 23's bar in one sentence: with the WAL and without, strata's
    snapshot-safe cell keeps >= KEPT_BAR of its unordered speedup and
    its ops/s are >= SAFE_RATIO_BAR times RocksDB's in the same cell;
    None unless both snapshot-safe cells have both engines."""
    safe = {r["wal"]: r for r in rows if r["mode"] == "safe"}
    if len(safe) != 2 or any(r["ratio"] is None for r in safe.values()):
        return None
    share = kept(rows)
    names = {True: "WAL", False: "no WAL"}
    nothing = [names[wal] for wal in (True, False) if share[wal] is None]
    lost = [names[wal] for wal in (True, False)
            if share[wal] is not None and share[wal] < KEPT_BAR]
    slow = [names[wal] for wal in (True, False)
            if safe[wal]["ratio"] < SAFE_RATIO_BAR]
    if not nothing and not lost and not slow:
        return ("Issue 23's bar is met: with and without the WAL, strata's "
                "snapshot-safe cell keeps >= %d%% of its unordered "
                "speedup, and its ops/s are >= %gx RocksDB's "
                "(TransactionDB, WritePrepared) in the same cell." %
                (round(KEPT_BAR * 100), SAFE_RATIO_BAR))
    parts = []
    if nothing:
        parts.append("strata's unordered speedup is missing or not above "
                     "1, so there is none to keep (%s)" % ", ".join(nothing))
    if lost:
        parts.append("strata's snapshot-safe cell keeps less than %d%% of "
                     "its unordered speedup (%s)" %
                     (round(KEPT_BAR * 100), ", ".join(lost)))
    if slow:
        parts.append("strata's snapshot-safe ops/s are below %gx "
                     "RocksDB's (%s)" % (SAFE_RATIO_BAR, ", ".join(slow)))
    return "Issue 23's bar is not met: %s." % "; ".join(parts)


def commands_text(num, seed, extra):
    """One command line per cell, or per cell and engine where the
    engines' flags differ (the snapshot-safe cells, "# label (engine)");
    $DB_BENCH is the engine's binary, $DB a fresh directory per run."""
    lines = []
    for label, wal, mode in CELLS:
        plans = [(engine, plan_cell(engine, wal, mode, num, seed, extra))
                 for engine in ENGINES]
        if all(args == plans[0][1] for _, args in plans):
            plans = [(None, plans[0][1])]
        for engine, args in plans:
            lines.append("# %s" % label if engine is None else
                         "# %s (%s)" % (label, engine))
            lines.append("$DB_BENCH " + " ".join(shell_word(a)
                                                 for a in args))
    return "\n".join(lines)


def report_markdown(opts, rows, info, binaries):
    """The whole --write_modes report: how it was made, both tables, the
    commands."""
    out = header_lines("strata vs RocksDB: write modes (issues 8 and 23)",
                       info, binaries)
    out.append("- %s, `%s`, `--num=%d` per thread; %d run(s) per engine "
               "and cell, alternating strata, RocksDB, each in a fresh "
               "directory; medians." % (BENCHMARK, " ".join(FLAGS),
                                        opts.num, opts.runs))
    out.append("- Snapshot-safe cells: strata `--unordered_write=1 %s`, "
               "RocksDB `--unordered_write=1 %s` (a TransactionDB, "
               "WritePrepared, two write queues); the other cells pass the "
               "same flags to both." % (" ".join(SAFE_FLAGS["strata"]),
                                        " ".join(SAFE_FLAGS["RocksDB"])))
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
